import type { Kysely, Migration } from 'kysely';

/**
 * Sign-in throttling claims an attempt before the password is checked: a row per scope is written first, and
 * taken back when the password was right. `attempt` names the claim, so a success removes its own rows only.
 */
export function signInAttempts(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('sign_in_failures').addColumn('attempt', 'text').execute();
      await db.schema.createIndex('sign_in_failures_attempt').on('sign_in_failures').column('attempt').execute();
    },
  };
}
