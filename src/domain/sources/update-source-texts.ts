import { recordAudit } from '../audit/record-audit.js';
import type { DomainContext, VerbArgs } from '../context.js';
import { AppError, type FieldError } from '../errors.js';
import { controlCharacterMessage, hasControlCharacters } from '../text-input.js';
import { nowIso } from '../context.js';

/** The hosted form's own words (docs/api.md): plain text, shown escaped; null means the default. */
export interface SourceTexts {
  heading: string | null;
  introduction: string | null;
  thankYou: string | null;
}

export const SOURCE_TEXT_LIMITS: Record<keyof SourceTexts, number> = {
  heading: 120,
  introduction: 1000,
  thankYou: 1000,
};

export const NO_TEXTS: SourceTexts = { heading: null, introduction: null, thankYou: null };

export async function readSourceTexts(ctx: DomainContext, sourceId: string): Promise<SourceTexts> {
  const row = await ctx.store.db
    .selectFrom('lead_source_texts')
    .select(['heading', 'introduction', 'thank_you'])
    .where('source_id', '=', sourceId)
    .executeTakeFirst();
  return row ? { heading: row.heading, introduction: row.introduction, thankYou: row.thank_you } : NO_TEXTS;
}

/** Sources screen: set the heading, introduction and thank-you text; an empty field goes back to the default. */
export async function updateSourceTexts({
  ctx,
  input,
}: VerbArgs<{ sourceId: string; texts: Partial<Record<keyof SourceTexts, string | null>> }>): Promise<SourceTexts> {
  const texts: SourceTexts = { ...NO_TEXTS };
  const errors: FieldError[] = [];
  for (const key of Object.keys(SOURCE_TEXT_LIMITS) as Array<keyof SourceTexts>) {
    const value = (input.texts[key] ?? '').replace(/\r\n/g, '\n').trim();
    const max = SOURCE_TEXT_LIMITS[key];
    if (hasControlCharacters(value, true))
      errors.push({ field: key, code: 'invalid', message: controlCharacterMessage('This text') });
    else if ([...value].length > max)
      errors.push({ field: key, code: 'too_long', message: `Use at most ${max} characters`, max });
    texts[key] = value === '' ? null : value;
  }
  if (errors.length) throw new AppError('invalid_fields', errors.map((e) => e.message).join('; '), errors);
  const now = nowIso(ctx);
  const row = { heading: texts.heading, introduction: texts.introduction, thank_you: texts.thankYou, updated_at: now };
  await ctx.store.writer.write(async (trx) => {
    const updated = await trx
      .updateTable('lead_source_texts')
      .set(row)
      .where('source_id', '=', input.sourceId)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0) {
      await trx
        .insertInto('lead_source_texts')
        .values({ source_id: input.sourceId, ...row })
        .execute();
    }
    const source = await trx
      .selectFrom('lead_sources')
      .select('workspace_id')
      .where('id', '=', input.sourceId)
      .executeTakeFirstOrThrow();
    await recordAudit(trx, ctx, {
      action: 'source.texts_changed',
      workspaceId: source.workspace_id,
      targetIds: [input.sourceId],
    });
  });
  return texts;
}
