import cluster, { type Worker } from 'node:cluster';
import net from 'node:net';
import type { Config } from './config.js';
import { bootstrap, type BootstrapResult } from './domain/bootstrap.js';
import { openRuntime, type Runtime } from './runtime.js';
import { banner, startServer, type RunningServer } from './server.js';

interface ServeIo {
  stdout: NodeJS.WritableStream;
  stderr: NodeJS.WritableStream;
}

/** A worker that cannot finish its shutdown in this time is killed. */
export const SHUTDOWN_GRACE_MS = 25_000;
/** More restarts than this inside RESTART_WINDOW_MS means workers die on start: stop instead of spinning. */
const MAX_RESTARTS = 10;
const RESTART_WINDOW_MS = 60_000;

/**
 * `leadscan serve`. SQLite is one process: one writer commits for everybody, and several processes would only
 * queue on its lock. On PostgreSQL `--workers N` (or WORKERS) runs N processes with node:cluster on the shared
 * port; the database is the only shared state, so they behave as one service (docs/operations.md, "Running several
 * instances").
 */
export async function serveCommand(
  config: Config,
  options: { workers?: number | undefined; stdout: NodeJS.WritableStream; stderr: NodeJS.WritableStream },
): Promise<void> {
  const io: ServeIo = { stdout: options.stdout, stderr: options.stderr };
  if (cluster.isWorker) return runWorker(config, io);
  const workers = options.workers ?? config.workers;
  if (workers > 1 && config.database.kind === 'sqlite') {
    io.stderr.write(
      'leadscan: SQLite mode runs as a single process (one writer commits for all); serving with 1 worker. ' +
        'Use DATABASE_URL=postgres://… for several workers.\n',
    );
  }
  if (workers > 1 && config.database.kind === 'postgres') return runPrimary(config, workers, io);
  const stop = stopOnSignal(io);
  const runtime = await openRuntime(config, { mayCreate: true });
  let running: RunningServer;
  let result: BootstrapResult;
  try {
    warnGeneratedSecret(runtime, io);
    result = await bootstrap({ ctx: runtime.ctx });
    running = await startServer(runtime);
  } catch (error) {
    await runtime.store.close();
    throw error;
  }
  io.stdout.write(banner({ ...config, publicBaseUrl: running.baseUrl }, running.url, result));
  stop.serving(running);
  // Serve until a signal; the handler exits the process after a graceful close.
}

/** Said once per service start, by the process that generated the secret (docs/api.md). */
function warnGeneratedSecret(runtime: Runtime, io: ServeIo): void {
  if (!runtime.generatedSecretAt) return;
  io.stderr.write(
    `Note: APP_SECRET is not set, so Leadscan made one and keeps it in ${runtime.generatedSecretAt}. Keep that file ` +
      `with ` +
      'the database and its backups: upload keys and bot-check secrets are encrypted with it. (To choose your own, ' +
      'set APP_SECRET.)\n',
  );
}

function writerSummary(running: RunningServer): string {
  const generic = running.app.ctx.store.writer.stats;
  const hot = running.app.ctx.store.hot.stats;
  const commits = generic.commits + hot.commits;
  const writes = generic.writes + hot.writes;
  const largestBatch = Math.max(generic.largestBatch, hot.largestBatch);
  const mean = commits === 0 ? 0 : writes / commits;
  return (
    `writer committed ${writes} writes in ${commits} transactions (mean batch ${mean.toFixed(1)}, ` +
    `largest ${largestBatch})`
  );
}

/**
 * SIGTERM/SIGINT: stop accepting, finish accepted requests (each answers only after its commit), drain the
 * writer, close the database, exit 0. The summary line lets operators (and bench/intake.ts) see group commit.
 * Installed before the server starts: with no listener a signal kills the process outright, and a supervisor may
 * signal the moment the banner appears. A signal during start-up waits for the start, then closes.
 */
function stopOnSignal(io: ServeIo, label = 'leadscan'): { serving(running: RunningServer): void } {
  let running: RunningServer | undefined;
  let requested = false;
  let stopping = false;
  const stop = () => {
    if (stopping || !running) return;
    stopping = true;
    const server = running;
    server.app.log.info('shutting down');
    // Left referenced: this timer holds the process open until the close below finishes. The SQLite writer thread
    // and the job timers are unreferenced, so without it the event loop could empty mid-close and the process end
    // with exit code 0, the database not closed and the "stopped" line never written.
    setTimeout(() => {
      io.stderr.write(`${label}: shutdown took over ${SHUTDOWN_GRACE_MS / 1000} s; exiting\n`);
      process.exit(1);
    }, SHUTDOWN_GRACE_MS);
    server.close().then(
      () => {
        io.stderr.write(`${label}: stopped; ${writerSummary(server)}\n`);
        process.exit(0);
      },
      (error: unknown) => {
        server.app.log.error({ err: error }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  const onSignal = () => {
    requested = true;
    stop();
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  return {
    serving(server) {
      running = server;
      if (requested) stop();
    },
  };
}

/** A cluster worker: the primary already migrated and bootstrapped, so this start finds both done and says nothing. */
async function runWorker(config: Config, io: ServeIo): Promise<void> {
  const stop = stopOnSignal(io, `leadscan worker ${process.pid}`);
  let running: RunningServer;
  try {
    running = await startServer(await openRuntime(config, { mayCreate: true }));
  } catch (error) {
    // The IPC channel would keep this process alive; exit so the primary sees the failure.
    io.stderr.write(
      `leadscan: worker ${process.pid} could not start: ${error instanceof Error ? error.message : String(error)}\n`,
    );
    process.exit(1);
  }
  stop.serving(running);
}

/**
 * The primary migrates and bootstraps once (so N workers do not race to print N first-start banners), prints the
 * banner when the first worker listens, replaces a worker that dies, and on SIGTERM/SIGINT stops every worker
 * gracefully before exiting.
 */
async function runPrimary(config: Config, count: number, io: ServeIo): Promise<void> {
  const runtime = await openRuntime(config, { poolSize: 2, mayCreate: true });
  let result: BootstrapResult;
  try {
    warnGeneratedSecret(runtime, io);
    result = await bootstrap({ ctx: runtime.ctx });
  } finally {
    await runtime.store.close();
  }

  // One port for every worker, replacements included. Workers asking the cluster for port 0 share one listening
  // socket only while one of them holds it: a worker that died before another had listened took the port with it,
  // and the next one was given a new random port.
  const port = config.port === 0 ? await freePort(config.host) : config.port;

  let stopping = false;
  let listened = false;
  const restarts: number[] = [];
  let exitCode = 0;
  const live = new Set<Worker>();

  const fork = () => {
    const worker = cluster.fork({ PORT: String(port) });
    live.add(worker);
    return worker;
  };

  const stopAll = (code: number) => {
    exitCode = Math.max(exitCode, code);
    if (stopping) return;
    stopping = true;
    for (const worker of live) worker.process.kill('SIGTERM');
    const force = setTimeout(() => {
      io.stderr.write(`leadscan: workers did not stop within ${SHUTDOWN_GRACE_MS / 1000 + 5} s; killing them\n`);
      for (const worker of live) worker.process.kill('SIGKILL');
      process.exit(1);
    }, SHUTDOWN_GRACE_MS + 5_000);
    force.unref();
    if (live.size === 0) process.exit(exitCode);
  };

  /** Workers that reached listen(): one stopped before that had accepted nothing, whatever its exit. */
  const serving = new WeakSet<Worker>();
  const replacements = new WeakSet<Worker>();
  /** The workers started with the service: the banner waits for all of them. */
  const initial = new WeakSet<Worker>();

  let startedServing = 0;

  cluster.on('listening', (worker, address) => {
    serving.add(worker);
    if (replacements.has(worker)) io.stderr.write(`leadscan: replacement worker ${worker.process.pid} is serving\n`);
    // The banner says the service is up with `count` workers: printed once all of them are (until then a worker
    // that dies ends the start rather than being replaced).
    if (listened || !initial.has(worker) || ++startedServing < count) return;
    listened = true;
    const host = config.host.includes(':') ? `[${config.host}]` : config.host;
    io.stdout.write(
      `${banner(config, `http://${host}:${address.port}`, result)}` +
        `Serving with ${count} worker processes on ${describeDatabase(config)} (primary pid ${process.pid}).\n`,
    );
  });

  cluster.on('exit', (worker, code, signal) => {
    live.delete(worker);
    if (stopping) {
      const stoppedBeforeServing = !serving.has(worker) && (signal === 'SIGTERM' || signal === 'SIGINT');
      if (code !== 0 && !stoppedBeforeServing) exitCode = 1;
      if (live.size === 0) process.exit(exitCode);
      return;
    }
    const how = signal ? `signal ${signal}` : `code ${code}`;
    if (!listened) {
      io.stderr.write(`leadscan: a worker exited (${how}) before serving; stopping\n`);
      stopAll(1);
      return;
    }
    const now = Date.now();
    while (restarts.length > 0 && restarts[0]! < now - RESTART_WINDOW_MS) restarts.shift();
    if (restarts.length >= MAX_RESTARTS) {
      io.stderr.write(`leadscan: workers keep dying (${MAX_RESTARTS} restarts within a minute); stopping\n`);
      stopAll(1);
      return;
    }
    restarts.push(now);
    io.stderr.write(`leadscan: worker ${worker.process.pid} exited (${how}); starting a replacement\n`);
    replacements.add(fork());
  });

  process.on('SIGTERM', () => stopAll(0));
  process.on('SIGINT', () => stopAll(0));
  for (let i = 0; i < count; i += 1) initial.add(fork());
}

/** A port free on `host` now, chosen by the system (for PORT=0): the workers are then all told the same one. */
function freePort(host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = net.createServer();
    probe.once('error', reject);
    probe.listen({ host, port: 0 }, () => {
      const { port } = probe.address() as net.AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

function describeDatabase(config: Config): string {
  return config.database.kind === 'postgres' ? 'PostgreSQL' : 'SQLite';
}
