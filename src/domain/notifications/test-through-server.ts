import type { DomainContext } from '../context.js';
import { AppError } from '../errors.js';
import { checkEmail } from '../email-address.js';
import { latestServer } from '../server-instances/server-record.js';
import { enqueueTestEmail } from './test-email.js';

export interface TestEmailSentByServer {
  to: string;
  /** host:port of the SMTP server the running server sent it through. */
  server: string;
  outboxId: string;
}

/**
 * `leadscan notify test`: the CLI runs in another environment than the server, so it does not send itself. It
 * puts a test email in the outbox for the running server (as its record in `server_instances` says) and waits, at
 * most `timeoutMs`, for the outcome: sent, or the server's reason. Refused plainly when no server has a recent
 * heartbeat, or when the server runs with email off.
 */
export async function testEmailThroughServer(
  ctx: DomainContext,
  input: { to: string; requestedBy: string; timeoutMs: number; pollMs?: number },
): Promise<TestEmailSentByServer> {
  checkEmail(input.to);
  const server = await latestServer(ctx);
  if (!server?.live) {
    throw new AppError(
      'service_unavailable',
      server
        ? `No Leadscan server is running against this database (${
            server.stoppedAt ? `it stopped at ${server.stoppedAt}` : `the last heartbeat was at ${server.heartbeatAt}`
          }); start it with leadscan serve, then test again`
        : 'No Leadscan server has run against this database yet; start it with leadscan serve, then test again',
    );
  }
  if (!server.email.on) {
    throw new AppError(
      'email_not_configured',
      'Email is off on the running server: set SMTP_URL and MAIL_FROM in its environment and restart it ' +
        '(docs/notifications.md)',
    );
  }
  const outboxId = await enqueueTestEmail({
    ctx,
    input: { to: input.to, requestedBy: input.requestedBy, workspaceId: null },
  });
  const smtp = server.email.server ?? 'its SMTP server';
  const deadline = Date.now() + input.timeoutMs;
  for (;;) {
    const row = await ctx.store.db
      .selectFrom('outbox')
      .select(['state', 'last_error'])
      .where('id', '=', outboxId)
      .executeTakeFirst();
    if (row?.state === 'sent') return { to: input.to, server: smtp, outboxId };
    if (row && row.state !== 'pending' && row.state !== 'sending') {
      throw new AppError(
        'email_not_sent',
        `The test email to ${input.to} could not be sent through ${smtp}: ${row.last_error ?? row.state}`,
      );
    }
    if (Date.now() >= deadline) {
      throw new AppError(
        'email_not_sent',
        `The server did not send the test email to ${input.to} within ${Math.round(
          input.timeoutMs / 1000,
        )} s; it stays in the outbox (see leadscan notify status)`,
      );
    }
    await new Promise((resolve) => setTimeout(resolve, input.pollMs ?? 250));
  }
}
