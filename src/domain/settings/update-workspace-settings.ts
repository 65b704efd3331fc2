import { recordAudit } from '../audit/record-audit.js';
import type { VerbArgs } from '../context.js';
import { AppError, type FieldError } from '../errors.js';
import { assertNameFree, checkName } from '../unique-name.js';
import { checkCurrency, checkLocale, parseDeposit } from '../money.js';
import {
  applyTaxChanges,
  applyTaxNumberChanges,
  checkBusinessEmail,
  checkOptionalText,
  checkQuoteValidDays,
  type TaxChange,
  type TaxNumberChange,
} from './quote-settings.js';
import {
  checkBooksYears,
  checkInvoicePrefix,
  checkPaymentInstructions,
  checkPaymentTerms,
} from './invoice-settings.js';
import { checkFollowUpDays, checkReminderDays, CUSTOMER_REMINDERS, INVOICE_REMINDERS } from './follow-up-settings.js';
import {
  checkRetention,
  checkTimeZone,
  checkUnits,
  getWorkspaceSettings,
  type WorkspaceSettings,
} from './workspace-settings.js';

/** Runs a check; a refusal becomes field errors of `field` (so a page shows each next to its field). */
function checked<T>(fieldErrors: FieldError[], field: string, check: () => T): T | undefined {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    fieldErrors.push(
      ...(error.fieldErrors?.length ? error.fieldErrors : [{ field, code: 'invalid' as const, message: error.detail }]),
    );
    return undefined;
  }
}

/** Which settings a save changed, for its audit record (flags, never the values: a name is free text). */
function changedFlags(before: Record<string, unknown>, changes: Record<string, unknown>): Record<string, boolean> {
  return Object.fromEntries(
    Object.entries(changes)
      .filter(([column, value]) => (before[column] ?? null) !== value)
      .map(([column]) => [column, true]),
  );
}

/**
 * The Settings screen and `leadscan workspace settings`: name, time zone, units, retention and what quotes use
 * (currency, locale, taxes, validity, terms, the business's details), each optional. Every value is checked before
 * anything is written, all refusals are reported at once, and the change is one transaction. A currency change
 * re-prices nothing: each quote keeps the currency it was made in.
 */
export async function updateWorkspaceSettings({
  ctx,
  input,
}: VerbArgs<{
  workspaceId: string;
  name?: string;
  timeZone?: string;
  units?: string;
  /** `off` or 3, 6, 12, 24, 36 (months). */
  leadRetention?: string;
  scanRetention?: string;
  currency?: string;
  locale?: string;
  /** Applied in order to the current taxes; `rate: 'off'` removes one. */
  taxes?: TaxChange[];
  quoteValidDays?: string | number;
  /** Empty clears it (as do the three business details). */
  quoteTerms?: string;
  businessAddress?: string;
  businessPhone?: string;
  businessEmail?: string;
  /** Applied in order; an empty value removes that name. */
  taxNumbers?: TaxNumberChange[];
  /** The deposit new quotes ask: `30%`, `500.00` (in the currency, after any change of it above) or `none`. */
  deposit?: string;
  /** `off` or days (docs/quotes.md, "Follow-ups"). */
  followUpDays?: string;
  /** `off` or up to two days, `3,7`. */
  customerReminders?: string;
  /** `off` or up to three days, `7,14,30`. */
  invoiceReminders?: string;
  /** What invoice numbers start with (docs/invoices.md, "Settings"). */
  invoicePrefix?: string;
  /** Days from an invoice's issue to its due date, 0 to 365. */
  paymentTerms?: string | number;
  /** Printed on every invoice, up to 1,000 characters; empty clears them. */
  paymentInstructions?: string;
  /** Years issued invoices are kept, 1 to 50. */
  booksYears?: string | number;
}>): Promise<WorkspaceSettings> {
  const fieldErrors: FieldError[] = [];
  const current =
    input.taxes || input.taxNumbers || input.deposit !== undefined
      ? await getWorkspaceSettings({ ctx, input: { workspaceId: input.workspaceId } })
      : undefined;
  const name =
    input.name === undefined ? undefined : checked(fieldErrors, 'name', () => checkName('workspace', input.name!));
  const timeZone =
    input.timeZone === undefined ? undefined : checked(fieldErrors, 'timeZone', () => checkTimeZone(input.timeZone!));
  const units = input.units === undefined ? undefined : checked(fieldErrors, 'units', () => checkUnits(input.units!));
  const leadRetention =
    input.leadRetention === undefined
      ? undefined
      : checked(fieldErrors, 'leadRetention', () => checkRetention('leadRetention', input.leadRetention!));
  const scanRetention =
    input.scanRetention === undefined
      ? undefined
      : checked(fieldErrors, 'scanRetention', () => checkRetention('scanRetention', input.scanRetention!));
  const currency =
    input.currency === undefined ? undefined : checked(fieldErrors, 'currency', () => checkCurrency(input.currency!));
  const locale =
    input.locale === undefined ? undefined : checked(fieldErrors, 'locale', () => checkLocale(input.locale!));
  const taxes =
    input.taxes === undefined
      ? undefined
      : checked(fieldErrors, 'taxes', () => applyTaxChanges(current!.taxes, input.taxes!));
  const taxNumbers =
    input.taxNumbers === undefined
      ? undefined
      : checked(fieldErrors, 'taxNumbers', () => applyTaxNumberChanges(current!.taxNumbers, input.taxNumbers!));
  const quoteValidDays =
    input.quoteValidDays === undefined
      ? undefined
      : checked(fieldErrors, 'quoteValidDays', () => checkQuoteValidDays(input.quoteValidDays!));
  const optional = (value: string | undefined, field: string, label: string, max: number, multiline: boolean) =>
    value === undefined
      ? undefined
      : checked(fieldErrors, field, () => checkOptionalText(value, field, label, max, multiline));
  const quoteTerms = optional(input.quoteTerms, 'quoteTerms', 'The terms', 5000, true);
  const businessAddress = optional(input.businessAddress, 'businessAddress', 'The address', 500, true);
  const businessPhone = optional(input.businessPhone, 'businessPhone', 'The phone', 40, false);
  const businessEmail =
    input.businessEmail === undefined
      ? undefined
      : checked(fieldErrors, 'businessEmail', () => checkBusinessEmail(input.businessEmail!));
  const deposit =
    input.deposit === undefined
      ? undefined
      : checked(fieldErrors, 'deposit', () => parseDeposit(input.deposit!, currency ?? current!.currency));
  const followUpDays =
    input.followUpDays === undefined
      ? undefined
      : checked(fieldErrors, 'followUpDays', () => checkFollowUpDays(input.followUpDays!));
  const customerReminders =
    input.customerReminders === undefined
      ? undefined
      : checked(fieldErrors, 'customerReminders', () =>
          checkReminderDays(input.customerReminders!, 'customerReminders', CUSTOMER_REMINDERS),
        );
  const invoiceReminders =
    input.invoiceReminders === undefined
      ? undefined
      : checked(fieldErrors, 'invoiceReminders', () =>
          checkReminderDays(input.invoiceReminders!, 'invoiceReminders', INVOICE_REMINDERS),
        );
  const invoicePrefix =
    input.invoicePrefix === undefined
      ? undefined
      : checked(fieldErrors, 'invoicePrefix', () => checkInvoicePrefix(input.invoicePrefix!));
  const paymentTerms =
    input.paymentTerms === undefined
      ? undefined
      : checked(fieldErrors, 'paymentTerms', () => checkPaymentTerms(input.paymentTerms!));
  const paymentInstructions =
    input.paymentInstructions === undefined
      ? undefined
      : checked(fieldErrors, 'paymentInstructions', () => checkPaymentInstructions(input.paymentInstructions!));
  const booksYears =
    input.booksYears === undefined
      ? undefined
      : checked(fieldErrors, 'booksYears', () => checkBooksYears(input.booksYears!));
  if (fieldErrors.length > 0) {
    throw new AppError('invalid_fields', fieldErrors.map((e) => e.message).join('; '), fieldErrors);
  }
  const changes = {
    ...(name !== undefined ? { name } : {}),
    ...(timeZone !== undefined ? { time_zone: timeZone } : {}),
    ...(units !== undefined ? { units } : {}),
    ...(leadRetention !== undefined ? { lead_retention_months: leadRetention } : {}),
    ...(scanRetention !== undefined ? { scan_retention_months: scanRetention } : {}),
    ...(currency !== undefined ? { currency } : {}),
    ...(locale !== undefined ? { locale } : {}),
    ...(taxes !== undefined ? { taxes: JSON.stringify(taxes) } : {}),
    ...(taxNumbers !== undefined ? { tax_numbers: JSON.stringify(taxNumbers) } : {}),
    ...(quoteValidDays !== undefined ? { quote_valid_days: quoteValidDays } : {}),
    ...(quoteTerms !== undefined ? { quote_terms: quoteTerms } : {}),
    ...(businessAddress !== undefined ? { business_address: businessAddress } : {}),
    ...(businessPhone !== undefined ? { business_phone: businessPhone } : {}),
    ...(businessEmail !== undefined ? { business_email: businessEmail } : {}),
    ...(deposit !== undefined
      ? { deposit_percent: deposit?.percent ?? null, deposit_amount: deposit?.fixed ?? null }
      : {}),
    ...(followUpDays !== undefined ? { follow_up_days: followUpDays } : {}),
    ...(customerReminders !== undefined ? { customer_reminder_days: JSON.stringify(customerReminders) } : {}),
    ...(invoiceReminders !== undefined ? { invoice_reminder_days: JSON.stringify(invoiceReminders) } : {}),
    ...(invoicePrefix !== undefined ? { invoice_prefix: invoicePrefix } : {}),
    ...(paymentTerms !== undefined ? { payment_terms_days: paymentTerms } : {}),
    ...(paymentInstructions !== undefined ? { payment_instructions: paymentInstructions } : {}),
    ...(booksYears !== undefined ? { books_years: booksYears } : {}),
  };
  if (Object.keys(changes).length > 0) {
    await ctx.store.writer.write(async (trx) => {
      if (name !== undefined) {
        try {
          await assertNameFree(trx, 'workspaces', { name, exceptId: input.workspaceId });
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          throw new AppError(error.code, error.detail, [{ field: 'name', code: 'invalid', message: error.detail }]);
        }
      }
      const before = await trx
        .selectFrom('workspaces')
        .selectAll()
        .where('id', '=', input.workspaceId)
        .executeTakeFirst();
      if (!before) throw new AppError('workspace_not_found', 'No such workspace');
      await trx.updateTable('workspaces').set(changes).where('id', '=', input.workspaceId).execute();
      // A save that changed nothing is no change to record.
      const changed = changedFlags(before, changes);
      if (Object.keys(changed).length > 0)
        await recordAudit(trx, ctx, { action: 'settings.changed', workspaceId: input.workspaceId, details: changed });
    });
  }
  return getWorkspaceSettings({ ctx, input: { workspaceId: input.workspaceId } });
}
