import { html } from '../html.js';
import {
  businessFooter,
  businessLines,
  page,
  senderMessage,
  type BusinessDetails,
  type RenderedEmail,
} from './email-page.js';

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
  business?: BusinessDetails;
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
  const business = businessLines(content.workspaceName, content.business);
  const button = { label: 'View the quote', url: content.link };
  const body = html`${paragraphs.slice(0, 1).map((p) => html`<p style="margin:0 0 16px">${p}</p>`)}${senderMessage(
    message,
  )}${paragraphs.slice(1).map((p) => html`<p style="margin:0 0 16px">${p}</p>`)}`;
  const footer = businessFooter(business);
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
