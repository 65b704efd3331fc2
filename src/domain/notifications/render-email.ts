import { formatDateTime } from '../dates.js';
import { html, type SafeHtml } from '../html.js';
import { mailableAddress } from '../email-address.js';
import type { AccountEmailContent, EmailContent, EmailLead } from './email-content.js';
import { renderQuoteEmail } from './quote-emails.js';
import { quoteEmail } from './quote-email.js';
import { renderConfirmation } from './sender-confirmation.js';
import { renderFollowUp } from './follow-up-emails.js';
import { renderInvoiceEmail } from './invoice-emails.js';
import { button, page, WRAP, type RenderedEmail } from './email-page.js';

/**
 * An email's subject, plain-text part and HTML part. The HTML is one narrow column with inline styles (mail apps
 * drop stylesheets), no remote images, and every value escaped by `html`; the text part says the same for mail
 * apps that show text only.
 */
export function renderEmail(content: EmailContent): RenderedEmail {
  switch (content.kind) {
    case 'arrivals':
      return arrivalsEmail(content);
    case 'quote_sent':
      return quoteEmail(content);
    case 'digest':
      return digestEmail(content);
    case 'quote':
      return renderQuoteEmail(content);
    case 'confirmation':
      return renderConfirmation(content);
    case 'follow_up':
      return renderFollowUp(content);
    case 'invoice':
      return renderInvoiceEmail(content);
    case 'test':
      return layout({
        subject: 'Leadscan test email',
        heading: 'Email from Leadscan works',
        paragraphs: [
          `This test was sent by ${content.requestedBy}. Notifications of new leads and scans will arrive like this.`,
        ],
        button: { label: 'Open Leadscan', url: content.baseUrl },
      });
    case 'invite':
    case 'password_reset':
    case 'email_change':
    case 'email_in_use':
    case 'email_changed':
      return layout(accountEmail(content, timeIn(content.timeZone)));
  }
}

/**
 * The emails about a person's account, each a subject, a heading, its paragraphs and one button; times in the
 * zone `emailContent` chose (the invitation's workspace, else the person's first workspace, else UTC).
 */
function accountEmail(content: AccountEmailContent, when: (iso: string) => string): EmailLayout {
  switch (content.kind) {
    case 'invite':
      return {
        subject: `You are invited to ${content.workspaceName} on Leadscan`,
        heading: `Join ${content.workspaceName}`,
        paragraphs: [
          `${content.invitedBy} invited you to the workspace ${content.workspaceName}.`,
          content.existingAccount
            ? 'Sign in and accept the invitation on your Account page.'
            : `Choose your password with this link. It works once, until ${when(content.expiresAt)}.`,
        ],
        button: { label: content.existingAccount ? 'Sign in to accept' : 'Choose your password', url: content.link },
      };
    case 'password_reset':
      return {
        subject: 'Reset your Leadscan password',
        heading: 'Reset your password',
        paragraphs: [
          `Someone (hopefully you) asked to reset the password of this account. The link works once, ` +
            `until ${when(content.expiresAt)}.`,
          'If it was not you, ignore this email: your password stays as it is.',
        ],
        button: { label: 'Choose a new password', url: content.link },
      };
    case 'email_change':
      return {
        subject: 'Confirm your new Leadscan email',
        heading: 'Confirm your new email',
        paragraphs: [
          `Confirm that ${content.newEmail} is the email of your Leadscan account. Until you do, the old one stays. ` +
            `The link works once, until ${when(content.expiresAt)}.`,
          'If you did not ask for this, ignore this email.',
        ],
        button: { label: 'Confirm this email', url: content.link },
      };
    case 'email_in_use':
      return {
        subject: 'Someone tried to use your Leadscan email',
        heading: 'Someone tried to use your email',
        paragraphs: [
          `Someone signed in to another Leadscan account asked to make ${content.address} the email of that ` +
            `account. ${content.address} already belongs to your account, so nothing changed, and nothing needs doing.`,
          'If this keeps happening, tell the person who runs Leadscan.',
        ],
        button: { label: 'Sign in', url: content.signInUrl },
      };
    case 'email_changed':
      return {
        subject: 'Your Leadscan email was changed',
        heading: 'Your email was changed',
        paragraphs: [
          `The email of your Leadscan account changed from ${content.oldEmail} to ${content.newEmail} ` +
            `at ${when(content.changedAt)}. Sign in with the new address from now on.`,
          'If you did not make this change, tell an owner of your workspace or the person who runs Leadscan at once.',
        ],
        button: { label: 'Sign in', url: content.signInUrl },
      };
  }
}

/**
 * The subject names a single lead by who they are; more than one is counted. Control characters never reach a header.
 */
function arrivalsSubject(content: Extract<EmailContent, { kind: 'arrivals' }>): string {
  const { leads, leadTotal, scanTotal } = content;
  const [lead] = leads;
  if (leadTotal === 1 && scanTotal === 0 && lead) {
    return `New lead: ${lead.name ?? lead.email ?? lead.phone ?? 'no name'} (${lead.sourceName})`;
  }
  const parts = [
    leadTotal > 0 ? `${count(leadTotal)} new lead${leadTotal === 1 ? '' : 's'}` : '',
    scanTotal > 0 ? `${count(scanTotal)} new scan${scanTotal === 1 ? '' : 's'}` : '',
  ].filter(Boolean);
  return `${parts.join(' and ')} in ${content.workspaceName}`;
}

const count = (n: number) => n.toLocaleString('en-US');
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

/** What a flood's email says of the leads it does not name: how many, from which source. */
function unnamedLines(content: Extract<EmailContent, { kind: 'arrivals' }>): string[] {
  const scansLeft = content.scanTotal - content.scans.length;
  return [
    ...content.unnamed.map(
      (s) =>
        `${count(s.count)} more lead${s.count === 1 ? '' : 's'} from ${s.sourceName}, not listed here: see the ` +
        `Leads inbox.`,
    ),
    ...(scansLeft > 0
      ? [`${count(scansLeft)} more scan${scansLeft === 1 ? '' : 's'}, not listed here: see Scans.`]
      : []),
  ];
}

function arrivalsEmail(content: Extract<EmailContent, { kind: 'arrivals' }>): RenderedEmail {
  const when = timeIn(content.timeZone, content.locale);
  const subject = oneLine(arrivalsSubject(content));
  const single = content.leadTotal === 1 && content.scanTotal === 0 && content.leads.length === 1;
  const more = unnamedLines(content);
  const text = [
    ...content.leads.flatMap((lead) => [...leadText(lead, when), '']),
    ...content.scans.flatMap((scan) => [
      `Scan with ${rooms(scan.roomCount)}, received ${when(scan.receivedAt)}`,
      scan.url,
      '',
    ]),
    ...(more.length > 0 ? [...more, ''] : []),
    single ? '' : `Leads inbox: ${content.inboxUrl}`,
    `Choose which emails you get: ${content.settingsUrl}`,
  ].filter((line, i, all) => line !== '' || all[i - 1] !== '');
  const body = html`${content.leads.map((lead) => leadHtml(lead, when))}${content.scans.map(
    (scan) => html`<div style="${CARD}"><p style="margin:0 0 4px;font-weight:600">Scan with ${rooms(scan.roomCount)}</p>
<p style="margin:0 0 12px;color:#555">Received ${when(scan.receivedAt)}</p>${button('Open the scan', scan.url)}</div>`,
  )}${more.map((line) => html`<p style="margin:0 0 12px">${line}</p>`)}`;
  // One lead: answering the email answers the lead, when they gave an address mail can go to. Several: no Reply-To.
  const [only] = content.leads;
  const replyTo = content.leads.length === 1 && only ? mailableAddress(only.email) : null;
  return {
    subject,
    text: text.join('\n'),
    html: page(
      subject,
      body,
      single ? undefined : { label: 'Open the Leads inbox', url: content.inboxUrl },
      content.settingsUrl,
    ),
    ...(replyTo ? { replyTo } : {}),
  };
}

function digestEmail(content: Extract<EmailContent, { kind: 'digest' }>): RenderedEmail {
  const when = timeIn(content.timeZone, content.locale);
  const subject = oneLine(
    `Daily summary: ${content.total} new lead${content.total === 1 ? '' : 's'} in ${content.workspaceName}`,
  );
  const more = content.total - content.leads.length;
  const text = [
    `${content.total} lead${
      content.total === 1 ? '' : 's'
    } arrived between ${when(content.from)} and ${when(content.to)}.`,
    '',
    ...content.leads.flatMap((lead) => [
      `- ${leadTitle(lead)} (${lead.sourceName}), ${when(lead.receivedAt)}`,
      `  ${lead.url}`,
    ]),
    ...(more > 0 ? [`…and ${more} more in the Leads inbox: ${content.inboxUrl}`] : []),
    '',
    `Choose which emails you get: ${content.settingsUrl}`,
  ];
  const body = html`<p style="margin:0 0 16px">${content.total} lead${
    content.total === 1 ? '' : 's'
  } arrived between ${when(content.from)} and ${when(content.to)}.</p>
<ul style="margin:0 0 16px;padding:0;list-style:none">${content.leads.map(
    (lead) =>
      html`<li style="padding:8px 0;border-bottom:1px solid #e5e7eb">
      <a href="${lead.url}" style="color:#1d4ed8;font-weight:600">${leadTitle(lead)}</a><br><span
        style="color:#555">${lead.sourceName} · ${when(lead.receivedAt)}</span></li>`,
  )}</ul>${more > 0 ? html`<p style="margin:0 0 16px">…and ${more} more.</p>` : ''}`;
  return {
    subject,
    text: text.join('\n'),
    html: page(subject, body, { label: 'Open the Leads inbox', url: content.inboxUrl }, content.settingsUrl),
  };
}

const leadTitle = (lead: EmailLead) => lead.name ?? lead.email ?? lead.phone ?? 'A lead with no name';
const rooms = (n: number) => `${n} room${n === 1 ? '' : 's'}`;

/** One line of a lead as an email shows it; `href` makes the value a link (`mailto:`, `tel:`). */
interface LeadRow {
  label: string;
  value: string;
  href?: string | undefined;
}

/** The lead's own fields, then its extra fields under their names, in the order they were sent. */
function leadRows(lead: EmailLead): LeadRow[] {
  const email = mailableAddress(lead.email);
  const own: Array<Omit<LeadRow, 'value'> & { value: string | null }> = [
    { label: 'Name', value: lead.name },
    { label: 'Email', value: lead.email, href: email ? mailtoHref(email) : undefined },
    { label: 'Phone', value: lead.phone, href: telHref(lead.phone) },
    { label: 'Address', value: lead.address },
    { label: 'Message', value: lead.notes },
  ];
  return [
    ...own.filter((row): row is LeadRow => row.value !== null && row.value !== ''),
    ...Object.entries(lead.extra).map(([label, value]) => ({ label, value })),
  ];
}

/** `mailto:` with the local part encoded (`?`, `#`, `&` and `%` are allowed in an address and mean things in a URL). */
function mailtoHref(address: string): string {
  const at = address.lastIndexOf('@');
  return `mailto:${encodeURIComponent(address.slice(0, at))}@${address.slice(at + 1)}`;
}

/**
 * `tel:` with the number's digits (and a leading +), up to any extension written in words (`ext 2`, `x2`); none
 * for a value with too few or too many digits to be a phone number.
 */
function telHref(phone: string | null): string | undefined {
  if (!phone) return undefined;
  const number = phone.split(/[A-Za-z]/)[0] ?? '';
  const digits = number.replace(/\D/g, '');
  if (digits.length < 5 || digits.length > 15) return undefined;
  return `tel:${number.trim().startsWith('+') ? '+' : ''}${digits}`;
}

function leadText(lead: EmailLead, when: (iso: string) => string): string[] {
  return [
    `New lead from ${lead.sourceName}, ${when(lead.receivedAt)}`,
    ...leadRows(lead).map(({ label, value }) => `${label}: ${value.replace(/\n/g, '\n  ')}`),
    `Open the lead: ${lead.url}`,
  ];
}

const CARD = 'border:1px solid #e5e7eb;border-radius:8px;padding:16px;margin:0 0 16px';

/**
 * Each field as its label above its value: a long label never squeezes the value into a narrow column on a phone.
 * Values wrap between words; only a word longer than the line (a URL) is broken.
 */
function leadHtml(lead: EmailLead, when: (iso: string) => string): SafeHtml {
  return html`<div style="${CARD}">
<p style="margin:0 0 12px;color:#555">${lead.sourceName} · ${when(lead.receivedAt)}</p>
${leadRows(lead).map(
  ({ label, value, href }) =>
    html`<div style="margin:0 0 10px"><div style="font-size:13px;color:#555">${label}</div>
    <div style="${WRAP};white-space:pre-wrap">${
      href ? html`<a href="${href}" style="color:#1d4ed8">${value}</a>` : value
    }</div></div>`,
)}
${button('Open the lead', lead.url)}
</div>`;
}

interface EmailLayout {
  subject: string;
  heading: string;
  paragraphs: string[];
  button: { label: string; url: string };
}

function layout(input: EmailLayout): RenderedEmail {
  const body = html`${input.paragraphs.map((p) => html`<p style="margin:0 0 16px">${p}</p>`)}`;
  return {
    subject: oneLine(input.subject),
    text: [
      input.heading,
      '',
      ...input.paragraphs.flatMap((p) => [p, '']),
      `${input.button.label}: ${input.button.url}`,
    ].join('\n'),
    html: page(input.heading, body, input.button),
  };
}

/**
 * A time as the workspace's people read it: in its zone and locale, with the zone's abbreviation, the one date
 * format of pages and emails (docs/admin-app.md, "Dates"). An account email has no workspace: en-US.
 */
function timeIn(timeZone: string, locale = 'en-US'): (iso: string) => string {
  return (iso) => formatDateTime(iso, locale, timeZone);
}
