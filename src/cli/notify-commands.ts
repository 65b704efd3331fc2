import type { Command } from 'commander';
import type { DomainContext } from '../domain/context.js';
import { outboxStatus, type OutboxStatus } from '../domain/notifications/outbox.js';
import { testEmailThroughServer, type TestEmailSentByServer } from '../domain/notifications/test-through-server.js';
import { latestServer, type ServerRecord } from '../domain/server-instances/server-record.js';
import { positiveInteger, type CliKit, type Render } from './kit.js';
import { workspaceIdOf } from './resolve.js';

interface NotifyStatus extends OutboxStatus {
  /** As the running (or last) server recorded it at its start, not this shell's environment. */
  email: { on: boolean; server: string | null; from: string | null };
  /** The server that recorded it: when it started and last said it was alive; null when none ever ran. */
  serverProcess: {
    running: boolean;
    startedAt: string;
    heartbeatAt: string;
    stoppedAt: string | null;
    lastSend: ServerRecord['lastSend'];
  } | null;
  workspaceId: string | null;
}

async function notifyStatus(ctx: DomainContext, opts: { workspace?: string }): Promise<NotifyStatus> {
  const workspaceId = opts.workspace ? await workspaceIdOf(ctx, opts.workspace) : null;
  const status = await outboxStatus({ ctx, input: { workspaceId } });
  const server = await latestServer(ctx);
  return {
    email: server?.email ?? { on: false, server: null, from: null },
    serverProcess: server
      ? {
          running: server.live,
          startedAt: server.startedAt,
          heartbeatAt: server.heartbeatAt,
          stoppedAt: server.stoppedAt,
          lastSend: server.lastSend,
        }
      : null,
    workspaceId,
    ...status,
  };
}

const statusText = ((s: NotifyStatus) => {
  const p = s.serverProcess;
  const lines = [
    p
      ? 'server:       ' +
        (p.running
          ? 'running'
          : `not running (${p.stoppedAt ? `stopped ${p.stoppedAt}` : `last heartbeat ${p.heartbeatAt}`})`) +
        `, started ${p.startedAt}`
      : 'server:       never started against this database (leadscan serve)',
    s.email.on
      ? `email:        on, through ${s.email.server} as ${s.email.from}`
      : `email:        off${p ? ' on the server' : ''} ` +
        "(set SMTP_URL and MAIL_FROM in the server's environment; docs/notifications.md)",
    `last sent:    ${s.lastSent ? `${s.lastSent.at} ${s.lastSent.purpose} to ${s.lastSent.to}` : 'none'}`,
    'last failure: ' +
      (s.lastFailure
        ? `${s.lastFailure.at} ${s.lastFailure.purpose} to ${s.lastFailure.to}: ${s.lastFailure.error}` +
          (s.lastFailure.gaveUp ? ' (not retried)' : ' (retrying)')
        : 'none'),
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
    .description('ask the running server to send a test email and say how it went (exits 1 with the server’s reason)')
    .requiredOption('--to <email>', 'where to send it')
    .option('--timeout <seconds>', 'how long to wait for the server (default 60)', positiveInteger)
    .action(
      run(
        (ctx, opts: { to: string; timeout?: number }) =>
          testEmailThroughServer(ctx, {
            to: opts.to,
            requestedBy: 'the server operator (leadscan notify test)',
            timeoutMs: (opts.timeout ?? 60) * 1000,
          }),
        ((sent: TestEmailSentByServer) =>
          `The server sent a test email to ${sent.to} through ${sent.server}.\n`) as Render,
      ),
    );
}
