import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { recordServerBaseUrl } from './domain/server-base-url.js';
import { formUrl, intakeUrl } from './domain/sources/source.js';
import { BANNER_SOURCES, type BootstrapResult } from './domain/bootstrap.js';
import type { Runtime } from './runtime.js';
import { startScanMeasurer } from './jobs/scan-measurer.js';
import { startNotifier } from './jobs/notifier.js';
import { periodicJob } from './jobs/periodic-job.js';
import {
  HEARTBEAT_EVERY_MS,
  recordHeartbeat,
  recordSend,
  recordServerStart,
  recordServerStop,
} from './domain/server-instances/server-record.js';
import { migrationProvider } from './storage/migrations/index.js';
import { startRetentionJob } from './jobs/retention.js';
import { startSearchMover } from './jobs/search-mover.js';
import { startDocumentRenderer } from './jobs/document-renderer.js';
import { startFollowUpJob } from './jobs/follow-ups.js';

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  /** PUBLIC_BASE_URL, else http://localhost:<the port listened on>: what links are built with (banner, CLI). */
  baseUrl: string;
  /** Stop accepting, finish what was accepted, commit, close the database. */
  close(): Promise<void>;
}

/** The first-start banner (README.md), the one place it is written; `serve` prints it once per service start. */
export function banner(config: Config, listenUrl: string, result: BootstrapResult): string {
  const lines = [
    config.publicBaseUrl === listenUrl
      ? `Leadscan is listening on ${listenUrl}`
      : `Leadscan is listening on ${listenUrl} (links below use ${config.publicBaseUrl}; PUBLIC_BASE_URL sets them)`,
    `API reference: ${config.publicBaseUrl}/docs`,
    config.mail
      ? `Email: on, through ${config.mail.server} as ${config.mail.from} (docs/notifications.md)`
      : 'Email: off; set SMTP_URL and MAIL_FROM to email new leads (docs/notifications.md)',
  ];
  const sourceLines = (source: { name: string; token: string }) => [
    `Lead source "${source.name}":`,
    `  Hosted form:  ${formUrl(config.publicBaseUrl, source.token)}`,
    `  Intake URL:   ${intakeUrl(config.publicBaseUrl, source.token)}`,
  ];
  if (!result.created) {
    for (const source of result.sources.slice(0, BANNER_SOURCES)) lines.push(...sourceLines(source));
    if (result.sources.length > BANNER_SOURCES)
      lines.push(`(more lead sources: ${config.cliCommand} source list --workspace …)`);
    lines.push(`Web app:      ${config.publicBaseUrl}/`);
    return `${lines.join('\n')}\n`;
  }
  const intake = intakeUrl(config.publicBaseUrl, result.source.token);
  lines.push(
    ...sourceLines({ name: 'Website form', token: result.source.token }),
    '',
    'First start: created workspace "Default", pipeline "Sales" and lead source "Website form".',
    'Post a lead:',
    `  curl -X POST '${intake}' -H 'content-type: application/json' -d '{"name":"Ada ` +
      `Lovelace","email":"ada@example.com","notes":"Kitchen refit"}'`,
    // By name, as the README says: the workspace is "Default" on a first start.
    `Scan upload key (shown once here; later: ${config.cliCommand} key show --workspace Default):`,
    `  ${result.uploadKey}`,
    'Test the scan connection:',
    `  curl -X POST '${config.publicBaseUrl}/api/scan/upload' -H 'x-scan-key: ${result.uploadKey}' -H ` +
      `'content-type: application/json' -d '{"rooms":[]}'`,
  );
  if (result.adminSetup) {
    lines.push(
      '',
      `Web app: ${config.publicBaseUrl}/login  (owner admin@localhost)`,
      'Set the admin password with this one-time link (valid 24 h, shown only now):',
      `  ${result.adminSetup.setupUrl}`,
      'The page also asks for your own email and name, which replace admin@localhost.',
      `A new link later: ${config.cliCommand} user reset-password --email admin@localhost`,
    );
  }
  return `${lines.join('\n')}\n`;
}

/**
 * The HTTP process on an opened runtime: build the app, listen, and remember the base URL for the CLI's links.
 * Signals and the banner belong to `serve` (serve-command.ts); `close` is the one shutdown path.
 */
export async function startServer(runtime: Runtime): Promise<RunningServer> {
  const { config } = runtime.ctx;
  const app = await buildApp(runtime.ctx);
  try {
    runtime.store.hot.start();
    // The banner says where it listens, once; the log line only marks the moment.
    await app.listen({ host: config.host, port: config.port, listenTextResolver: () => 'accepting connections' });
  } catch (error) {
    await app.close();
    await runtime.store.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  const baseUrl = config.publicBaseUrlSet ? config.publicBaseUrl : `http://localhost:${port}`;
  await recordServerBaseUrl(runtime.ctx, baseUrl);
  // What this process runs with, for `leadscan notify status`, `notify test` and `doctor` (other processes).
  const instanceId = await recordServerStart(
    runtime.ctx,
    Object.keys(await migrationProvider(runtime.store.dialect).getMigrations()).length,
  );
  const heartbeat = periodicJob(() => recordHeartbeat(runtime.ctx, instanceId), {
    everyMs: HEARTBEAT_EVERY_MS,
    onError: (error) => app.log.warn({ err: error }, 'recording the server heartbeat failed; retrying'),
  });

  const measurer = startScanMeasurer(runtime.ctx, (error) =>
    app.log.warn({ err: error }, 'measuring scans failed; retrying later'),
  );
  const notifier = runtime.ctx.mail
    ? startNotifier(runtime.ctx, {
        onError: (error) => app.log.warn({ err: error }, 'the email notifier failed a pass; retrying in a few seconds'),
        onSettled: async (state, error) => {
          app.metrics.observeEmail(state);
          await recordSend(runtime.ctx, instanceId, state, error);
        },
      })
    : undefined;

  // Every instance looks now and then; the job's claim lets one of them run the day's purge.
  const retention = startRetentionJob(runtime.ctx, (error) =>
    app.log.warn({ err: error }, 'the retention run failed; retrying later'),
  );

  // Follow-up reminders: every instance looks; each reminder is queued once (its unique key in the outbox's
  // transaction).
  const followUps = startFollowUpJob(runtime.ctx, (error) =>
    app.log.warn({ err: error }, 'the follow-up reminders failed a pass; retrying later'),
  );

  // PostgreSQL: new leads' search documents go under the trigram index in batches, off the intake's INSERT.
  const searchMover = startSearchMover(runtime.ctx, (error) =>
    app.log.warn({ err: error }, 'moving search documents failed; retrying in a second'),
  );

  // Sent documents' PDFs, rendered by worker threads off the request path (docs/documents.md).
  const documents = startDocumentRenderer(runtime.ctx, (error) =>
    app.log.warn({ err: error }, 'rendering documents failed a pass; retrying shortly'),
  );

  let closing: Promise<void> | undefined;
  const close = () => {
    // Fastify's close stops accepting and waits for in-flight requests; each of those answers only after its
    // commit, the intake log is flushed, and the writer then drains anything still queued before the database closes.
    closing ??= (async () => {
      await heartbeat.stop();
      await measurer.stop();
      await notifier?.stop();
      await retention.stop();
      await followUps.stop();
      await searchMover.stop();
      await documents.stop();
      await runtime.ctx.pdf?.close();
      await app.close();
      await recordServerStop(runtime.ctx, instanceId).catch((error: unknown) =>
        app.log.warn({ err: error }, 'recording the stop failed'),
      );
      await runtime.store.close();
    })();
    return closing;
  };
  return { app, url, baseUrl, close };
}
