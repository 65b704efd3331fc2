import type { Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';
import type { DomainContext } from '../context.js';
import { html } from '../html.js';
import { formatMoney } from '../money.js';
import { linkBaseUrl } from '../server-base-url.js';
import {
  businessFooter,
  businessLines,
  page,
  senderMessage,
  WRAP,
  type BusinessDetails,
  type RenderedEmail,
} from './email-page.js';
import { enqueueEmail } from './outbox.js';
import type { InvoiceEvent, InvoicePayload } from './invoice-email-payload.js';

export type { InvoiceEvent, InvoicePayload } from './invoice-email-payload.js';

/**
 * The emails of invoices (docs/invoices.md, "Emails"), through the outbox:
 * - `sent`: to the customer when a person sends an invoice or credit note: subject like the quote's
 *   (`Invoice INV-0003 from {workspace}`), the total and due date, the payment instructions, a button to the link
 *   `{base}/i/{token}`, the PDF attached once rendered, Reply-To the sender;
 * - `receipt`: to the customer when a payment is recorded (a tick, on by default): a notice of the payment with the
 *   link, never a document;
 * - `paid`: to the invoice's sender when it is paid in full.
 * The outbox row names the invoice (and the payment) by id only: what the email says is read when it is sent, every
 * value escaped, so an invoice voided or a payment deleted meanwhile is not mailed about.
 */
/** Queues an invoice email in the caller's transaction (it exists exactly when the change that asks for it does). */
export async function queueInvoiceEmail(
  trx: Transaction<Schema>,
  ctx: DomainContext,
  email: { to: string; workspaceId: string; userId?: string | null; payload: Omit<InvoicePayload, 'kind'> },
): Promise<void> {
  if (!ctx.mail) return;
  await enqueueEmail(trx, ctx, {
    purpose: email.payload.event === 'sent' ? 'invoice_sent' : 'invoices',
    to: email.to,
    workspaceId: email.workspaceId,
    userId: email.userId ?? null,
    payload: { kind: 'invoice', ...email.payload },
  });
}

export interface InvoiceEmailContent {
  kind: 'invoice';
  event: InvoiceEvent;
  workspaceName: string;
  locale: string;
  invoice: {
    number: string;
    /** `invoice`, `deposit`, `final`, `credit_note`. */
    kind: string;
    currency: string;
    customerName: string | null;
    total: number;
    paid: number;
    balance: number;
    dueDate: string | null;
    paymentInstructions: string | null;
    creditOf: string | null;
  };
  payment: { date: string; amount: number; method: string; reference: string | null } | null;
  replyTo: string | null;
  senderName: string | null;
  /** The sender's own words, typed beside Send (`sent` only); null for none. */
  message: string | null;
  /** The business's details under a `sent` email, as Settings has them when it goes. */
  business: BusinessDetails;
  /** The customer's link (`sent`, `receipt`) or the staff's page of the invoice (`paid`). */
  url: string;
}

/** What a queued invoice email says, read now; `undefined` (dropped) when the invoice or the payment is gone. */
export async function invoiceEmailContent(
  ctx: DomainContext,
  payload: InvoicePayload,
  workspaceId: string | null,
): Promise<InvoiceEmailContent | undefined> {
  if (workspaceId === null) return undefined;
  const row = await ctx.store.db
    .selectFrom('invoices')
    .selectAll()
    .where('id', '=', payload.invoiceId)
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  if (!row || !row.number || row.status === 'void') return undefined;
  const workspace = await ctx.store.db
    .selectFrom('workspaces')
    .select(['name', 'locale', 'business_address', 'business_phone', 'business_email'])
    .where('id', '=', workspaceId)
    .executeTakeFirst();
  if (!workspace) return undefined;
  const payment = payload.paymentId
    ? await ctx.store.db
        .selectFrom('invoice_payments')
        .selectAll()
        .where('id', '=', payload.paymentId)
        .where('invoice_id', '=', row.id)
        .executeTakeFirst()
    : undefined;
  if (payload.event === 'receipt' && !payment) return undefined;
  // An overdue reminder paid, voided or credited before it went is not mailed.
  if (
    payload.event === 'overdue' &&
    (!['sent', 'viewed', 'partly_paid'].includes(row.status) || Number(row.balance) <= 0)
  )
    return undefined;
  const creditOf = row.credit_of
    ? await ctx.store.db.selectFrom('invoices').select('number').where('id', '=', row.credit_of).executeTakeFirst()
    : undefined;
  const base = ctx.config.publicBaseUrl.replace(/\/+$/, '');
  const customerUrl = row.token_enc === null ? null : `${base}/i/${ctx.secrets.open(row.token_enc)}`;
  const staffUrl = `${await linkBaseUrl(ctx)}/w/${encodeURIComponent(
    workspaceId,
  )}/invoices/${encodeURIComponent(row.id)}`;
  const url = payload.event === 'paid' ? staffUrl : customerUrl;
  if (!url) return undefined;
  return {
    kind: 'invoice',
    event: payload.event,
    workspaceName: workspace.name,
    locale: row.locale ?? workspace.locale ?? 'en-US',
    invoice: {
      number: row.number,
      kind: row.kind,
      currency: row.currency,
      customerName: row.customer_name,
      total: Number(row.total),
      paid: Number(row.paid),
      balance: Number(row.balance),
      dueDate: row.due_date,
      paymentInstructions: row.payment_instructions,
      creditOf: creditOf?.number ?? null,
    },
    payment: payment
      ? {
          date: payment.paid_on,
          amount: Number(payment.amount),
          method: payment.method,
          reference: payment.reference,
        }
      : null,
    replyTo: payload.replyTo ?? null,
    senderName: payload.senderName ?? null,
    message: payload.event === 'sent' ? row.send_message?.trim() || null : null,
    business: {
      address: workspace.business_address ?? null,
      phone: workspace.business_phone ?? null,
      email: workspace.business_email ?? null,
    },
    url,
  };
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

const METHOD_WORDS: Record<string, string> = {
  bank_transfer: 'bank transfer',
  card: 'card',
  cash: 'cash',
  cheque: 'cheque',
  other: 'other',
};

const KIND_WORDS: Record<string, string> = {
  invoice: 'Invoice',
  deposit: 'Deposit invoice',
  final: 'Invoice',
  credit_note: 'Credit note',
};

function day(date: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { dateStyle: 'long', timeZone: 'UTC' }).format(new Date(`${date}T12:00:00Z`));
}

/** Subject, text and HTML of an invoice email; every value from the invoice is escaped by `html`. */
export function renderInvoiceEmail(c: InvoiceEmailContent): RenderedEmail {
  const inv = c.invoice;
  const money = (minor: number) => formatMoney(minor, inv.currency, c.locale);
  const what = KIND_WORDS[inv.kind] ?? 'Invoice';
  const lower = what.charAt(0).toLowerCase() + what.slice(1);
  const hello = inv.customerName ? `Hello ${inv.customerName},` : 'Hello,';
  const paragraphs: string[] = [];
  let subject: string;
  let heading: string;
  let label = `View the ${inv.kind === 'credit_note' ? 'credit note' : 'invoice'}`;
  let instructions: string | null = null;
  switch (c.event) {
    case 'sent':
      subject = `${what} ${inv.number} from ${c.workspaceName}`;
      heading = subject;
      paragraphs.push(
        hello,
        `${c.senderName ?? c.workspaceName} of ${c.workspaceName} sent you ${lower} ${inv.number}.`,
      );
      if (inv.kind === 'credit_note')
        paragraphs.push(
          `It credits ${money(inv.total)}${inv.creditOf ? ` against invoice ${inv.creditOf}` : ''}.`,
          'The PDF is attached. Reply to this email with any question.',
        );
      else {
        paragraphs.push(
          `Total: ${money(inv.total)}.${inv.dueDate ? ` Due date: ${day(inv.dueDate, c.locale)}.` : ''}`,
          'The PDF is attached. The link shows the invoice, what was paid and the balance. Reply to this email with ' +
            'any question.',
        );
        instructions = inv.paymentInstructions;
      }
      break;
    case 'receipt': {
      const p = c.payment!;
      subject = `Payment received for invoice ${inv.number} from ${c.workspaceName}`;
      heading = 'Thank you for your payment';
      paragraphs.push(
        hello,
        `${c.workspaceName} recorded your payment of ${money(p.amount)} on ${day(p.date, c.locale)} (${
          METHOD_WORDS[p.method] ?? p.method
        }${p.reference ? `, reference ${p.reference}` : ''}) for invoice ${inv.number}.`,
        inv.balance > 0
          ? `Balance still to pay: ${money(inv.balance)}.`
          : `Invoice ${inv.number} is paid in full.${
              inv.balance < 0 ? ` ${money(-inv.balance)} is owed back to you.` : ''
            }`,
        'This is a notice of your payment, not an invoice. Reply to this email with any question.',
      );
      break;
    }
    case 'overdue':
      subject = `Reminder: ${lower} ${inv.number} from ${c.workspaceName} is overdue`;
      heading = subject;
      paragraphs.push(
        hello,
        `${what} ${inv.number} of ${money(inv.total)} from ${c.workspaceName} was due${
          inv.dueDate ? ` on ${day(inv.dueDate, c.locale)}` : ''
        }.`,
        `Balance still to pay: ${money(inv.balance)}. If you have paid it meanwhile, thank you: please ignore this ` +
          `reminder.`,
        'The link shows the invoice, what was paid and the balance. Reply to this email with any question.',
      );
      instructions = inv.paymentInstructions;
      break;
    case 'paid': {
      const customer = inv.customerName ?? 'The customer';
      subject = `Invoice ${inv.number} is paid in full`;
      heading = subject;
      label = 'Open the invoice';
      paragraphs.push(`${customer} paid invoice ${inv.number} (${money(inv.total)}) in full.`);
      if (c.payment)
        paragraphs.push(
          `The last payment: ${money(c.payment.amount)} on ${day(c.payment.date, c.locale)} (${
            METHOD_WORDS[c.payment.method] ?? c.payment.method
          }).`,
        );
      if (inv.balance < 0) paragraphs.push(`${money(-inv.balance)} is owed back to the customer.`);
      break;
    }
  }
  const paragraph = (p: string) => html`<p style="margin:0 0 16px;white-space:pre-wrap;${WRAP}">${p}</p>`;
  // A sent invoice's email: the sender's words after the greeting (`invoiceEmailContent` gives them to `sent` only),
  // the business's block under it (as a quote's).
  const message = c.message;
  const business = c.event === 'sent' ? businessLines(c.workspaceName, c.business) : [];
  const body = html`${paragraphs.slice(0, 1).map(paragraph)}${senderMessage(
    message,
  )}${paragraphs.slice(1).map(paragraph)}${
    instructions ? html`<p style="margin:0 0 4px;font-weight:600">How to pay</p>${paragraph(instructions)}` : ''
  }`;
  const footer = business.length > 0 ? businessFooter(business) : undefined;
  return {
    subject: oneLine(subject),
    text: [
      heading,
      '',
      ...paragraphs.slice(0, 1).flatMap((p) => [p, '']),
      ...(message ? [message, ''] : []),
      ...paragraphs.slice(1).flatMap((p) => [p, '']),
      ...(instructions ? ['How to pay:', instructions, ''] : []),
      `${label}: ${c.url}`,
      ...(business.length > 0 ? ['', ...business] : []),
    ].join('\n'),
    html: page(oneLine(heading), body, { label, url: c.url }, undefined, footer),
    ...(c.replyTo ? { replyTo: c.replyTo } : {}),
  };
}
