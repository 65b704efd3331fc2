import { sql, type Kysely, type Migration } from 'kysely';

/**
 * Drops `leads_email` (`lower(email)`, migration 0002). Its one reader, a person's export and erasure
 * (domain/persons/person-data.ts), now looks leads up by `email_key` (the email trimmed and in lower case, kept on
 * every lead since migration 0021) through `leads_workspace_email_key`, which is per workspace as the lookup is.
 * One index fewer for every lead stored: intake keeps eleven index entries per lead on `leads` and its unread mark,
 * and this one served only that rare lookup (docs/performance.md).
 */
export function dropLeadEmailIndex(): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await sql`drop index if exists leads_email`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await sql`create index if not exists leads_email on leads (lower(email))`.execute(db);
    },
  };
}
