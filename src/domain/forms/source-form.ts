import { recordAudit } from '../audit/record-audit.js';
import type { Transaction } from 'kysely';
import type { DomainContext } from '../context.js';
import { nowIso } from '../context.js';
import { AppError } from '../errors.js';
import type { LeadSource } from '../sources/source.js';
import { NO_TEXTS, readSourceTexts, type SourceTexts } from '../sources/update-source-texts.js';
import type { Schema } from '../../storage/schema.js';
import { parseFormFields, type FormFieldDefinition } from './form-definition.js';
import { fieldsInOrder, parseFormLayout, storedFormLayout, type FormLayout } from './form-layout.js';

/**
 * A source's own form: its own fields (in the form's order), the built-in fields' settings and the one order of
 * all of them (form-layout.ts), and its accent colour (null for the default).
 */
export interface SourceForm {
  fields: FormFieldDefinition[];
  layout: FormLayout;
  accent: string | null;
}

/** The form's columns of a `lead_source_texts` row (or of none: the default form). */
export interface SourceFormColumns {
  form_fields?: string | null;
  form_layout?: string | null;
  accent?: string | null;
}

export function sourceFormOf(row: SourceFormColumns | undefined): SourceForm {
  const fields = parseFormFields(row?.form_fields);
  const layout = parseFormLayout(row?.form_layout, fields);
  return { fields: fieldsInOrder(fields, layout.order), layout, accent: row?.accent ?? null };
}

export async function readSourceForm(ctx: DomainContext, sourceId: string): Promise<SourceForm> {
  const row = await ctx.store.db
    .selectFrom('lead_source_texts')
    .select(['form_fields', 'form_layout', 'accent'])
    .where('source_id', '=', sourceId)
    .executeTakeFirst();
  return sourceFormOf(row);
}

/** Everything the hosted form page shows: texts, fields, look, and the workspace's name for the default heading. */
export interface HostedForm extends SourceForm {
  texts: SourceTexts;
  /** The heading: the owner's, else the workspace's name (never the source's internal name). */
  heading: string;
}

export async function readHostedForm(ctx: DomainContext, source: LeadSource): Promise<HostedForm> {
  const [texts, form, workspace] = await Promise.all([
    readSourceTexts(ctx, source.id),
    readSourceForm(ctx, source.id),
    ctx.store.db.selectFrom('workspaces').select('name').where('id', '=', source.workspaceId).executeTakeFirst(),
  ]);
  return { ...form, texts, heading: texts.heading ?? workspace?.name ?? source.name };
}

/**
 * Changes a source's form inside one transaction: reads the row (the texts row; made when missing), applies
 * `change`, writes it back. Two owners editing at once serialize here rather than lose each other's field.
 * Every form edit goes through the generic writer: its commit is what drops this process's cached intake sources,
 * form fields included (domain/intake/source-cache.ts), so the next post is checked against the new form.
 * A change that returns `form: null` changes nothing: nothing is written and nothing is audited, since the log
 * records changes that happened (docs/operations.md, "The audit log").
 */
export async function changeSourceForm<T>(
  ctx: DomainContext,
  sourceId: string,
  action: 'source.form_changed' | 'source.accent_changed',
  change: (form: SourceForm) => { form: SourceForm | null; result: T },
): Promise<T> {
  return ctx.store.writer.write(async (trx: Transaction<Schema>) => {
    const source = await trx
      .selectFrom('lead_sources')
      .select('workspace_id')
      .where('id', '=', sourceId)
      .executeTakeFirst();
    if (!source) throw new AppError('source_not_found', `No lead source has the id ${sourceId}`);
    const row = await trx
      .selectFrom('lead_source_texts')
      .select(['form_fields', 'form_layout', 'accent'])
      .where('source_id', '=', sourceId)
      .executeTakeFirst();
    const { form, result } = change(sourceFormOf(row));
    if (form === null) return result;
    // The own fields are kept in the form's order, so the list and the layout never disagree.
    const fields = fieldsInOrder(form.fields, form.layout.order);
    const values = {
      form_fields: fields.length ? JSON.stringify(fields) : null,
      form_layout: storedFormLayout(form.layout, fields),
      accent: form.accent,
      updated_at: nowIso(ctx),
    };
    if (row) await trx.updateTable('lead_source_texts').set(values).where('source_id', '=', sourceId).execute();
    else {
      await trx
        .insertInto('lead_source_texts')
        .values({
          source_id: sourceId,
          heading: NO_TEXTS.heading,
          introduction: NO_TEXTS.introduction,
          thank_you: NO_TEXTS.thankYou,
          ...values,
        })
        .execute();
    }
    await recordAudit(trx, ctx, {
      action,
      workspaceId: source.workspace_id,
      targetIds: [sourceId],
      details: { fields: form.fields.length },
    });
    return result;
  });
}

export function fieldNotFound(fieldId: string): AppError {
  return new AppError('form_field_not_found', `This form has no field ${fieldId}; it may have been removed already`);
}
