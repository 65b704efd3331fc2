import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../dialect.js';

/** PostgreSQL: counter rows per pipeline, one per slot; a connection adds to its own (docs/performance.md). */
export const UNREAD_COUNT_SLOTS = 32;

/**
 * Unread counts per pipeline kept as counters (`lead_unread_counts`), so the navigation's counts read a few rows
 * instead of counting every unopened lead (51 ms at 1,000,000 new leads). Triggers on `lead_unread` (migration 0004)
 * keep them, in the statement that adds or removes a mark, so every path that keeps marks (intake, opening a lead,
 * deleting or erasing one) keeps the counts exact without knowing of them.
 *
 * A pipeline's count is the sum of its rows. SQLite has one writer: one row per pipeline (slot 0). On PostgreSQL
 * several intake batches commit at once on different connections; one row per pipeline would make each wait for the
 * other's commit on that row's lock, so each connection adds to a row of its own (`slot`, from its backend pid) and
 * a row may go below zero where opened leads were counted in by another connection: the sum stays exact.
 */
export function unreadCounts(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('lead_unread_counts')
        .addColumn('pipeline_id', 'text', (c) => c.notNull())
        .addColumn('slot', 'integer', (c) => c.notNull())
        .addColumn('unread', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('lead_unread_counts_pk', ['pipeline_id', 'slot'])
        .execute();
      await sql`insert into lead_unread_counts (pipeline_id, slot, unread)
        select pipeline_id, 0, count(*) from lead_unread group by pipeline_id`.execute(db);
      if (dialect === 'sqlite') await sqliteTriggers(db);
      else await postgresTriggers(db);
    },
  };
}

async function sqliteTriggers(db: Kysely<unknown>) {
  const add = (pipeline: string, n: string) =>
    sql.raw(`insert into lead_unread_counts (pipeline_id, slot, unread) values (${pipeline}, 0, ${n})
      on conflict (pipeline_id, slot) do update set unread = unread + excluded.unread;`);
  await sql`create trigger lead_unread_counts_insert after insert on lead_unread begin
      ${add('new.pipeline_id', '1')}
    end`.execute(db);
  await sql`create trigger lead_unread_counts_delete after delete on lead_unread begin
      ${add('old.pipeline_id', '-1')}
    end`.execute(db);
  await sql`create trigger lead_unread_counts_update after update of pipeline_id on lead_unread begin
      ${add('old.pipeline_id', '-1')}
      ${add('new.pipeline_id', '1')}
    end`.execute(db);
}

async function postgresTriggers(db: Kysely<unknown>) {
  // One statement per statement on lead_unread, whatever its number of rows (the intake inserts a batch at once).
  // Rows in pipeline order, so two connections that share a slot take its rows' locks in the same order.
  const add = (changes: string) => `insert into lead_unread_counts (pipeline_id, slot, unread)
      select pipeline_id, pg_backend_pid() % ${UNREAD_COUNT_SLOTS}, sum(n) from (${changes}) c
      group by pipeline_id having sum(n) <> 0 order by pipeline_id
      on conflict (pipeline_id, slot) do update set unread = lead_unread_counts.unread + excluded.unread`;
  const triggers = [
    {
      name: 'lead_unread_counts_insert',
      on: 'insert',
      tables: 'new table as added',
      changes: 'select pipeline_id, 1 as n from added',
    },
    {
      name: 'lead_unread_counts_delete',
      on: 'delete',
      tables: 'old table as removed',
      changes: 'select pipeline_id, -1 as n from removed',
    },
    {
      name: 'lead_unread_counts_update',
      on: 'update',
      tables: 'old table as removed new table as added',
      changes: 'select pipeline_id, -1 as n from removed union all select pipeline_id, 1 from added',
    },
  ];
  for (const t of triggers) {
    await sql
      .raw(
        `create function ${t.name}() returns trigger language plpgsql as $$
        begin
          ${add(t.changes)};
          return null;
        end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger ${t.name} after ${t.on} on lead_unread referencing ${t.tables}
        for each statement execute function ${t.name}()`,
      )
      .execute(db);
  }
}
