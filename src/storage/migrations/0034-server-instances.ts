import type { Kysely, Migration } from 'kysely';

/**
 * `server_instances`: what each running `leadscan serve` process says about itself, so the CLI (another process,
 * another environment) reports the server's settings rather than its own shell's: when it started, its last
 * heartbeat, whether email is on and through which host:port (never the credentials), the outcome of its last
 * send, and TRUST_PROXY as it reads it. One row per process start; old rows are pruned at start.
 */
export function serverInstances(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('server_instances')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('started_at', 'text', (c) => c.notNull())
        .addColumn('heartbeat_at', 'text', (c) => c.notNull())
        // Set by a graceful stop; a crashed server is told by its heartbeat growing old.
        .addColumn('stopped_at', 'text')
        .addColumn('email_on', 'integer', (c) => c.notNull())
        // host:port of SMTP_URL, and MAIL_FROM; null with email off.
        .addColumn('smtp_server', 'text')
        .addColumn('mail_from', 'text')
        // TRUST_PROXY as the server parsed it (JSON), and the migrations its code knows.
        .addColumn('trust_proxy', 'text', (c) => c.notNull())
        .addColumn('migrations', 'integer', (c) => c.notNull())
        // sent | pending (to be retried) | failed | dropped, when, and the reason of a failure.
        .addColumn('last_send_at', 'text')
        .addColumn('last_send_state', 'text')
        .addColumn('last_send_error', 'text')
        .execute();
      await db.schema.createIndex('server_instances_heartbeat').on('server_instances').column('heartbeat_at').execute();
    },
  };
}
