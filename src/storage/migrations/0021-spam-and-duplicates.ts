import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../dialect.js';
import { emailKey, phoneKey } from '../contact-keys.js';

const BATCH = 1000;

/**
 * Spam rules and possible duplicates (docs/admin-app.md):
 * - `lead_sources.spam_rules`: JSON text of a source's blocked emails, domains and words and its allowed sites;
 *   null when it has none. Read with the source, so intake needs no extra query.
 * - `quarantine.detail`: what caught it (the blocked rule, the site's host, who marked it as spam);
 *   `quarantine.lead_state`: for a lead marked as spam, the lead as it was (pipeline, stage, assignee, follow-up,
 *   notes, history), so Restore brings it back under the same id.
 * - `leads.email_key`, `leads.phone_key` (storage/contact-keys.ts), filled here for existing leads a batch at a time,
 *   with an index each per workspace and received time: a lead's earlier namesakes are one index range away.
 */
export function spamAndDuplicates(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema.alterTable('lead_sources').addColumn('spam_rules', 'text').execute();
      await db.schema.alterTable('quarantine').addColumn('detail', 'text').execute();
      await db.schema.alterTable('quarantine').addColumn('lead_state', 'text').execute();
      await db.schema.alterTable('leads').addColumn('email_key', 'text').execute();
      await db.schema.alterTable('leads').addColumn('phone_key', 'text').execute();

      let after = '';
      for (;;) {
        const { rows } = await sql<{ id: string; email: string | null; phone: string | null }>`
          select id, email, phone from leads where id > ${after} order by id limit ${BATCH}`.execute(db);
        if (rows.length === 0) break;
        const keyed = rows
          .map((r) => ({ id: r.id, email: emailKey(r.email), phone: phoneKey(r.phone) }))
          .filter((r) => r.email !== null || r.phone !== null);
        if (dialect === 'postgres' && keyed.length > 0) {
          await sql`update leads set email_key = v.email_key, phone_key = v.phone_key
            from unnest(${keyed.map((r) => r.id)}::text[], ${keyed.map((r) => r.email)}::text[],
              ${keyed.map((r) => r.phone)}::text[])
              as v(id, email_key, phone_key)
            where leads.id = v.id`.execute(db);
        } else {
          for (const r of keyed) {
            await sql`update leads set email_key = ${r.email}, phone_key = ${r.phone} where id = ${r.id}`.execute(db);
          }
        }
        after = rows.at(-1)!.id;
      }

      // Partial: leads without an email (or phone) are never anyone's duplicate by it.
      await db.schema
        .createIndex('leads_workspace_email_key')
        .on('leads')
        .columns(['workspace_id', 'email_key', 'received_at'])
        .where('email_key', 'is not', null)
        .execute();
      await db.schema
        .createIndex('leads_workspace_phone_key')
        .on('leads')
        .columns(['workspace_id', 'phone_key', 'received_at'])
        .where('phone_key', 'is not', null)
        .execute();
    },
  };
}
