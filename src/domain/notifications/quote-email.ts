import { html } from '../html.js';
import { page, WRAP, type RenderedEmail } from './email-page.js';

const MESSAGE_STYLE =
  'margin:0 0 16px;padding:12px 14px;background:#ffffff;border-left:3px solid #1d4ed8;' +
  `white-space:pre-wrap;${WRAP}`;

/**
 * The email a sent quote goes to its customer with (docs/quotes.md, "Send"): subject `Quote Q-0007 from {workspace}`,
 * a button to the customer's link, Reply-To the person who sent it. Queued in the send's own transaction.
 */
export interface QuoteEmailPayload {
  kind: 'quote_sent';
  workspaceName: string;
  number: string;
  revision: number;
  /** `{base}/q/{token}`. */
  link: string;
  senderName: string;
  replyTo: string;
  customerName: string | null;
  /**
   * The total as the customer reads it (`$1,234.50`), and the last day it is valid, as dates are shown on the quote.
   */
  total: string;
  validUntil: string;
  /** A later revision: the link now shows this one. */
  replaces: boolean;
  /** The revision's PDF (docs/documents.md), attached once rendered; absent in emails queued before documents. */
  documentId?: string;
  /** The sender's own words, typed beside Send; absent or null for none (and in emails queued before it). */
  message?: string | null;
  /** The business's details under the email, as Settings had them at the send; absent in emails queued before. */
  business?: { address: string | null; phone: string | null; email: string | null };
}

const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

export function quoteEmail(content: QuoteEmailPayload): RenderedEmail {
  const subject = oneLine(`Quote ${content.number} from ${content.workspaceName}`);
  const paragraphs = [
    content.customerName ? `Hello ${content.customerName},` : 'Hello,',
    content.replaces
      ? `${content.senderName} of ${content.workspaceName} updated quote ${content.number}. The link below now ` +
        `shows the new version.`
      : `${content.senderName} of ${content.workspaceName} sent you quote ${content.number}.`,
    `Total: ${content.total}. Valid until ${content.validUntil}.`,
    'Open it to read the details, then accept or decline it on the page. Reply to this email with any question.',
  ];
  const message = content.message?.trim() || null;
  // The business's block, as a customer reads it under a letter: name, address, phone, email.
  const business = [
    content.workspaceName,
    content.business?.address,
    content.business?.phone,
    content.business?.email,
  ].filter((part): part is string => Boolean(part?.trim()));
  const button = { label: 'View the quote', url: content.link };
  const body = html`${paragraphs.slice(0, 1).map((p) => html`<p style="margin:0 0 16px">${p}</p>`)}${
    message
      ? html`<p style="${MESSAGE_STYLE}"
          id="sender-message">${message}</p>`
      : ''
  }${paragraphs.slice(1).map((p) => html`<p style="margin:0 0 16px">${p}</p>`)}`;
  const footer = html`<p style="margin:24px 0 0;font-size:14px;color:#374151;white-space:pre-wrap;${WRAP}"
    id="business">${business.join('\n')}</p>`;
  return {
    subject,
    text: [
      subject,
      '',
      paragraphs[0]!,
      '',
      ...(message ? [message, ''] : []),
      ...paragraphs.slice(1).flatMap((p) => [p, '']),
      `${button.label}: ${button.url}`,
      '',
      ...business,
    ].join('\n'),
    html: page(subject, body, button, undefined, footer),
    replyTo: content.replyTo,
  };
}
