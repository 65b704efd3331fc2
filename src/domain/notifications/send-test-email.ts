import type { DomainContext } from '../context.js';
import { AppError } from '../errors.js';
import { queueTestEmail, type TestEmailInput } from './test-email.js';
import { deliverDueEmails } from './deliver-emails.js';

export interface TestEmailSent {
  to: string;
  /** host:port of the SMTP server that took it. */
  server: string;
  outboxId: string;
}

/**
 * Send test email (the Notifications screen) and `leadscan notify test`: queued through the outbox like every
 * email, then sent at once so the person learns how it went. Tried once: a failure is recorded as the last failure
 * and answered with the server's reason, and is not retried.
 */
export async function sendTestEmail(ctx: DomainContext, input: TestEmailInput): Promise<TestEmailSent> {
  const outboxId = await queueTestEmail({ ctx, input });
  const server = ctx.mail!.server;
  const [delivery] = await deliverDueEmails(ctx, { limit: 1, only: outboxId });
  if (delivery?.state === 'sent') return { to: input.to, server, outboxId };
  throw new AppError(
    'email_not_sent',
    `The test email to ${input.to} could not be sent through ${server}: ${
      delivery?.error ?? 'another sender took it first'
    }`,
  );
}
