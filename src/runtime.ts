import fs from 'node:fs';
import type { Config } from './config.js';
import { systemClock, type Clock, type DomainContext } from './domain/context.js';
import { AppError } from './domain/errors.js';
import { FormStamps } from './domain/form-stamp-key.js';
import { CsrfTokens } from './domain/csrf.js';
import { SecretBox } from './domain/secret-box.js';
import { resolveAppSecret } from './storage/app-secret.js';
import { openDatabase, type Database } from './storage/database.js';
import { redactedUrl } from './storage/redact-url.js';
import { smtpMailer } from './mail/smtp-mailer.js';
import type { Mailer } from './domain/mailer.js';
import type { DocumentRenderer } from './domain/document-renderer.js';
import { renderPool } from './pdf/render-pool.js';

export interface Runtime {
  ctx: DomainContext;
  store: Database;
  /** Path of an APP_SECRET generated in this start, for the one warning line. */
  generatedSecretAt?: string;
}

export interface RuntimeOptions {
  /** PostgreSQL pool size. */
  poolSize?: number;
  /**
   * Only `serve` and `migrate` may create a SQLite database (docs/cli.md). Any other command names the path
   * and what DATABASE_URL said, instead of quietly making an empty database (and a new APP_SECRET) elsewhere.
   */
  mayCreate?: boolean;
  /** The DATABASE_URL as given, for that message. */
  databaseUrl?: string | undefined;
}

/** The one place a DomainContext is made: the server, the CLI and the test helper all come through here. */
export function createDomainContext(input: {
  config: Config;
  store: Database;
  appSecret: string;
  clock?: Clock;
  mailer?: Mailer;
  /** The PDF renderer; by default a pool of worker threads started on first use (tests pass one made to fail). */
  renderer?: DocumentRenderer;
}): DomainContext {
  const mail = input.mailer ?? (input.config.mail ? smtpMailer(input.config.mail) : undefined);
  return {
    ...(mail ? { mail } : {}),
    pdf: input.renderer ?? renderPool(),
    store: input.store,
    secrets: new SecretBox(input.appSecret),
    csrf: new CsrfTokens(input.appSecret),
    formStamps: new FormStamps(input.appSecret),
    clock: input.clock ?? systemClock,
    config: input.config,
  };
}

/** What both `serve` and every CLI command need: the secret, a reachable, migrated database and a domain context. */
export async function openRuntime(config: Config, options: RuntimeOptions = {}): Promise<Runtime> {
  const { database } = config;
  if (
    database.kind === 'sqlite' &&
    database.path !== ':memory:' &&
    !options.mayCreate &&
    !fs.existsSync(database.path)
  ) {
    const given = options.databaseUrl?.trim() ? `DATABASE_URL=${options.databaseUrl}` : 'DATABASE_URL is unset';
    throw new AppError(
      'database_not_found',
      `No database at ${database.path} (${given}, relative paths count from ${process.cwd()}); ` +
        'run this where `leadscan serve` runs, or set DATABASE_URL to its database',
    );
  }
  const { secret, generatedAt } = resolveAppSecret(config.appSecret, config.dataDir);
  const store = await connect(config, options.poolSize);
  try {
    await store.migrate();
  } catch (error) {
    await store.close();
    throw error;
  }
  return {
    ctx: createDomainContext({ config, store, appSecret: secret }),
    store,
    ...(generatedAt ? { generatedSecretAt: generatedAt } : {}),
  };
}

/** Opens and pings the database, so "cannot reach it" is one clear line, distinct from a failed migration. */
async function connect(config: Config, poolSize: number | undefined): Promise<Database> {
  let store: Database | undefined;
  try {
    store = openDatabase(config.database, {
      writePath: config.writePath,
      ...(poolSize === undefined ? {} : { poolSize }),
    });
    await store.ping();
    return store;
  } catch (error) {
    await store?.close().catch(() => undefined);
    const where =
      config.database.kind === 'sqlite' ? `SQLite ${config.database.path}` : redactedUrl(config.database.url);
    throw new AppError('service_unavailable', `Cannot open the database ${where}: ${reasonOf(error)}`);
  }
}

/** The first useful message of an error, looking into AggregateError (a refused dual-stack connect) and cause. */
export function reasonOf(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  if (error.message) return error.message;
  const inner = (error as AggregateError).errors?.[0] ?? error.cause;
  if (inner !== undefined) return reasonOf(inner);
  return (error as { code?: string }).code ?? error.name;
}
