import type { FastifyInstance } from 'fastify';
import { buildApp } from './app.js';
import type { Config } from './config.js';
import { bootstrap, type BootstrapResult } from './domain/workspaces/bootstrap.js';
import { openRuntime } from './runtime.js';

export interface RunningServer {
  app: FastifyInstance;
  url: string;
  /** Stop accepting, finish what was accepted, commit, close the database. */
  close(): Promise<void>;
}

export function banner(config: Config, listenUrl: string, result: BootstrapResult): string {
  const lines = [`Leadscan is listening on ${listenUrl}  (API reference: ${config.publicBaseUrl}/docs)`];
  if (result.source) {
    lines.push(`Hosted form:  ${result.source.formUrl}`, `Intake URL:   ${result.source.intakeUrl}`);
  }
  if (!result.created) lines.push(`Web app:      ${config.publicBaseUrl}/`);
  if (result.created) {
    lines.push(
      '',
      'First start: created workspace "Default", pipeline "Sales" and lead source "Website form".',
      'Post a lead:',
      `  curl -X POST '${result.source.intakeUrl}' -H 'content-type: application/json' -d '{"name":"Ada Lovelace","email":"ada@example.com","notes":"Kitchen refit"}'`,
      `Scan upload key (shown once here; later: npx leadscan key show --workspace ${result.workspaceId}):`,
      `  ${result.uploadKey}`,
      'Test the scan connection:',
      `  curl -X POST '${config.publicBaseUrl}/api/scan/upload' -H 'x-scan-key: ${result.uploadKey}' -H 'content-type: application/json' -d '{"rooms":[]}'`,
    );
    if (result.adminSetup) {
      lines.push(
        '',
        `Web app: ${config.publicBaseUrl}/login  (owner admin@localhost)`,
        'Set the admin password with this one-time link (valid 24 h, shown only now):',
        `  ${result.adminSetup.setupUrl}`,
        'A new link later: npx leadscan user reset-password --email admin@localhost',
      );
    }
  }
  return `${lines.join('\n')}\n`;
}

/** The process: migrate, first-start bootstrap, listen, and shut down gracefully on SIGTERM/SIGINT. */
export async function startServer(
  config: Config,
  options: { out?: NodeJS.WritableStream; handleSignals?: boolean; quiet?: boolean } = {},
): Promise<RunningServer> {
  const out = options.out ?? process.stdout;
  const runtime = await openRuntime(config);
  if (runtime.generatedSecretAt) {
    process.stderr.write(
      `warning: APP_SECRET is not set; generated one in ${runtime.generatedSecretAt}. Set APP_SECRET in production.\n`,
    );
  }
  const result = await bootstrap({ ctx: runtime.ctx });
  const app = await buildApp(config, { store: runtime.store, appSecret: runtime.appSecret });
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (error) {
    await app.close();
    await runtime.store.close();
    throw error;
  }
  const address = app.server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  const url = `http://${config.host.includes(':') ? `[${config.host}]` : config.host}:${port}`;
  if (!options.quiet) out.write(banner(config, url, result));

  let closing: Promise<void> | undefined;
  const close = () => {
    // Fastify's close stops accepting and waits for in-flight requests; each of those answers only after its
    // commit, and the writer then drains anything still queued before the database closes.
    closing ??= (async () => {
      await app.close();
      await runtime.store.close();
    })();
    return closing;
  };

  if (options.handleSignals) {
    const onSignal = (signal: NodeJS.Signals) => {
      app.log.info({ signal }, 'shutting down');
      const force = setTimeout(() => {
        app.log.error('shutdown took over 25 s; exiting');
        process.exit(1);
      }, 25_000);
      force.unref();
      close().then(
        () => process.exit(0),
        (error: unknown) => {
          app.log.error({ err: error }, 'shutdown failed');
          process.exit(1);
        },
      );
    };
    process.once('SIGTERM', onSignal);
    process.once('SIGINT', onSignal);
  }
  return { app, url, close };
}
