import type { DomainContext } from '../context.js';
import { ATTACHMENT_LOOK_MS, emailAttachment } from '../documents/email-attachment.js';
import { emailContent } from './email-content.js';
import { claimDueEmails, settleEmail, type Settlement } from './outbox.js';
import { renderEmail } from './render-email.js';

export interface Delivery {
  id: string;
  /** sent | pending (to be retried) | failed (given up) | dropped (nothing left to say) */
  state: string;
  error?: string;
}

/**
 * Sends due outbox emails through the context's mailer, one at a time, each under its own claim: the server's
 * notifier calls this every few seconds, `leadscan notify test` for its one email. An email is rendered from the
 * database as it is at sending time. Without a mailer (SMTP_URL unset) nothing is claimed.
 */
export async function deliverDueEmails(
  ctx: DomainContext,
  options: { limit: number; only?: string; onSettled?: (state: string, error?: string) => void | Promise<void> },
): Promise<Delivery[]> {
  const mailer = ctx.mail;
  if (!mailer) return [];
  const claimed = await claimDueEmails(ctx, options.limit, options.only);
  const deliveries: Delivery[] = [];
  for (const email of claimed) {
    let outcome: Settlement;
    const content = await emailContent(ctx, email);
    // A sent document's email carries its PDF, and waits a bounded time for its render (docs/documents.md).
    const documentId = 'documentId' in email.payload ? email.payload.documentId : undefined;
    const attachment =
      content !== undefined && documentId ? await emailAttachment(ctx, documentId, email.createdAt) : null;
    if (content === undefined) {
      outcome = { state: 'dropped' };
    } else if (attachment === 'wait') {
      outcome = { state: 'later', at: new Date(ctx.clock.now().getTime() + ATTACHMENT_LOOK_MS).toISOString() };
    } else {
      try {
        await mailer.send({
          to: email.to,
          ...renderEmail(content),
          ...(attachment ? { attachments: [attachment] } : {}),
        });
        outcome = { state: 'sent' };
      } catch (error) {
        const reason = error instanceof Error ? error.message : String(error);
        outcome = email.purpose === 'test' ? { state: 'failed', error: reason } : { state: 'retry', error: reason };
      }
    }
    const state = await settleEmail(ctx, email, outcome);
    await options.onSettled?.(state, 'error' in outcome ? outcome.error : undefined);
    deliveries.push({ id: email.id, state, ...('error' in outcome ? { error: outcome.error } : {}) });
  }
  return deliveries;
}
