import type { Config } from './config.js';
import { startServer } from './server.js';

/** `leadscan serve`: one process on SQLite; `--workers N` is for PostgreSQL (see README). */
export async function serveCommand(
  config: Config,
  options: { workers?: number | undefined; stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
): Promise<void> {
  const workers = options.workers ?? config.workers;
  if (workers > 1 && config.database.kind === 'sqlite') {
    options.stderr.write(
      'leadscan: SQLite mode runs as a single process (one writer commits for all); serving with 1 worker. ' +
        'Use DATABASE_URL=postgres://… for several workers.\n',
    );
  }
  await startServer(config, { out: options.stdout, handleSignals: true });
  // Serve until a signal; the signal handler exits the process after a graceful close.
  await new Promise<never>(() => {});
}
