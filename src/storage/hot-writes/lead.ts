/** The lead INSERT, the one every path that makes a lead uses: intake on both databases, and quarantine restore. */
import { CompiledQuery, type Transaction } from 'kysely';
import type { Dialect } from '../dialect.js';
import type { LeadTable, Schema } from '../schema.js';
import { searchDocument } from '../search-text.js';
import { columns, Markers, rowsOf, type Field } from './sql-parts.js';

/**
 * A lead as posted: the leads columns less those the insert takes from the lead_sources row it is guarded by
 * (workspace_id and pipeline_id are the source's; stage is its pipeline's first). `pipeline_id` here is the pipeline
 * the caller saw the source in: the insert is refused if the source moved since.
 */
export type LeadRow = Omit<LeadTable, 'workspace_id' | 'stage' | 'restored_from'>;

export type LeadInsertValues = LeadRow & Pick<LeadTable, 'restored_from'>;

/**
 * The leads columns and the SQL expression each is set to, where `v.` is the posted row (LeadInsertValues) and `s.`
 * the lead_sources row. Adding a column is one line here (and its field below).
 */
export const LEAD_INSERT_COLUMNS: ReadonlyArray<readonly [column: string, expression: string]> = [
  ['id', 'v.id'],
  ['workspace_id', 's.workspace_id'],
  ['pipeline_id', 's.pipeline_id'],
  ['source_id', 's.id'],
  // The first stage is the pipeline's Leads inbox (docs/admin-app.md); a pipeline always has one.
  ['stage', '(select st.key from stages st where st.pipeline_id = s.pipeline_id order by st.position limit 1)'],
  ['name', 'v.name'],
  ['phone', 'v.phone'],
  ['email', 'v.email'],
  ['address', 'v.address'],
  ['notes', 'v.notes'],
  ['extra', 'v.extra'],
  ['received_at', 'v.received_at'],
  ['client_ip', 'v.client_ip'],
  ['user_agent', 'v.user_agent'],
  ['origin', 'v.origin'],
  ['referer', 'v.referer'],
  ['bot_check', 'v.bot_check'],
  ['idempotency_key', 'v.idempotency_key'],
  ['restored_from', 'v.restored_from'],
  ['email_key', 'v.email_key'],
  ['phone_key', 'v.phone_key'],
  ['page_url', 'v.page_url'],
  ['utm_source', 'v.utm_source'],
  ['utm_medium', 'v.utm_medium'],
  ['utm_campaign', 'v.utm_campaign'],
  ['gclid', 'v.gclid'],
  ['fbclid', 'v.fbclid'],
];

/** The posted fields, in parameter order (every `v.` field is text). */
export const LEAD_ROW_FIELDS = [
  'id',
  'source_id',
  'pipeline_id',
  'name',
  'phone',
  'email',
  'address',
  'notes',
  'extra',
  'received_at',
  'client_ip',
  'user_agent',
  'origin',
  'referer',
  'bot_check',
  'idempotency_key',
  'restored_from',
  'email_key',
  'phone_key',
  'page_url',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'gclid',
  'fbclid',
] as const satisfies ReadonlyArray<keyof LeadInsertValues>;

const FIELDS: readonly Field[] = LEAD_ROW_FIELDS.map((name) => [name, 'text'] as const);

/**
 * PostgreSQL also stores the lead's search document (search-text.ts), computed here from the posted fields, into
 * `lead_search_pending` (migration 0025: off the trigram index, which the search mover fills in batches); SQLite's
 * search index thread computes it off the write path instead.
 */
const PG_SEARCH_TEXT: Field = ['search_text', 'text'];

function insertFrom(rows: string, guarded: boolean): string {
  const columns = LEAD_INSERT_COLUMNS.map(([c]) => c).join(', ');
  const expressions = LEAD_INSERT_COLUMNS.map(([, e]) => e).join(', ');
  const guard = guarded ? ' and s.active = 1 and s.pipeline_id = v.pipeline_id' : '';
  return (
    `insert into leads (${columns}) select ${expressions} ` +
    `from ${rows} join lead_sources s on s.id = v.source_id${guard} returning id`
  );
}

/**
 * PostgreSQL: the lead INSERT as common table expressions, for a statement that goes on with more of them (the
 * intake batch also marks its idempotency keys done): `stored` holds the ids stored, and each stored lead's search
 * document goes into `lead_search_pending` in the same statement. Data-changing CTEs must stand at the top level
 * of a statement, so this is the list, not a statement.
 */
export function leadInsertCtes(m: Markers, { guarded }: { guarded: boolean }): string {
  if (m.dialect !== 'postgres') throw new Error('leadInsertCtes: PostgreSQL only');
  return (
    `v as materialized (select * from ${rowsOf(m, 'v', [...FIELDS, PG_SEARCH_TEXT])}), ` +
    `stored as (${insertFrom('v', guarded)}), ` +
    'searched as (insert into lead_search_pending (lead_id, search_text) ' +
    'select v.id, v.search_text from v join stored on stored.id = v.id)'
  );
}

/**
 * The leads INSERT over the posted rows (one on SQLite, any number on PostgreSQL; see rowsOf), returning the ids it
 * stored. `guarded`: only while the source is still active and still in the pipeline the caller saw (intake); a
 * restore inserts into the source's current pipeline whatever its state.
 */
export function leadInsert(m: Markers, { guarded }: { guarded: boolean }): string {
  if (m.dialect === 'postgres') return `with ${leadInsertCtes(m, { guarded })} select id from stored`;
  return insertFrom(rowsOf(m, 'v', FIELDS), guarded);
}

/** Parameters of leadInsert: the one row's values (SQLite), or one array per field (PostgreSQL). */
export function leadInsertParams(dialect: Dialect, rows: readonly LeadInsertValues[]): unknown[] {
  // An optional column (page_url, the marketing parameters) left out of a row is stored as null.
  if (dialect === 'sqlite') return LEAD_ROW_FIELDS.map((f) => rows[0]![f] ?? null);
  return [...columns(rows, LEAD_ROW_FIELDS).map((values) => values.map((v) => v ?? null)), rows.map(searchDocument)];
}

/**
 * Inserts one lead inside a generic write (restoring a quarantined submission) with the very INSERT the hot path
 * uses, unguarded: into the source's current pipeline, active or not. How many rows it stored (0: no such source).
 */
export async function insertLeadInWrite(
  trx: Transaction<Schema>,
  dialect: Dialect,
  values: LeadInsertValues,
): Promise<number> {
  const insert = leadInsert(new Markers(dialect), { guarded: false });
  const inserted = await trx.executeQuery(CompiledQuery.raw(insert, leadInsertParams(dialect, [values])));
  return inserted.rows.length;
}
