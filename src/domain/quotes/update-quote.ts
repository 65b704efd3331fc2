import { nowIso, type VerbArgs } from '../context.js';
import { AppError, type FieldError } from '../errors.js';
import { checkOptionalText } from '../settings/quote-settings.js';
import { checkEmail } from '../email-address.js';
import { findQuoteRow, loadQuoteView, requireDraft, timeZoneOf, todayIn, type QuoteView } from './quote-view.js';

/** What a draft's details a save may change; each is optional, and an empty text clears it. */
export interface QuoteDetails {
  title?: string;
  note?: string;
  terms?: string;
  /** `YYYY-MM-DD`, today or later in the workspace's time zone. */
  validUntil?: string;
  customerName?: string;
  customerEmail?: string;
  customerPhone?: string;
  customerAddress?: string;
}

/** Saves a draft's title, note, terms, valid-until and customer details; every refusal at once, next to its field. */
export async function updateQuote({
  ctx,
  input,
}: VerbArgs<{ workspaceId?: string; quoteId: string; details: QuoteDetails }>): Promise<QuoteView> {
  const quote = await findQuoteRow(ctx.store.db, { workspaceId: input.workspaceId, quoteId: input.quoteId });
  requireDraft(quote);
  const d = input.details;
  const errors: FieldError[] = [];
  const check = <T>(field: string, fn: () => T): T | undefined => {
    try {
      return fn();
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      errors.push(...(error.fieldErrors ?? [{ field, code: 'invalid' as const, message: error.detail }]));
      return undefined;
    }
  };
  const text = (value: string | undefined, field: string, label: string, max: number, multiline: boolean) =>
    value === undefined ? undefined : check(field, () => checkOptionalText(value, field, label, max, multiline));
  const changes = {
    title: text(d.title, 'title', 'The title', 200, false),
    note: text(d.note, 'note', 'The note', 5000, true),
    terms: text(d.terms, 'terms', 'The terms', 5000, true),
    customer_name: text(d.customerName, 'customerName', "The customer's name", 200, false),
    customer_email:
      d.customerEmail === undefined
        ? undefined
        : check('customerEmail', () =>
            d.customerEmail!.trim() === '' ? null : checkEmail(d.customerEmail!, 'customerEmail'),
          ),
    customer_phone: text(d.customerPhone, 'customerPhone', "The customer's phone", 40, false),
    customer_address: text(d.customerAddress, 'customerAddress', "The customer's address", 500, true),
    valid_until:
      d.validUntil === undefined
        ? undefined
        : check('validUntil', () => {
            const day = d.validUntil!.trim();
            const parsed = new Date(`${day}T00:00:00Z`);
            if (
              !/^\d{4}-\d{2}-\d{2}$/.test(day) ||
              Number.isNaN(parsed.getTime()) ||
              parsed.toISOString().slice(0, 10) !== day
            ) {
              throw new AppError('invalid_fields', 'Valid until is a date, YYYY-MM-DD', [
                { field: 'validUntil', code: 'invalid', message: 'Give a date such as 2026-12-31' },
              ]);
            }
            return day;
          }),
  };
  if (changes.valid_until) {
    const today = todayIn(await timeZoneOf(ctx.store.db, quote.workspace_id), ctx.clock.now());
    if (changes.valid_until < today)
      errors.push({ field: 'validUntil', code: 'invalid', message: `Valid until is today (${today}) or later` });
  }
  if (errors.length > 0) throw new AppError('invalid_fields', errors.map((e) => e.message).join('; '), errors);
  const set = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
  return ctx.store.writer.write(async (trx) => {
    const row = await findQuoteRow(trx, { quoteId: quote.id });
    requireDraft(row);
    await trx
      .updateTable('quotes')
      .set({ ...set, updated_at: nowIso(ctx) })
      .where('id', '=', row.id)
      .execute();
    return loadQuoteView(ctx, trx, await findQuoteRow(trx, { quoteId: row.id }));
  });
}
