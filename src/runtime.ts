import type { Config } from './config.js';
import { systemClock, type DomainContext } from './domain/context.js';
import { SecretBox } from './domain/keys/secret-box.js';
import { resolveAppSecret } from './storage/app-secret.js';
import { openDatabase, type Database, type OpenOptions } from './storage/database.js';

export interface Runtime {
  ctx: DomainContext;
  store: Database;
  appSecret: string;
  /** Path of an APP_SECRET generated in this start, for the warning line. */
  generatedSecretAt?: string;
}

/** What both `serve` and every CLI command need: the secret, a migrated database and a domain context. */
export async function openRuntime(config: Config, options: OpenOptions = {}): Promise<Runtime> {
  const { secret, generatedAt } = resolveAppSecret(config.appSecret, config.dataDir);
  const store = openDatabase(config.database, options);
  try {
    await store.migrate();
  } catch (error) {
    await store.close();
    throw error;
  }
  return {
    ctx: { store, secrets: new SecretBox(secret), clock: systemClock, config },
    store,
    appSecret: secret,
    ...(generatedAt ? { generatedSecretAt: generatedAt } : {}),
  };
}
