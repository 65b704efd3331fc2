import type { VerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { checkEmail } from '../email-address.js';
import { enqueueEmail } from './outbox.js';

/** Who asks for a test email: in a workspace (the Notifications screen) or for the server (`null`, the CLI). */
export interface TestEmailInput {
  to: string;
  requestedBy: string;
  workspaceId: string | null;
  userId?: string;
}

/**
 * Queues a test email to `to` through the outbox, like every other email, and returns its id so the caller can send
 * it at once and show the outcome. Refused when email is off: there is nothing to test.
 */
export async function queueTestEmail({ ctx, input }: VerbArgs<TestEmailInput>): Promise<string> {
  if (!ctx.mail) {
    throw new AppError(
      'email_not_configured',
      'Email is off on this server: set SMTP_URL and MAIL_FROM and restart it (docs/notifications.md)',
    );
  }
  return enqueueTestEmail({ ctx, input });
}

/** The test email into the outbox, for whichever sender claims it (the running server, for `leadscan notify test`). */
export async function enqueueTestEmail({ ctx, input }: VerbArgs<TestEmailInput>): Promise<string> {
  const to = checkEmail(input.to);
  return ctx.store.writer.write((trx) =>
    enqueueEmail(trx, ctx, {
      purpose: 'test',
      to,
      workspaceId: input.workspaceId,
      userId: input.userId ?? null,
      payload: { kind: 'test', requestedBy: input.requestedBy },
    }),
  );
}
