import { AppError } from '../errors.js';
import type { VerbArgs } from '../context.js';
import type { DepositTerms } from '../money.js';
import type { Units } from '../units.js';
import { INVOICE_SETTINGS } from './invoice-settings.js';

export type { Units } from '../units.js';

export interface WorkspaceSettings {
  workspaceId: string;
  name: string;
  timeZone: string;
  units: Units;
  /** Months leads are kept before the daily job deletes them; null keeps them (docs/operations.md, "Retention"). */
  leadRetentionMonths: RetentionMonths | null;
  /** Months scans are kept; null keeps them. */
  scanRetentionMonths: RetentionMonths | null;
  /** ISO 4217; amounts are integers in its smallest unit (docs/quotes.md, "Money"). */
  currency: string;
  /** BCP 47, for numbers and dates on quotes. */
  locale: string;
  /** Up to three named taxes; `rate` in thousandths of a percent (9.975 % is 9975). */
  taxes: WorkspaceTax[];
  quoteValidDays: number;
  quoteTerms: string | null;
  businessAddress: string | null;
  businessPhone: string | null;
  businessEmail: string | null;
  /** Tax registration numbers printed on quotes, e.g. `{ name: 'GST/HST', value: '123456789 RT0001' }`. */
  taxNumbers: TaxNumber[];
  /** The deposit a new quote asks (docs/quotes.md, "The deposit"); null for none, the default. */
  deposit: DepositTerms | null;
  /** Days without an answer before the quote's sender is reminded; null is off (docs/quotes.md, "Follow-ups"). */
  followUpDays: number | null;
  /** Days after a send the customer is reminded with the same link (at most two); empty is off. */
  customerReminderDays: number[];
  /** Days after an invoice's due date its customer is reminded (at most three); empty is off. */
  invoiceReminderDays: number[];
  /** What invoice numbers start with (docs/invoices.md, "Numbers"): `INV-` unless chosen. */
  invoicePrefix: string;
  /** Days from an invoice's issue to its due date: 14 unless chosen. */
  paymentTermsDays: number;
  /** Printed on every invoice ("Bank transfer to …"); null for none. */
  paymentInstructions: string | null;
  /** Years issued invoices are kept: 10 unless chosen. */
  booksYears: number;
}

export interface WorkspaceTax {
  name: string;
  rate: number;
  /** Whether a new line carries it unless the person unticks it. */
  onByDefault: boolean;
}

export interface TaxNumber {
  name: string;
  value: string;
}

export const MAX_TAXES = 3;

/** The ages a workspace may choose for leads and scans; "off" is null. */
export const RETENTION_MONTHS = [3, 6, 12, 24, 36] as const;
export type RetentionMonths = (typeof RETENTION_MONTHS)[number];

/** `off` or a number of months from RETENTION_MONTHS, as the settings form and the CLI send it. */
export function checkRetention(field: string, value: string): RetentionMonths | null {
  const text = value.trim();
  if (text === 'off' || text === '') return null;
  const months = Number(text);
  if (!(RETENTION_MONTHS as readonly number[]).includes(months)) {
    throw new AppError('invalid_fields', `Retention is off or ${RETENTION_MONTHS.join(', ')} months`, [
      { field, code: 'invalid', message: `Choose off or ${RETENTION_MONTHS.join(', ')} months` },
    ]);
  }
  return months as RetentionMonths;
}

const TIME_ZONES: ReadonlySet<string> = new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']);

/** Every IANA zone this Node knows, for the settings screen's list. */
export function timeZones(): string[] {
  return [...TIME_ZONES].sort();
}

export function checkTimeZone(value: string): string {
  const zone = value.trim();
  if (!TIME_ZONES.has(zone)) {
    throw new AppError('invalid_fields', `"${zone.slice(0, 60)}" is not a time zone this server knows`, [
      {
        field: 'timeZone',
        code: 'invalid',
        message: 'Choose a time zone from the list, e.g. America/Toronto or Europe/Paris',
      },
    ]);
  }
  return zone;
}

export function checkUnits(value: string): Units {
  if (value !== 'metric' && value !== 'imperial') {
    throw new AppError('invalid_fields', 'Units are metric or imperial', [
      { field: 'units', code: 'invalid', message: 'Choose metric (m, m²) or imperial (ft-in, ft²)' },
    ]);
  }
  return value;
}

/** A workspace's settings by id (the workspace exists: callers have resolved it). */
export async function getWorkspaceSettings({
  ctx,
  input,
}: VerbArgs<{ workspaceId: string }>): Promise<WorkspaceSettings> {
  const row = await ctx.store.db
    .selectFrom('workspaces')
    .select([
      'id',
      'name',
      'time_zone',
      'units',
      'lead_retention_months',
      'scan_retention_months',
      'currency',
      'locale',
      'taxes',
      'quote_valid_days',
      'quote_terms',
      'business_address',
      'business_phone',
      'business_email',
      'tax_numbers',
      'deposit_percent',
      'deposit_amount',
      'follow_up_days',
      'customer_reminder_days',
      'invoice_reminder_days',
      'invoice_prefix',
      'payment_terms_days',
      'payment_instructions',
      'books_years',
    ])
    .where('id', '=', input.workspaceId)
    .executeTakeFirst();
  if (!row) throw new AppError('workspace_not_found', 'No such workspace');
  return {
    workspaceId: row.id,
    name: row.name,
    timeZone: row.time_zone ?? 'UTC',
    units: (row.units ?? 'metric') as Units,
    leadRetentionMonths: (row.lead_retention_months ?? null) as RetentionMonths | null,
    scanRetentionMonths: (row.scan_retention_months ?? null) as RetentionMonths | null,
    currency: row.currency ?? 'USD',
    locale: row.locale ?? 'en-US',
    taxes: JSON.parse(row.taxes ?? '[]') as WorkspaceTax[],
    quoteValidDays: Number(row.quote_valid_days ?? 30),
    quoteTerms: row.quote_terms ?? null,
    businessAddress: row.business_address ?? null,
    businessPhone: row.business_phone ?? null,
    businessEmail: row.business_email ?? null,
    taxNumbers: JSON.parse(row.tax_numbers ?? '[]') as TaxNumber[],
    deposit:
      row.deposit_percent !== null && row.deposit_percent !== undefined
        ? { percent: Number(row.deposit_percent), fixed: null }
        : row.deposit_amount !== null && row.deposit_amount !== undefined
          ? { percent: null, fixed: Number(row.deposit_amount) }
          : null,
    followUpDays:
      row.follow_up_days === undefined ? 3 : row.follow_up_days === null ? null : Number(row.follow_up_days),
    customerReminderDays: JSON.parse(row.customer_reminder_days ?? '[]') as number[],
    invoiceReminderDays: JSON.parse(row.invoice_reminder_days ?? '[]') as number[],
    invoicePrefix: row.invoice_prefix ?? INVOICE_SETTINGS.prefix.default,
    paymentTermsDays: Number(row.payment_terms_days ?? INVOICE_SETTINGS.paymentTerms.default),
    paymentInstructions: row.payment_instructions ?? null,
    booksYears: Number(row.books_years ?? INVOICE_SETTINGS.booksYears.default),
  };
}
