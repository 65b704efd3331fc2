import { formatDateTime } from '../dates.js';
import type { Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';
import type { DomainContext } from '../context.js';
import { html, type SafeHtml } from '../html.js';
import { isFee, oneLineDescription, quantityText, shownNote } from '../line-text.js';
import { computeTotals, counts, formatMoney, type TaxRate } from '../money.js';
import { linkBaseUrl } from '../server-base-url.js';
import { page } from './email-page.js';
import { enqueueEmail, type QuoteEvent, type QuotePayload } from './outbox.js';

/**
 * The customer's page's emails (docs/quotes.md, "The customer's page"): to the sender when the customer first views,
 * accepts or declines, and to the customer after accepting (a copy of the quote and the acceptance). The outbox row
 * names the quote by id only: its details are read when the email is sent, so an erased quote is not mailed about.
 */

/**
 * A quote as its emails show it, read from the tables here (this folder sits below `quotes/` in the domain's tree,
 * like the arrivals emails read leads themselves).
 */
export interface EmailQuote {
  id: string;
  number: string | null;
  revision: number;
  currency: string;
  title: string | null;
  terms: string | null;
  customer: { name: string | null; email: string | null };
  lines: Array<{
    id: string;
    description: string;
    quantity: number;
    unit: string;
    unitPrice: number;
    amount: number;
    optional: boolean;
    chosen: boolean;
    /** Whether it is charged: not an optional line left unticked, nor in an alternative not taken. */
    counted: boolean;
    /** How the quantity was measured, when the quote shows it to the customer; null otherwise. */
    note: string | null;
  }>;
  /**
   * At acceptance: the optional lines the sender had ticked (ids); null before an acceptance, or for one made before.
   */
  sentTicks: string[] | null;
  /** The sections offered as alternatives ("choose one"), in the quote's order, with the one the customer took. */
  alternatives: Array<{ title: string; choice: string; chosen: boolean }>;
  subtotal: number;
  taxes: Array<{ name: string; rate: number; amount: number }>;
  total: number;
  viewedAt: string | null;
  acceptedAt: string | null;
  acceptedName: string | null;
  acceptanceHash: string | null;
  declinedAt: string | null;
  declineReason: string | null;
  customerUrl: string | null;
}

export interface QuoteEmailContent {
  kind: 'quote';
  event: QuoteEvent;
  workspaceName: string;
  timeZone: string;
  locale: string;
  quote: EmailQuote;
  /** The staff's page of the quote (sender emails) or the customer's link (the customer's copy). */
  url: string;
}

/**
 * Queues the emails an answer on the customer's page asks for, in the answer's own transaction (the verb passes its
 * `trx`, so the answer and its emails commit together or not at all): the sender's notice (when the sender is still a
 * person with an email) and, after an accept, the customer's copy (when the quote has the customer's email). Nothing
 * is queued when email is off on this server.
 */
export async function queueQuoteEmails(
  trx: Transaction<Schema>,
  ctx: DomainContext,
  input: {
    event: 'viewed' | 'accepted' | 'declined';
    quoteId: string;
    workspaceId: string;
    sentByUserId: string | null;
    customerEmail: string | null;
    /** The accepted copy's PDF, attached to the acceptance's emails once rendered. */
    documentId?: string;
  },
): Promise<void> {
  const document = input.documentId ? { documentId: input.documentId } : {};
  if (!ctx.mail) return;
  const sender = input.sentByUserId
    ? await trx.selectFrom('users').select(['id', 'email']).where('id', '=', input.sentByUserId).executeTakeFirst()
    : undefined;
  if (sender) {
    await enqueueEmail(trx, ctx, {
      purpose: 'quotes',
      to: sender.email,
      workspaceId: input.workspaceId,
      userId: sender.id,
      payload: { kind: 'quote', event: input.event, quoteId: input.quoteId, ...document },
    });
  }
  if (input.event === 'accepted' && input.customerEmail) {
    await enqueueEmail(trx, ctx, {
      purpose: 'quotes',
      to: input.customerEmail,
      workspaceId: input.workspaceId,
      payload: { kind: 'quote', event: 'customer_copy', quoteId: input.quoteId, ...document },
    });
  }
}

/** The quote an email is about, from the tables as they are now; `undefined` when it is gone (erased, deleted). */
async function emailQuote(ctx: DomainContext, workspaceId: string, quoteId: string): Promise<EmailQuote | undefined> {
  const row = await ctx.store.db
    .selectFrom('quotes')
    .selectAll()
    .where('id', '=', quoteId)
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  if (!row) return undefined;
  const rows = await ctx.store.db
    .selectFrom('quote_lines')
    .selectAll()
    .where('quote_id', '=', row.id)
    .orderBy('position')
    .orderBy('id')
    .execute();
  const sections = (
    await ctx.store.db
      .selectFrom('quote_sections')
      .selectAll()
      .where('quote_id', '=', row.id)
      .orderBy('position')
      .orderBy('id')
      .execute()
  ).map((s) => ({
    id: s.id,
    title: s.title,
    choice: s.choice,
    chosen: s.choice === null || Boolean(Number(s.chosen)),
  }));
  const showMeasurements = Boolean(Number(row.show_measurements ?? 0));
  const lines = rows.map((l) => ({
    id: l.id,
    note: shownNote(l.source === null ? null : (JSON.parse(l.source) as { note?: string }), showMeasurements),
    sectionId: l.section_id ?? null,
    description: l.description,
    quantity: Number(l.quantity),
    unit: l.unit,
    unitPrice: Number(l.unit_price),
    amount: Number(l.amount),
    taxes: JSON.parse(l.taxes) as string[],
    optional: Boolean(Number(l.optional)),
    chosen: Boolean(Number(l.chosen)),
  }));
  const totals = computeTotals(lines, JSON.parse(row.tax_rates) as TaxRate[], sections);
  const charged = lines.map((l) => ({ ...l, counted: counts(l, sections) }));
  const base = ctx.config.publicBaseUrl.replace(/\/+$/, '');
  return {
    id: row.id,
    number: row.number,
    revision: Number(row.revision),
    currency: row.currency,
    title: row.title,
    terms: row.terms,
    customer: { name: row.customer_name, email: row.customer_email },
    lines: charged,
    sentTicks: row.sent_choices ? (JSON.parse(row.sent_choices) as { lines: string[] }).lines : null,
    alternatives: sections.flatMap((s) =>
      s.choice === null ? [] : [{ title: s.title ?? 'Option', choice: s.choice, chosen: s.chosen }],
    ),
    subtotal: totals.subtotal,
    taxes: totals.taxes,
    total: totals.total,
    viewedAt: row.viewed_at,
    acceptedAt: row.accepted_at,
    acceptedName: row.accepted_name,
    acceptanceHash: row.acceptance_hash,
    declinedAt: row.declined_at,
    declineReason: row.decline_reason,
    customerUrl: row.token_enc === null ? null : `${base}/q/${ctx.secrets.open(row.token_enc)}`,
  };
}

/** What a queued quote email says, read now; `undefined` (dropped) when the quote is gone. */
export async function quoteEmailContent(
  ctx: DomainContext,
  payload: QuotePayload,
  workspaceId: string | null,
): Promise<QuoteEmailContent | undefined> {
  if (workspaceId === null) return undefined;
  const quote = await emailQuote(ctx, workspaceId, payload.quoteId);
  if (!quote) return undefined;
  const workspace = await ctx.store.db
    .selectFrom('workspaces')
    .select(['name', 'time_zone', 'locale'])
    .where('id', '=', workspaceId)
    .executeTakeFirst();
  if (!workspace) return undefined;
  const staffUrl = `${await linkBaseUrl(ctx)}/w/${encodeURIComponent(
    workspaceId,
  )}/quotes/${encodeURIComponent(quote.id)}`;
  const url = payload.event === 'customer_copy' ? quote.customerUrl : staffUrl;
  if (!url) return undefined;
  return {
    kind: 'quote',
    event: payload.event,
    workspaceName: workspace.name,
    timeZone: workspace.time_zone ?? 'UTC',
    locale: workspace.locale ?? 'en-US',
    quote,
    url,
  };
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** A moment in the workspace's zone, in its locale: the one date format of pages and emails (docs/admin-app.md). */
function when(iso: string, timeZone: string, locale: string): string {
  return formatDateTime(iso, locale, timeZone);
}

const numberOf = (q: EmailQuote) => `${q.number ?? 'Quote'}${q.revision > 1 ? ` rev ${q.revision}` : ''}`;
const customerOf = (q: EmailQuote) => q.customer.name ?? q.customer.email ?? 'The customer';

/**
 * The quote's lines and totals, as text lines and as a table, read as the customer's page reads them
 * (docs/quotes.md, "What the customer reads"): `14.32 m² × $35.00`, a fee as its amount alone.
 */
function quoteTable(c: QuoteEmailContent): { text: string[]; html: SafeHtml } {
  const money = (minor: number) => formatMoney(minor, c.quote.currency, c.locale);
  const counted = c.quote.lines.filter((l) => l.counted);
  const figures = (l: EmailQuote['lines'][number]) =>
    isFee(l) ? '' : `${quantityText(l, c.locale)} × ${money(l.unitPrice)}`;
  const text = [
    ...counted.map((l) => {
      const head = `${oneLineDescription(l.description)}: ${
        isFee(l) ? money(l.amount) : `${figures(l)} = ${money(l.amount)}`
      }`;
      return l.note ? `${head}\n  (${l.note})` : head;
    }),
    `Subtotal: ${money(c.quote.subtotal)}`,
    ...c.quote.taxes.map((t) => `${t.name}: ${money(t.amount)}`),
    `Total: ${money(c.quote.total)}`,
  ];
  const cell = 'padding:6px 0;border-bottom:1px solid #e5e7eb;vertical-align:top';
  const small = 'color:#6b7280;font-size:13px';
  const table = html`<table style="width:100%;border-collapse:collapse;margin:0 0 16px;font-size:15px">
${counted.map(
  (l) =>
    html`<tr><td style="${cell}"><span style="white-space:pre-line">${l.description}</span>${
      isFee(l) ? '' : html`<br><span style="${small}">${figures(l)}</span>`
    }${
      l.note ? html`<br><span style="${small}">${l.note}</span>` : ''
    }</td><td style="${cell};text-align:right;white-space:nowrap">${money(l.amount)}</td></tr>`,
)}
<tr><td style="padding:6px 0">Subtotal</td><td style="padding:6px 0;text-align:right">${money(c.quote.subtotal)}</td>
</tr>
${c.quote.taxes.map(
  (t) =>
    html`<tr><td style="padding:2px 0">${t.name}</td><td style="padding:2px 0;text-align:right">${money(t.amount)}</td>
    </tr>`,
)}
<tr><td style="padding:8px 0;font-weight:700">Total</td>
<td style="padding:8px 0;text-align:right;font-weight:700">${money(c.quote.total)}</td></tr>
</table>`;
  return { text, html: table };
}

/**
 * What the customer did with the optional lines against what was sent, for the sender's accepted notice: the lines
 * they added and those they took out, or that they kept them as sent. Nothing for a quote without optional lines.
 */
export function optionalChanges(q: Pick<EmailQuote, 'lines' | 'sentTicks'>): string[] {
  const optional = q.lines.filter((l) => l.optional);
  if (optional.length === 0) return [];
  const name = (l: EmailQuote['lines'][number]) => oneLineDescription(l.description);
  const sent = q.sentTicks;
  if (sent === null) {
    const chosen = optional.filter((l) => l.chosen).map(name);
    return [`Optional lines chosen: ${chosen.length ? chosen.join('; ') : 'none'}.`];
  }
  const added = optional.filter((l) => l.chosen && !sent.includes(l.id)).map(name);
  const removed = optional.filter((l) => !l.chosen && sent.includes(l.id)).map(name);
  if (added.length === 0 && removed.length === 0) return ['The customer left the optional lines as you sent them.'];
  return [
    ...(added.length ? [`The customer added: ${added.join('; ')}.`] : []),
    ...(removed.length ? [`The customer took out: ${removed.join('; ')}.`] : []),
  ];
}

/**
 * Which alternative the customer took of each "choose one" group, for the sender's accepted notice: "The customer
 * chose Laminate (of Oak floor, Laminate)." Nothing for a quote without alternatives.
 */
export function chosenAlternatives(q: Pick<EmailQuote, 'alternatives'>): string[] {
  const groups = new Map<string, EmailQuote['alternatives']>();
  for (const s of q.alternatives) groups.set(s.choice, [...(groups.get(s.choice) ?? []), s]);
  return [...groups.values()].map((group) => {
    const titles = group.map((s) => oneLineDescription(s.title)).join(', ');
    const taken = group.find((s) => s.chosen);
    return taken
      ? `The customer chose ${oneLineDescription(taken.title)} (of ${titles}).`
      : `The customer chose none of ${titles}.`;
  });
}

/**
 * Subject, text and HTML of a quote email; every value from the quote is escaped by `html` and kept off headers' lines.
 */
export function renderQuoteEmail(c: QuoteEmailContent): { subject: string; text: string; html: string } {
  const q = c.quote;
  const number = numberOf(q);
  const customer = customerOf(q);
  const total = formatMoney(q.total, q.currency, c.locale);
  const paragraphs: string[] = [];
  let subject: string;
  let heading: string;
  let label = 'Open the quote';
  let table: { text: string[]; html: SafeHtml } | undefined;
  switch (c.event) {
    case 'viewed':
      subject = `${customer} opened quote ${number}`;
      heading = `${customer} opened quote ${number}`;
      paragraphs.push(
        `${customer} opened quote ${number} (${total}) for the first time${
          q.viewedAt ? ` on ${when(q.viewedAt, c.timeZone, c.locale)}` : ''
        }.`,
      );
      break;
    case 'accepted':
      subject = `${customer} accepted quote ${number}`;
      heading = `Quote ${number} was accepted`;
      paragraphs.push(
        `${q.acceptedName ?? customer} accepted quote ${number} (${total})${
          q.acceptedAt ? ` on ${when(q.acceptedAt, c.timeZone, c.locale)}` : ''
        }.`,
        ...chosenAlternatives(q),
        ...optionalChanges(q),
        `Acceptance SHA-256: ${q.acceptanceHash ?? ''}`,
      );
      table = quoteTable(c);
      break;
    case 'declined':
      subject = `${customer} declined quote ${number}`;
      heading = `Quote ${number} was declined`;
      paragraphs.push(
        `${customer} declined quote ${number} (${total})${
          q.declinedAt ? ` on ${when(q.declinedAt, c.timeZone, c.locale)}` : ''
        }.`,
      );
      paragraphs.push(q.declineReason ? `Their reason: ${q.declineReason}` : 'They gave no reason.');
      break;
    case 'customer_copy':
      subject = `Your acceptance of quote ${number} from ${c.workspaceName}`;
      heading = `You accepted quote ${number}`;
      label = 'View the quote';
      paragraphs.push(
        `Thank you. This is your copy of quote ${number} from ${c.workspaceName}${q.title ? `: ${q.title}` : ''}.`,
        `Accepted by ${q.acceptedName ?? ''}${q.acceptedAt ? ` on ${when(q.acceptedAt, c.timeZone, c.locale)}` : ''}.`,
        `Acceptance SHA-256: ${q.acceptanceHash ?? ''}`,
      );
      table = quoteTable(c);
      if (q.terms) paragraphs.push(`Terms: ${q.terms}`);
      break;
  }
  const body = html`${paragraphs.map(
    (p) => html`<p style="margin:0 0 16px;white-space:pre-wrap;overflow-wrap:anywhere">${p}</p>`,
  )}${table?.html ?? ''}`;
  return {
    subject: oneLine(subject),
    text: [
      heading,
      '',
      ...paragraphs.flatMap((p) => [p, '']),
      ...(table ? [...table.text, ''] : []),
      `${label}: ${c.url}`,
    ].join('\n'),
    html: page(heading, body, { label, url: c.url }),
  };
}
