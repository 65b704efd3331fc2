import { formatDay } from '../dates.js';
import type { DomainContext } from '../context.js';
import { html } from '../html.js';
import { formatMoney } from '../money.js';
import { linkBaseUrl } from '../server-base-url.js';
import { button, page, WRAP, type RenderedEmail } from './email-page.js';

/**
 * The reminders of a sent quote that has no answer yet (docs/notifications.md, "Follow-up reminders"): to its sender
 * after the workspace's follow-up days, and, when the workspace chose so, to its customer with the same link again
 * (never a new document) and a link that stops them. The outbox row names the quote by id; the email is written from
 * the quote when it is sent, and dropped when the quote no longer waits for an answer (answered, withdrawn, revised,
 * expired, or, for the customer, reminders stopped): no reminder reaches anyone after an answer.
 */
export interface FollowUpPayload {
  kind: 'follow_up';
  /** `sender`: the person who sent the quote; `customer`: the quote's customer. */
  to: 'sender' | 'customer';
  quoteId: string;
  /** The reminder's number among its kind (the customer's first or second). */
  ordinal: number;
  /** Days since the send, as the email says them. */
  days: number;
  /** Customer reminders: `{base}/q/stop/{token}` (sealed with the payload like every link). */
  stopLink?: string;
}

export interface FollowUpContent {
  kind: 'follow_up';
  to: 'sender' | 'customer';
  days: number;
  ordinal: number;
  workspaceName: string;
  number: string;
  customerName: string | null;
  total: string;
  sentOn: string;
  validUntil: string;
  viewed: boolean;
  /** The sender's: the quote's page in the admin app; the customer's: their link. */
  url: string;
  /** The sender's: the Quotes screen's Needs follow-up list. */
  listUrl: string | null;
  stopLink: string | null;
  /** The customer's reminder goes back to the sender when answered. */
  replyTo: string | null;
  senderName: string | null;
}

const dayText = (locale: string, day: string) => formatDay(day, locale);

/** What a queued reminder says, read now; `undefined` (dropped) when the quote no longer waits for an answer. */
export async function followUpContent(
  ctx: DomainContext,
  payload: FollowUpPayload,
  workspaceId: string | null,
): Promise<FollowUpContent | undefined> {
  if (workspaceId === null) return undefined;
  const quote = await ctx.store.db
    .selectFrom('quotes')
    .selectAll()
    .where('id', '=', payload.quoteId)
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  if (!quote || (quote.status !== 'sent' && quote.status !== 'viewed') || quote.number === null) return undefined;
  const later = await ctx.store.db
    .selectFrom('quotes')
    .select('id')
    .where('chain_id', '=', quote.chain_id)
    .where('revision', '>', quote.revision)
    .executeTakeFirst();
  if (later) return undefined;
  const workspace = await ctx.store.db
    .selectFrom('workspaces')
    .select(['name', 'time_zone', 'locale'])
    .where('id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  const zone = workspace.time_zone ?? 'UTC';
  const locale = workspace.locale ?? 'en-US';
  const today = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(ctx.clock.now());
  if (today > quote.valid_until) return undefined;
  if (payload.to === 'customer') {
    const stopped = await ctx.store.db
      .selectFrom('reminders')
      .select('id')
      .where('chain_id', '=', quote.chain_id)
      .where('stopped_at', 'is not', null)
      .executeTakeFirst();
    if (stopped || quote.token_enc === null) return undefined;
  }
  const sender = quote.sent_by_user_id
    ? await ctx.store.db
        .selectFrom('users')
        .select(['email', 'display_name'])
        .where('id', '=', quote.sent_by_user_id)
        .executeTakeFirst()
    : undefined;
  const base = await linkBaseUrl(ctx);
  const staff = `${base}/w/${encodeURIComponent(workspaceId)}/quotes`;
  const number = `${quote.number}${Number(quote.revision) > 1 ? ` rev ${quote.revision}` : ''}`;
  const sentDay = new Intl.DateTimeFormat('en-CA', {
    timeZone: zone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(new Date(quote.sent_at!));
  return {
    kind: 'follow_up',
    to: payload.to,
    days: payload.days,
    ordinal: payload.ordinal,
    workspaceName: workspace.name,
    number,
    customerName: quote.customer_name,
    total: formatMoney(Number(quote.total), quote.currency, locale),
    sentOn: dayText(locale, sentDay),
    validUntil: dayText(locale, quote.valid_until),
    viewed: quote.viewed_at !== null,
    url:
      payload.to === 'customer'
        ? `${ctx.config.publicBaseUrl.replace(/\/+$/, '')}/q/${ctx.secrets.open(quote.token_enc!)}`
        : `${staff}/${encodeURIComponent(quote.id)}`,
    listUrl: payload.to === 'sender' ? `${staff}?status=needs-follow-up` : null,
    stopLink: payload.stopLink ?? null,
    replyTo: payload.to === 'customer' ? (sender?.email ?? null) : null,
    senderName: sender ? sender.display_name || sender.email : null,
  };
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** Subject, text and HTML of a reminder; every value escaped by `html` and kept off the headers' lines. */
export function renderFollowUp(c: FollowUpContent): RenderedEmail {
  const customer = c.customerName ?? 'your customer';
  const days = `${c.days} day${c.days === 1 ? '' : 's'}`;
  if (c.to === 'sender') {
    const subject = oneLine(`Follow up: quote ${c.number} for ${customer} has had no answer for ${days}`);
    const paragraphs = [
      `${c.customerName ?? 'The customer'} has not answered quote ${c.number} (${c.total}), sent on ${c.sentOn}: ${
        c.viewed ? 'they opened it, but did not accept or decline it' : 'they have not opened it yet'
      }.`,
      `It is valid until ${c.validUntil}. A call or a short note often settles it.`,
    ];
    const body = html`${paragraphs.map((p) => html`<p style="margin:0 0 16px">${p}</p>`)}${
      c.listUrl
        ? html`<p style="margin:0 0 16px;font-size:14px"><a href="${c.listUrl}"
          style="color:#1d4ed8">Every quote that needs a follow-up</a></p>`
        : ''
    }`;
    return {
      subject,
      text: [
        subject,
        '',
        ...paragraphs.flatMap((p) => [p, '']),
        `Open the quote: ${c.url}`,
        ...(c.listUrl ? [`Every quote that needs a follow-up: ${c.listUrl}`] : []),
      ].join('\n'),
      html: page(subject, body, { label: 'Open the quote', url: c.url }),
    };
  }
  const subject = oneLine(`Reminder: quote ${c.number} from ${c.workspaceName}`);
  const paragraphs = [
    c.customerName ? `Hello ${c.customerName},` : 'Hello,',
    `A reminder that ${
      c.senderName ? `${c.senderName} of ` : ''
    }${c.workspaceName} sent you quote ${c.number} (${c.total}) on ${c.sentOn}. It is valid until ${c.validUntil}.`,
    'The link below is the same quote as before: nothing in it has changed. Accept or decline it on the page, or ' +
      'reply to this email with any question.',
  ];
  const stop = c.stopLink
    ? 'Do not want reminders about this quote? Stop them with this link (the quote stays as it is):'
    : null;
  // The button, then the stop link in the small print below it.
  const body = html`${paragraphs.map(
    (p) => html`<p style="margin:0 0 16px">${p}</p>`,
  )}<p style="margin:16px 0">${button('View the quote', c.url)}</p>${
    stop
      ? html`<p style="margin:24px 0 0;font-size:13px;color:#6b7280;${WRAP}">${stop} <a href="${c.stopLink!}"
        style="color:#6b7280">Stop reminders</a></p>`
      : ''
  }`;
  return {
    subject,
    text: [
      subject,
      '',
      ...paragraphs.flatMap((p) => [p, '']),
      `View the quote: ${c.url}`,
      ...(stop ? ['', stop, c.stopLink!] : []),
    ].join('\n'),
    html: page(subject, body, undefined),
    ...(c.replyTo ? { replyTo: c.replyTo } : {}),
  };
}
