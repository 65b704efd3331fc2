import type { Command } from 'commander';
import type { DomainContext } from '../domain/context.js';
import { outboxStatus, type OutboxStatus } from '../domain/notifications/outbox.js';
import { sendTestEmail, type TestEmailSent } from '../domain/notifications/send-test-email.js';
import type { CliKit, Render } from './kit.js';
import { workspaceIdOf } from './resolve.js';

interface NotifyStatus extends OutboxStatus {
  email: { on: boolean; server: string | null; from: string | null };
  workspaceId: string | null;
}

async function notifyStatus(ctx: DomainContext, opts: { workspace?: string }): Promise<NotifyStatus> {
  const workspaceId = opts.workspace ? await workspaceIdOf(ctx, opts.workspace) : null;
  const status = await outboxStatus({ ctx, input: workspaceId ? { workspaceId } : {} });
  const mail = ctx.config.mail;
  return { email: { on: Boolean(mail), server: mail?.server ?? null, from: mail?.from ?? null }, workspaceId, ...status };
}

const statusText = ((s: NotifyStatus) => {
  const lines = [
    s.email.on ? `email:        on, through ${s.email.server} as ${s.email.from}` : 'email:        off (set SMTP_URL and MAIL_FROM; docs/notifications.md)',
    `last sent:    ${s.lastSent ? `${s.lastSent.at} ${s.lastSent.purpose} to ${s.lastSent.to}` : 'none'}`,
    `last failure: ${s.lastFailure ? `${s.lastFailure.at} ${s.lastFailure.purpose} to ${s.lastFailure.to}: ${s.lastFailure.error}${s.lastFailure.gaveUp ? ' (not retried)' : ' (retrying)'}` : 'none'}`,
    `waiting:      ${s.waiting}${s.oldestWaitingAt ? ` (oldest since ${s.oldestWaitingAt})` : ''}`,
  ];
  return `${lines.join('\n')}\n`;
}) as Render;

/** `leadscan notify …`: whether email works, and a test email through the same outbox the server uses. */
export function registerNotifyCommands(program: Command, { run, withJson }: CliKit) {
  const notify = program.command('notify').description('email notifications (docs/notifications.md)');
  withJson(notify.command('status'))
    .description('whether email is on, the last email sent, the last failure and what waits to be sent')
    .option('--workspace <workspace>', 'only this workspace (id or name)')
    .action(run((ctx, opts: { workspace?: string }) => notifyStatus(ctx, opts), statusText));
  withJson(notify.command('test'))
    .description('send a test email now through SMTP_URL and say how it went (exits 1 with the server’s reason)')
    .requiredOption('--to <email>', 'where to send it')
    .action(
      run(
        (ctx, opts: { to: string }) => sendTestEmail(ctx, { to: opts.to, requestedBy: 'the server operator (leadscan notify test)' }),
        ((sent: TestEmailSent) => `Sent a test email to ${sent.to} through ${sent.server}.\n`) as Render,
      ),
    );
}
