import { sql, type RawBuilder, type Selectable, type Transaction } from 'kysely';
import type { QuoteTable, Schema } from '../../storage/schema.js';
import { nowIso, type DomainContext, type WorkspaceVerbArgs } from '../context.js';
import { changedExactly } from '../document-state.js';
import { AppError, isAppError, type FieldError } from '../errors.js';
import { lineAmount, type TaxRate } from '../money.js';
import type { WorkspaceTax } from '../settings/workspace-settings.js';
import { checkQuoteDetails, type QuoteDetails } from './quote-details.js';
import { checkLineFields, type LineFields, type LineValues } from './line-fields.js';
import { insertLines } from './quote-rows.js';
import { lockQuote, notEditable, quoteStates } from './quote-states.js';
import { storeTotals, timeZoneOf, todayIn, type QuoteView } from './quote-view.js';

/** What one save of a draft changes: its details, some of its lines, and a new free line. */
export interface DraftChanges {
  details?: QuoteDetails;
  lines?: Array<{ lineId: string; line: LineFields }>;
  /** A free line (a negative price is a discount); without taxes it carries the workspace's taxes on by default. */
  newLine?: LineFields;
}

/** How a refusal names a line's fields: the builder's form prefixes them (`line-{id}-price`, `new-price`). */
export interface FieldNames {
  line?: (lineId: string) => string;
  newLine?: string;
}

/** Only a draft changes (quote-states.ts): the refusal says what it is now. */
export function requireEditable(row: Selectable<QuoteTable>): void {
  quoteStates.requireMove('edit', row.status, (status) => notEditable(row, status));
}

/**
 * One save of a draft, inside the caller's write: locks the quote (`lockQuote`), refuses unless it is a draft, checks
 * every change and refuses them all at once (each field error named by `names`), then writes every change and the
 * totals, each on the condition that the revision is still a draft. All or nothing: a refusal or a send that got in
 * first leaves the draft as it was (docs/security.md, "Document states").
 */
export async function saveDraft(
  ctx: DomainContext,
  trx: Transaction<Schema>,
  ref: { workspaceId: string; quoteId: string },
  changes: DraftChanges,
  names: FieldNames = {},
): Promise<QuoteView> {
  const row = await lockQuote(ctx, trx, ref);
  requireEditable(row);
  const rates = JSON.parse(row.tax_rates) as TaxRate[];
  const errors: FieldError[] = [];
  const named = <T>(prefix: string, check: () => T): T | undefined => {
    try {
      return check();
    } catch (error) {
      if (!isAppError(error) || error.code !== 'invalid_fields') throw error;
      errors.push(
        ...(error.fieldErrors ?? [{ field: 'description', code: 'invalid' as const, message: error.detail }]).map(
          (fe) => ({ ...fe, field: `${prefix}${fe.field}` }),
        ),
      );
      return undefined;
    }
  };
  let details: ReturnType<typeof checkQuoteDetails>['set'] | undefined;
  if (changes.details) {
    const checked = checkQuoteDetails(
      changes.details,
      todayIn(await timeZoneOf(trx, row.workspace_id), ctx.clock.now()),
    );
    errors.push(...checked.errors);
    details = checked.set;
  }
  const lines = (changes.lines ?? []).map(({ lineId, line }) => ({
    lineId,
    values: named(names.line?.(lineId) ?? '', () => checkLineFields(line, row.currency, rates)),
  }));
  const newLine = changes.newLine
    ? named(names.newLine ?? '', () => checkLineFields(changes.newLine!, row.currency, rates))
    : undefined;
  if (errors.length > 0) throw new AppError('invalid_fields', errors.map((e) => e.message).join('; '), errors);

  const at = nowIso(ctx);
  const editable = quoteStates.moveFrom('edit');
  if (details && Object.keys(details).length > 0) {
    const updated = await trx
      .updateTable('quotes')
      .set({ ...details, updated_at: at })
      .where('id', '=', row.id)
      .where('status', 'in', editable)
      .executeTakeFirst();
    changedExactly(updated, 1, () => notEditable(row, 'no longer a draft'));
  }
  for (const { lineId, values } of lines) await updateLine(trx, row.id, lineId, values!);
  if (newLine) {
    const taxes = newLine.taxes ?? (await defaultTaxes(trx, row.workspace_id, rates));
    await insertLines(trx, row.id, [
      {
        description: newLine.description,
        quantity: newLine.quantity,
        unit: newLine.unit,
        unitPrice: newLine.unitPrice,
        taxes,
        optional: newLine.optional ?? false,
        // An optional line starts unticked unless the sender ticks it; a line that is not optional always counts.
        chosen: newLine.optional ? (newLine.chosen ?? false) : true,
        source: null,
      },
    ]);
  }
  return storeTotals(ctx, trx, row.id, at, editable);
}

/**
 * The tick a save leaves on a line: 1 or 0 as given (always 1 for a line that is not optional); for a line made
 * optional without a tick given, its tick if it was optional already, else 0.
 */
function chosenOf(values: LineValues): number | RawBuilder<number> | undefined {
  if (values.optional === false) return 1;
  if (values.chosen !== undefined) return values.chosen ? 1 : 0;
  if (values.optional === true) return sql<number>`case when optional = 1 then chosen else 0 end`;
  return undefined;
}

/**
 * A line of the (locked) draft changed; a measured line keeps where it came from, taxes stay when not given. A line
 * that is not optional always counts (chosen); one made optional now without a tick given starts unticked, as the
 * customer then sees it (docs/quotes.md, "Optional lines").
 */
async function updateLine(trx: Transaction<Schema>, quoteId: string, lineId: string, values: LineValues) {
  const chosen = chosenOf(values);
  const updated = await trx
    .updateTable('quote_lines')
    .set({
      description: values.description,
      quantity: values.quantity,
      unit: values.unit,
      unit_price: values.unitPrice,
      amount: lineAmount(values.quantity, values.unitPrice),
      ...(values.taxes !== undefined ? { taxes: JSON.stringify(values.taxes) } : {}),
      ...(values.optional !== undefined ? { optional: values.optional ? 1 : 0 } : {}),
      ...(chosen !== undefined ? { chosen } : {}),
    })
    .where('id', '=', lineId)
    .where('quote_id', '=', quoteId)
    .executeTakeFirst();
  changedExactly(updated, 1, () => new AppError('quote_line_not_found', `No line ${lineId} on this quote`));
}

/** The taxes a new line carries when none are given: the workspace's on by default, of those the quote has. */
async function defaultTaxes(trx: Transaction<Schema>, workspaceId: string, rates: TaxRate[]): Promise<string[]> {
  const row = await trx.selectFrom('workspaces').select('taxes').where('id', '=', workspaceId).executeTakeFirst();
  const taxes = JSON.parse(row?.taxes ?? '[]') as WorkspaceTax[];
  return taxes.filter((t) => t.onByDefault && rates.some((r) => r.name === t.name)).map((t) => t.name);
}

/**
 * The builder's Save (and the save that Send makes first): the details, every line shown and a free line when one
 * was typed, as one transaction. Every refusal comes back at once, named as the builder's form names its fields
 * (`title`, `line-{id}-price`, `new-description`), and nothing is saved; a send that got in first answers
 * `quote_not_editable` and nothing is saved either.
 */
export async function saveQuote({
  ctx,
  input,
}: WorkspaceVerbArgs<{ quoteId: string } & DraftChanges>): Promise<QuoteView> {
  return ctx.store.writer.write((trx) =>
    saveDraft(
      ctx,
      trx,
      { workspaceId: ctx.workspaceId, quoteId: input.quoteId },
      { details: input.details, lines: input.lines, newLine: input.newLine },
      { line: (lineId) => `line-${lineId}-`, newLine: 'new-' },
    ),
  );
}
