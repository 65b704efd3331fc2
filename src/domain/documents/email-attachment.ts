import type { DomainContext } from '../context.js';
import type { EmailAttachment } from '../mailer.js';

/**
 * How long an email whose document is not rendered yet waits for it (docs/documents.md, "Where it goes"): a render
 * takes well under a second; past this bound (a renderer down, a long queue) the email goes with the link only, and
 * the staff's page says the PDF could not be made when that is so.
 */
export const ATTACHMENT_WAIT_MS = 60_000;
/** How often a waiting email looks again. */
export const ATTACHMENT_LOOK_MS = 1_000;

/**
 * The PDF an email carries, read when it is sent: the stored bytes once rendered; `wait` while its render is due
 * or under way and the email was queued less than ATTACHMENT_WAIT_MS ago; null when there is none to wait for (it
 * failed, its document was erased, the wait is over).
 */
export async function emailAttachment(
  ctx: DomainContext,
  documentId: string,
  queuedAt: string,
): Promise<EmailAttachment | null | 'wait'> {
  const row = await ctx.store.db
    .selectFrom('documents')
    .select(['state', 'file_name', 'pdf'])
    .where('id', '=', documentId)
    .executeTakeFirst();
  if (!row) return null;
  if (row.state === 'done' && row.pdf)
    return { filename: row.file_name, contentType: 'application/pdf', content: new Uint8Array(row.pdf) };
  if (row.state === 'failed') return null;
  return ctx.clock.now().getTime() - Date.parse(queuedAt) < ATTACHMENT_WAIT_MS ? 'wait' : null;
}
