import type { DomainContext } from '../context.js';
import { nowIso } from '../context.js';
import { newId } from '../ids.js';

/** A server's heartbeat comes this often; one older than LIVE_WITHIN_MS means no server is running. */
export const HEARTBEAT_EVERY_MS = 10_000;
export const LIVE_WITHIN_MS = 45_000;
/** Rows of servers stopped longer than this are deleted when a server starts. */
const KEEP_STOPPED_MS = 7 * 24 * 60 * 60_000;

export interface ServerRecord {
  id: string;
  startedAt: string;
  heartbeatAt: string;
  /** Whether the heartbeat is recent and the server did not stop: a server is running. */
  live: boolean;
  stoppedAt: string | null;
  email: { on: boolean; server: string | null; from: string | null };
  trustProxy: unknown;
  migrations: number;
  lastSend: { at: string; state: string; error: string | null } | null;
}

/** Recorded by `leadscan serve` as it starts: what it runs with, never a credential (SMTP is host:port only). */
export async function recordServerStart(ctx: DomainContext, migrations: number): Promise<string> {
  const id = newId('srv');
  const now = nowIso(ctx);
  const mail = ctx.mail ? { server: ctx.mail.server, from: ctx.config.mail?.from ?? null } : undefined;
  const cutoff = new Date(ctx.clock.now().getTime() - KEEP_STOPPED_MS).toISOString();
  await ctx.store.writer.write(async (trx) => {
    await trx.deleteFrom('server_instances').where('heartbeat_at', '<', cutoff).execute();
    await trx
      .insertInto('server_instances')
      .values({
        id,
        started_at: now,
        heartbeat_at: now,
        stopped_at: null,
        email_on: mail ? 1 : 0,
        smtp_server: mail?.server ?? null,
        mail_from: mail?.from ?? null,
        trust_proxy: JSON.stringify(ctx.config.trustProxy),
        migrations,
        last_send_at: null,
        last_send_state: null,
        last_send_error: null,
      })
      .execute();
  });
  return id;
}

export async function recordHeartbeat(ctx: DomainContext, id: string): Promise<void> {
  await ctx.store.writer.write((trx) =>
    trx
      .updateTable('server_instances')
      .set({ heartbeat_at: nowIso(ctx) })
      .where('id', '=', id)
      .execute(),
  );
}

/** A graceful stop: from now on no server is running (until another's heartbeat). */
export async function recordServerStop(ctx: DomainContext, id: string): Promise<void> {
  await ctx.store.writer.write((trx) =>
    trx
      .updateTable('server_instances')
      .set({ stopped_at: nowIso(ctx) })
      .where('id', '=', id)
      .execute(),
  );
}

/** The outcome of the server's latest email attempt (the error is the mailer's redacted reason). */
export async function recordSend(
  ctx: DomainContext,
  id: string,
  state: string,
  error: string | undefined,
): Promise<void> {
  await ctx.store.writer.write((trx) =>
    trx
      .updateTable('server_instances')
      .set({ last_send_at: nowIso(ctx), last_send_state: state, last_send_error: error ?? null })
      .where('id', '=', id)
      .execute(),
  );
}

/** The most recently heard-from server, or null when none ever started against this database. */
export async function latestServer(ctx: Pick<DomainContext, 'store' | 'clock'>): Promise<ServerRecord | null> {
  const row = await ctx.store.db
    .selectFrom('server_instances')
    .selectAll()
    .orderBy('heartbeat_at', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) return null;
  return {
    id: row.id,
    startedAt: row.started_at,
    heartbeatAt: row.heartbeat_at,
    live: row.stopped_at === null && ctx.clock.now().getTime() - Date.parse(row.heartbeat_at) <= LIVE_WITHIN_MS,
    stoppedAt: row.stopped_at,
    email: { on: row.email_on === 1, server: row.smtp_server, from: row.mail_from },
    trustProxy: JSON.parse(row.trust_proxy) as unknown,
    migrations: Number(row.migrations),
    lastSend: row.last_send_at
      ? { at: row.last_send_at, state: row.last_send_state!, error: row.last_send_error }
      : null,
  };
}
