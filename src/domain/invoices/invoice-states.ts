import type { Selectable, Transaction } from 'kysely';
import type { InvoiceTable, Schema } from '../../storage/schema.js';
import type { DomainContext, WorkspaceContext } from '../context.js';
import { documentStates } from '../document-state.js';
import { AppError, type FieldError } from '../errors.js';
import { hashLinkToken, isLinkToken } from '../link-token.js';

/** What an invoice's (or credit note's) `status` column holds; `overdue` is derived from the due date, never stored. */
export const INVOICE_STATES = ['draft', 'sent', 'viewed', 'partly_paid', 'paid', 'void'] as const;
export type InvoiceStatus = (typeof INVOICE_STATES)[number];

export const INVOICE_KINDS = ['invoice', 'deposit', 'final', 'credit_note'] as const;
export type InvoiceKind = (typeof INVOICE_KINDS)[number];

/** Sent and not settled: what the outstanding totals add and what can be overdue. */
export const OPEN_STATES: readonly InvoiceStatus[] = ['sent', 'viewed', 'partly_paid'];
/** Issued (numbered) and standing: the states a credit note counts in and an invoice can be credited in. */
export const ISSUED_STATES: readonly InvoiceStatus[] = ['sent', 'viewed', 'partly_paid', 'paid'];

/**
 * Who may move an invoice or credit note from which state to which (docs/security.md, "Document states";
 * docs/invoices.md, "States"). Every verb of `invoices/` locks the document first (`lockInvoice`, by the link's token
 * `lockInvoiceByToken`), checks its move here, and writes it on the condition of the move's `from` states, checked
 * with `changedExactly`. A payment recorded or deleted and a credit note sent or voided settle the invoice: its status
 * is then computed from its balance (`settledStatus`), one of the states the move names.
 */
export const invoiceStates = documentStates(INVOICE_STATES, {
  /** Lines, customer, note, payment terms: only a draft changes. */
  edit: { from: ['draft'], to: 'draft', by: 'staff' },
  /** Send: the person's sign-off; the number, the link and the PDF. */
  send: { from: ['draft'], to: 'sent', by: 'staff' },
  /** The customer's page was shown in a browser (a later view is counted without a move). */
  view: { from: ['sent'], to: 'viewed', by: 'customer' },
  /** A payment recorded: partly paid, or paid when it settles the balance. Only an open invoice takes one. */
  pay: { from: ['sent', 'viewed', 'partly_paid'], to: 'partly_paid', by: 'staff' },
  /**
   * Settle: what a payment deleted, or a credit note sent or voided, leaves: paid, partly paid, or back to sent or
   * viewed. From every issued state.
   */
  settle: { from: ['sent', 'viewed', 'partly_paid', 'paid'], to: 'partly_paid', by: 'staff' },
  /** Void: a draft, or a sent invoice without payments; it keeps its number. */
  void: { from: ['draft', 'sent', 'viewed'], to: 'void', by: 'staff' },
  /** Credit: a new draft credit note for an issued invoice with payments (the invoice keeps its state). */
  credit: { from: ['sent', 'viewed', 'partly_paid', 'paid'], to: 'draft', by: 'staff', makesRow: true },
});

export type InvoiceVerb = keyof typeof invoiceStates.moves;

/**
 * The state an issued invoice is in after its money changed: paid when nothing is left to pay (or more was paid or
 * credited than it asks: owed back), partly paid once it has a payment, else sent, or viewed when the customer saw it.
 */
export function settledStatus(row: { balance: number; paid: number; viewed: boolean }): InvoiceStatus {
  if (row.balance <= 0) return 'paid';
  if (row.paid > 0) return 'partly_paid';
  return row.viewed ? 'viewed' : 'sent';
}

export const KIND_NAMES: Record<InvoiceKind, string> = {
  invoice: 'Invoice',
  deposit: 'Deposit invoice',
  final: 'Invoice',
  credit_note: 'Credit note',
};

/** `INV-0003`, or "This draft invoice" / "This draft credit note" before it has a number. */
export function invoiceLabel(row: Pick<InvoiceTable, 'number' | 'kind'>): string {
  if (row.number) return row.number;
  return row.kind === 'credit_note' ? 'This draft credit note' : 'This draft invoice';
}

const STATUS_WORDS: Record<string, string> = {
  draft: 'a draft',
  sent: 'sent',
  viewed: 'sent (and viewed)',
  partly_paid: 'partly paid',
  paid: 'paid',
  void: 'void',
};
export const statusWords = (status: string) => STATUS_WORDS[status] ?? status;

function refusal(code: ConstructorParameters<typeof AppError>[0], detail: string, field: string): AppError {
  const error: FieldError = { field, code: 'invalid', message: detail };
  return new AppError(code, detail, [error]);
}

/** Lines, customer, note…: only a draft changes (a sent invoice is corrected by a credit note, or voided). */
export function notEditable(row: Pick<InvoiceTable, 'number' | 'kind'>, status: string, field = 'lines'): AppError {
  const what = row.kind === 'credit_note' ? 'credit note' : 'invoice';
  const fix = row.kind === 'credit_note' ? 'void it and make another' : 'void it, or correct it with a credit note';
  return refusal(
    'invoice_not_editable',
    `${invoiceLabel(row)} is ${statusWords(status)}: a sent ${what} is never changed; ${fix}`,
    field,
  );
}

/** A payment on a draft, a void, a paid invoice or a credit note. */
export function notPayable(row: Pick<InvoiceTable, 'number' | 'kind'>, status: string): AppError {
  if (row.kind === 'credit_note')
    return refusal('invoice_not_payable', `${invoiceLabel(row)} is a credit note: it takes no payment`, 'amount');
  const why =
    status === 'draft'
      ? 'is a draft: send it before recording a payment'
      : status === 'void'
        ? 'is void: it takes no payment'
        : status === 'paid'
          ? 'is paid in full'
          : `is ${statusWords(status)}`;
  return refusal('invoice_not_payable', `${invoiceLabel(row)} ${why}`, 'amount');
}

/**
 * Locks an invoice until the transaction ends, then reads it: every verb on one invoice runs one after the other, on
 * every instance. A credit note is locked after the invoice it credits (that invoice's balance changes with it), so
 * two verbs always take their locks in the same order. `invoice_not_found` for another workspace's, as for a missing
 * one.
 */
export async function lockInvoice(
  ctx: WorkspaceContext,
  trx: Transaction<Schema>,
  invoiceId: string,
): Promise<Selectable<InvoiceTable>> {
  const head = await trx
    .selectFrom('invoices')
    .select(['id', 'credit_of'])
    .where('id', '=', invoiceId)
    .where('workspace_id', '=', ctx.workspaceId)
    .executeTakeFirst();
  if (!head) throw new AppError('invoice_not_found', `No invoice ${invoiceId} in this workspace`);
  if (head.credit_of) await lockRows(ctx, trx, head.credit_of);
  await lockRows(ctx, trx, head.id);
  return trx.selectFrom('invoices').selectAll().where('id', '=', head.id).executeTakeFirstOrThrow();
}

async function lockRows(ctx: DomainContext, trx: Transaction<Schema>, id: string): Promise<void> {
  await ctx.store.ops.lockedRead(trx.selectFrom('invoices').select('id').where('id', '=', id)).execute();
}

/**
 * Locks the quote chain an invoice belongs to (the row of its first revision, as quote verbs do): the verbs that
 * make or void an invoice of a quote's chain run one after the other, so the chain's rules (one deposit, one rest,
 * the rest subtracting the invoices before it) hold under races. Taken before any invoice's lock. A chain whose quote
 * was deleted has nothing left to lock.
 */
export async function lockQuoteChain(ctx: DomainContext, trx: Transaction<Schema>, chainId: string): Promise<void> {
  await ctx.store.ops.lockedRead(trx.selectFrom('quotes').select('id').where('id', '=', chainId)).execute();
}

/**
 * The customer's side of `lockInvoice`: locks the invoice a link's token opens and reads it; `invoice_not_found` for
 * a link that leads nowhere (malformed, unknown, a draft never sent).
 */
export async function lockInvoiceByToken(
  ctx: DomainContext,
  trx: Transaction<Schema>,
  token: string,
): Promise<Selectable<InvoiceTable>> {
  const row = isLinkToken(token)
    ? await ctx.store.ops
        .lockedRead(trx.selectFrom('invoices').selectAll().where('token_hash', '=', hashLinkToken(token)))
        .executeTakeFirst()
    : undefined;
  if (!row) throw new AppError('invoice_not_found', 'This link leads to no invoice');
  return row;
}
