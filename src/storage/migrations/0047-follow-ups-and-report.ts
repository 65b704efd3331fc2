import { sql, type Kysely, type Migration } from 'kysely';
import type { Dialect } from '../dialect.js';

/**
 * Follow-ups and the report of what wins (docs/quotes.md, "Follow-ups" and "What wins"):
 *
 * - `workspaces` gain the follow-up settings: `follow_up_days` (the sender is reminded after this many days without
 *   an answer; null is off; 3 unless chosen), `customer_reminder_days` (JSON, up to two days after the send, `[]` is
 *   off) and `invoice_reminder_days` (JSON, up to three days after an invoice's due date, `[]` is off).
 * - `reminders`: every reminder queued, once. Its key is (kind, subject, ordinal): a quote revision's sender reminder,
 *   its first or second customer reminder, an invoice's first to third. The row is inserted in the transaction that
 *   queues the email, so of two instances that both find a reminder due, the second meets the unique index and
 *   queues nothing. A customer reminder keeps the SHA-256 of its stop link's token; `stopped_at` is set when the
 *   customer uses it (every later reminder of the quote is then skipped).
 * - `quotes_open_sent`: the job's look at the open sent revisions of the last weeks (partial, like
 *   `quotes_workspace_open_created`, so it stays the size of what awaits an answer).
 * - `quote_outcomes`: one row per quote (chain) once sent, what the report counts: its first send (the instant and
 *   the day in the workspace's time zone), the lead's source and campaign, the latest sent revision's currency and
 *   total, and its outcome (open, accepted, declined, withdrawn) with the calendar days to the answer. The quote
 *   verbs rewrite it in their own transactions (quotes/quote-outcome.ts); it goes with its lead.
 * - `quote_report_months`: the same counted per workspace, month of first send, source, campaign, currency and days
 *   to an answer (-1: none), kept by triggers on `quote_outcomes` in the statement that changes it, so a deletion by
 *   any path (a lead deleted or erased, retention, a source or workspace removed) takes its quotes out of the
 *   counts. A report of whole months reads these rows instead of every quote (docs/performance.md, "The report").
 *   `''` stands for no campaign: a unique key treats NULLs as distinct on PostgreSQL.
 *
 * Quotes sent before this migration are counted from their rows (the days in each workspace's time zone of now).
 */
export function followUpsAndReport(dialect: Dialect): Migration {
  return {
    async up(db: Kysely<unknown>) {
      await db.schema
        .alterTable('workspaces')
        .addColumn('follow_up_days', 'integer', (c) => c.defaultTo(3))
        .execute();
      await db.schema
        .alterTable('workspaces')
        .addColumn('customer_reminder_days', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();
      await db.schema
        .alterTable('workspaces')
        .addColumn('invoice_reminder_days', 'text', (c) => c.notNull().defaultTo('[]'))
        .execute();

      await db.schema
        .createTable('reminders')
        .addColumn('id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('kind', 'text', (c) => c.notNull())
        .addColumn('subject_id', 'text', (c) => c.notNull())
        .addColumn('ordinal', 'integer', (c) => c.notNull())
        .addColumn('quote_id', 'text', (c) => c.references('quotes.id').onDelete('cascade'))
        .addColumn('chain_id', 'text')
        .addColumn('outbox_id', 'text')
        .addColumn('stop_token_hash', 'text')
        .addColumn('stopped_at', 'text')
        .addColumn('created_at', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('reminders_key')
        .on('reminders')
        .columns(['kind', 'subject_id', 'ordinal'])
        .unique()
        .execute();
      await db.schema.createIndex('reminders_stop_token').on('reminders').column('stop_token_hash').unique().execute();
      await db.schema.createIndex('reminders_chain').on('reminders').columns(['chain_id', 'stopped_at']).execute();
      await db.schema.createIndex('reminders_quote').on('reminders').column('quote_id').execute();
      await db.schema
        .createIndex('quotes_open_sent')
        .on('quotes')
        .column('sent_at')
        .where(sql<boolean>`status in ('sent', 'viewed')`)
        .execute();

      await db.schema
        .createTable('quote_outcomes')
        .addColumn('chain_id', 'text', (c) => c.primaryKey())
        .addColumn('workspace_id', 'text', (c) => c.notNull().references('workspaces.id').onDelete('cascade'))
        .addColumn('lead_id', 'text', (c) => c.notNull().references('leads.id').onDelete('cascade'))
        .addColumn('quote_id', 'text', (c) => c.notNull())
        .addColumn('source_id', 'text', (c) => c.notNull())
        .addColumn('utm_source', 'text')
        .addColumn('utm_campaign', 'text')
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('value', 'bigint', (c) => c.notNull())
        .addColumn('first_sent_at', 'text', (c) => c.notNull())
        .addColumn('first_sent_day', 'text', (c) => c.notNull())
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('answered_at', 'text')
        .addColumn('answer_days', 'integer')
        .execute();
      await db.schema
        .createIndex('quote_outcomes_workspace_day')
        .on('quote_outcomes')
        .columns(['workspace_id', 'first_sent_day'])
        .execute();
      await db.schema.createIndex('quote_outcomes_lead').on('quote_outcomes').column('lead_id').execute();

      await db.schema
        .createTable('quote_report_months')
        .addColumn('workspace_id', 'text', (c) => c.notNull())
        .addColumn('month', 'text', (c) => c.notNull())
        .addColumn('source_id', 'text', (c) => c.notNull())
        .addColumn('utm_source', 'text', (c) => c.notNull())
        .addColumn('utm_campaign', 'text', (c) => c.notNull())
        .addColumn('currency', 'text', (c) => c.notNull())
        .addColumn('answer_days', 'integer', (c) => c.notNull())
        .addColumn('sent', 'integer', (c) => c.notNull())
        .addColumn('accepted', 'integer', (c) => c.notNull())
        .addColumn('declined', 'integer', (c) => c.notNull())
        .addColumn('value_sent', 'bigint', (c) => c.notNull())
        .addColumn('value_won', 'bigint', (c) => c.notNull())
        .addPrimaryKeyConstraint('quote_report_months_pk', [
          'workspace_id',
          'month',
          'source_id',
          'utm_source',
          'utm_campaign',
          'currency',
          'answer_days',
        ])
        .execute();
      if (dialect === 'sqlite') await sqliteTriggers(db);
      else await postgresTriggers(db);

      await backfillOutcomes(db);
    },
  };
}

/** A row's key and counts in `quote_report_months`, as SQL over `row` (`new`, `old`, or a transition table's alias). */
function contribution(row: string) {
  const accepted = `case when ${row}.outcome = 'accepted' then 1 else 0 end`;
  return {
    key: [
      `${row}.workspace_id`,
      `substr(${row}.first_sent_day, 1, 7)`,
      `${row}.source_id`,
      `coalesce(${row}.utm_source, '')`,
      `coalesce(${row}.utm_campaign, '')`,
      `${row}.currency`,
      `coalesce(${row}.answer_days, -1)`,
    ],
    counts: [
      '1',
      accepted,
      `case when ${row}.outcome = 'declined' then 1 else 0 end`,
      `${row}.value`,
      `case when ${row}.outcome = 'accepted' then ${row}.value else 0 end`,
    ],
  };
}

const KEY = ['workspace_id', 'month', 'source_id', 'utm_source', 'utm_campaign', 'currency', 'answer_days'];
const COUNTS = ['sent', 'accepted', 'declined', 'value_sent', 'value_won'];

/**
 * SQLite: a row trigger per change. Adding upserts; taking away only updates the row (it exists: it was added) and
 * deletes it once it counts nothing, so a cascade that removes a workspace never inserts a row for it.
 */
async function sqliteTriggers(db: Kysely<unknown>) {
  const add = (row: string) => {
    const c = contribution(row);
    return `insert into quote_report_months (${KEY.join(', ')}, ${COUNTS.join(', ')})
      values (${c.key.join(', ')}, ${c.counts.join(', ')})
      on conflict (${KEY.join(', ')}) do update set ${COUNTS.map((n) => `${n} = ${n} + excluded.${n}`).join(', ')};`;
  };
  const takeAway = (row: string) => {
    const c = contribution(row);
    const where = `(${KEY.join(', ')}) = (${c.key.join(', ')})`;
    return (
      `update quote_report_months set ${COUNTS.map((n, i) => `${n} = ${n} - (${c.counts[i]})`).join(', ')} ` +
      `where ${where};
      delete from quote_report_months where ${where} and sent = 0;`
    );
  };
  const triggers = [
    ['quote_outcomes_count_insert', 'insert', add('new')],
    ['quote_outcomes_count_delete', 'delete', takeAway('old')],
    ['quote_outcomes_count_update', 'update', `${takeAway('old')} ${add('new')}`],
  ];
  for (const [name, on, body] of triggers) {
    await sql.raw(`create trigger ${name} after ${on} on quote_outcomes begin ${body} end`).execute(db);
  }
}

/**
 * PostgreSQL: one statement per statement on `quote_outcomes` (a retention run deletes many at once), its changes
 * summed per key and applied in key order, so two transactions take the rows' locks in the same order. Taking away
 * only updates rows (they exist) and deletes those that count nothing, as on SQLite.
 */
async function postgresTriggers(db: Kysely<unknown>) {
  const changes = (table: string, sign: 1 | -1) => {
    const c = contribution('r');
    const sums = c.counts.map((count, i) => `sum(${sign} * (${count})) as ${COUNTS[i]}`).join(', ');
    return (
      `select ${c.key.map((k, i) => `${k} as ${KEY[i]}`).join(', ')}, ${sums} ` +
      `from ${table} r group by ${KEY.map((_k, i) => i + 1).join(', ')}`
    );
  };
  const keyOf = (alias: string) => `(${KEY.map((k) => `${alias}.${k}`).join(', ')})`;
  const add = (table: string) =>
    `insert into quote_report_months (${KEY.join(', ')}, ${COUNTS.join(', ')})
      select * from (${changes(table, 1)}) s order by ${KEY.join(', ')}
      on conflict (${KEY.join(', ')}) ` +
    `do update set ${COUNTS.map((n) => `${n} = quote_report_months.${n} + excluded.${n}`).join(', ')}`;
  const takeAway = (table: string) =>
    `update quote_report_months m set ${COUNTS.map((n) => `${n} = m.${n} + s.${n}`).join(', ')}
      from (${changes(table, -1)}) s where ${keyOf('m')} = ${keyOf('s')};
      delete from quote_report_months m using (${changes(table, -1)}) s ` +
    `where ${keyOf('m')} = ${keyOf('s')} and m.sent = 0`;
  const triggers = [
    { name: 'quote_outcomes_count_insert', on: 'insert', tables: 'new table as added', body: add('added') },
    { name: 'quote_outcomes_count_delete', on: 'delete', tables: 'old table as removed', body: takeAway('removed') },
    {
      name: 'quote_outcomes_count_update',
      on: 'update',
      tables: 'old table as removed new table as added',
      body: `${takeAway('removed')}; ${add('added')}`,
    },
  ];
  for (const t of triggers) {
    await sql
      .raw(`create function ${t.name}() returns trigger language plpgsql as $$ begin ${t.body}; return null; end $$`)
      .execute(db);
    await sql
      .raw(
        `create trigger ${t.name} after ${t.on} on quote_outcomes referencing ${t.tables} ` +
          `for each statement execute function ${t.name}()`,
      )
      .execute(db);
  }
}

interface SentRevision {
  id: string;
  chain_id: string;
  workspace_id: string;
  lead_id: string;
  revision: number;
  status: string;
  currency: string;
  total: number | string;
  sent_at: string;
  accepted_at: string | null;
  declined_at: string | null;
  source_id: string;
  utm_source: string | null;
  utm_campaign: string | null;
  time_zone: string | null;
}

/** The date of an instant in a time zone (as of this migration; quotes/quote-outcome.ts is the rule the verbs use). */
function dayIn(iso: string, timeZone: string): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(
    new Date(iso),
  );
}

const daysBetween = (from: string, to: string) =>
  Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/** Every quote sent before this migration, counted once: its first send, its latest sent revision's outcome. */
export async function backfillOutcomes(db: Kysely<unknown>) {
  const { rows } = await sql<SentRevision>`
    select q.id, q.chain_id, q.workspace_id, q.lead_id, q.revision, q.status, q.currency, q.total, q.sent_at,
      q.accepted_at, q.declined_at, l.source_id, l.utm_source, l.utm_campaign, w.time_zone
    from quotes q join leads l on l.id = q.lead_id join workspaces w on w.id = q.workspace_id
    where q.sent_at is not null order by q.chain_id, q.revision`.execute(db);
  const chains = new Map<string, SentRevision[]>();
  for (const row of rows) chains.set(row.chain_id, [...(chains.get(row.chain_id) ?? []), row]);
  for (const [chainId, revisions] of chains) {
    const first = revisions[0]!;
    const latest = revisions.at(-1)!;
    const zone = first.time_zone ?? 'UTC';
    const firstDay = dayIn(first.sent_at, zone);
    const answeredAt =
      latest.status === 'accepted' ? latest.accepted_at : latest.status === 'declined' ? latest.declined_at : null;
    const outcome = ['accepted', 'declined', 'withdrawn'].includes(latest.status) ? latest.status : 'open';
    const answerDays = answeredAt === null ? null : daysBetween(firstDay, dayIn(answeredAt, zone));
    await sql`insert into quote_outcomes (chain_id, workspace_id, lead_id, quote_id, source_id,
        utm_source, utm_campaign, currency, value, first_sent_at, first_sent_day, outcome, answered_at, answer_days)
      values (${chainId}, ${first.workspace_id}, ${first.lead_id}, ${latest.id}, ${first.source_id},
        ${first.utm_source}, ${first.utm_campaign}, ${latest.currency}, ${Number(latest.total)}, ${first.sent_at},
        ${firstDay}, ${outcome}, ${answeredAt}, ${answerDays})`.execute(db);
  }
}
