import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * The outstanding and overdue totals kept, not summed (docs/invoices.md, "The list"). Summing the open invoices'
 * balances read every open invoice on each visit of the Invoices screen (5 ms on SQLite, 8 ms on PostgreSQL at
 * 100,000 invoices, 25,000 of them open): `invoice_open_totals` holds, per workspace, currency and due day, the open
 * invoices' count and balance, so the totals add a row per due day (a few hundred) and overdue is the days before
 * today in the workspace's zone, whatever today is.
 *
 * Triggers on `invoices` keep it, in the statement that changes an invoice, so every path that sends, pays, credits,
 * voids, erases or deletes one keeps the totals exact without knowing of them (as `lead_unread_counts` does,
 * migration 0024). An invoice counts while it is open: sent, viewed or partly paid, and not a credit note (the
 * condition of `invoices_workspace_open_totals`, migration 0053, which the table replaces). A row whose count falls
 * to zero is deleted, so the table holds only days with something open.
 *
 * One row per day, no per-connection slots (unlike the unread counts): the writes that touch a day's row are sends,
 * payments, voids and credit notes, a person's clicks; sends already wait for one another on the workspace's number
 * counter, so a second wait on the day's row costs nothing.
 */
export function invoiceOpenTotalsKept(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('invoice_open_totals')
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('due_date', 'text', (c) => c.notNull())
        .addColumn('open_count', 'bigint', (c) => c.notNull())
        .addColumn('balance', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('invoice_open_totals_pk', ['workspace_id', 'currency', 'due_date'])
        .execute();
      await backfillOpenTotals(db);
      if (dialect === 'sqlite') await sqliteTriggers(db);
      else await postgresTriggers(db);
      await db.schema.dropIndex('invoices_workspace_open_totals').execute();
    },
  };
}

/** The totals of the invoices already written (the migration's, and a test's to compare with the triggers'). */
export async function backfillOpenTotals(db: Kysely<unknown>): Promise<void> {
  await sql`insert into invoice_open_totals (workspace_id, currency, due_date, open_count, balance)
    select workspace_id, currency, coalesce(due_date, ''), count(*), sum(balance) from invoices
    where ${OPEN} group by workspace_id, currency, coalesce(due_date, '')`.execute(db);
}

/** An open invoice, as the totals count it (`row` the invoice's alias: new, old or none). */
function open(row: string) {
  const p = row ? `${row}.` : '';
  return `${p}status in ('sent', 'viewed', 'partly_paid') and ${p}kind <> 'credit_note'`;
}

const OPEN = sql.raw(open(''));

async function sqliteTriggers(db: Kysely<unknown>) {
  // An invoice's part in its day's row, added (sign 1) or taken back (sign -1), then the row gone if nothing is open.
  const add = (row: string, sign: number) =>
    `insert into invoice_open_totals (workspace_id, currency, due_date, open_count, balance)
      select ${row}.workspace_id, ${row}.currency, coalesce(${row}.due_date, ''), ${sign}, ${sign} * ${row}.balance
      where ${open(row)}
      on conflict (workspace_id, currency, due_date) do update
      set open_count = open_count + excluded.open_count, balance = balance + excluded.balance;
    delete from invoice_open_totals where open_count = 0 and workspace_id = ${row}.workspace_id
      and currency = ${row}.currency and due_date = coalesce(${row}.due_date, '');`;
  await sql
    .raw(`create trigger invoice_open_totals_insert after insert on invoices begin ${add('new', 1)} end`)
    .execute(db);
  await sql
    .raw(`create trigger invoice_open_totals_delete after delete on invoices begin ${add('old', -1)} end`)
    .execute(db);
  await sql
    .raw(
      `create trigger invoice_open_totals_update
      after update of workspace_id, currency, due_date, status, kind, balance on invoices begin
        ${add('old', -1)}
        ${add('new', 1)}
      end`,
    )
    .execute(db);
}

async function postgresTriggers(db: Kysely<unknown>) {
  // One statement per statement on invoices, whatever its number of rows, its rows in key order so that two
  // transactions take the days' row locks in the same order.
  // The delete is a statement of its own: a statement does not see its own CTEs' writes.
  const keep = (changes: string) => `
      insert into invoice_open_totals (workspace_id, currency, due_date, open_count, balance)
      select workspace_id, currency, coalesce(due_date, ''), sum(n), sum(b) from (${changes}) c
      group by 1, 2, 3 having sum(n) <> 0 or sum(b) <> 0 order by 1, 2, 3
      on conflict (workspace_id, currency, due_date) do update
      set open_count = invoice_open_totals.open_count + excluded.open_count,
          balance = invoice_open_totals.balance + excluded.balance;
      delete from invoice_open_totals where open_count = 0 and (workspace_id, currency, due_date) in
        (select workspace_id, currency, coalesce(due_date, '') from (${changes}) c)`;
  const part = (table: string, sign: string) =>
    `select workspace_id, currency, due_date, ${sign}1 as n, ${sign}balance as b from ${table} where ${open(table)}`;
  const added = part('added', '');
  const removed = part('removed', '-');
  const triggers = [
    { name: 'invoice_open_totals_insert', on: 'insert', tables: 'new table as added', changes: added },
    { name: 'invoice_open_totals_delete', on: 'delete', tables: 'old table as removed', changes: removed },
    {
      name: 'invoice_open_totals_update',
      on: 'update',
      tables: 'old table as removed new table as added',
      changes: `${added} union all ${removed}`,
    },
  ];
  for (const t of triggers) {
    await sql
      .raw(
        `create function ${t.name}() returns trigger language plpgsql as $$
        begin
          ${keep(t.changes)};
          return null;
        end $$`,
      )
      .execute(db);
    await sql
      .raw(
        `create trigger ${t.name} after ${t.on} on invoices referencing ${t.tables}
        for each statement execute function ${t.name}()`,
      )
      .execute(db);
  }
}
