/**
 * The hot writes: the few row writes every intake post and scan upload makes, described as plain data so they can
 * be posted to the SQLite writer thread or folded into multi-row PostgreSQL statements, instead of closures over a
 * transaction. Everything else writes through the generic `writer.write(trx => …)`.
 *
 * This module is shared by the main thread and the SQLite writer worker: no Kysely, no pg, no domain imports.
 */
import type { Dialect } from './dialect.js';
import type { LeadTable, QuarantineTable, ScanTable } from './schema.js';

/**
 * A lead as posted: the leads columns less those the insert takes from the lead_sources row it is guarded by
 * (workspace_id and pipeline_id are the source's; stage is its pipeline's first). `pipeline_id` here is the pipeline
 * the caller saw the source in: the insert is refused if the source moved since.
 */
export type LeadRow = Omit<LeadTable, 'workspace_id' | 'stage' | 'restored_from'>;

/**
 * THE leads INSERT, for every path that makes a lead (intake and quarantine restore, both backends): the column
 * and the SQL expression it is set to, where `v.` is the posted row (LeadRow) and `s.` the lead_sources row.
 * Adding a column is one line here.
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
] as const;

export type LeadInsertValues = LeadRow & Pick<LeadTable, 'restored_from'>;

/**
 * The guarded leads INSERT for `rows` rows. `guarded`: only while the source is still active and still in the
 * pipeline the caller saw (intake); a restore inserts into the source's current pipeline whatever its state.
 * SQLite takes one row (`?` parameters, prepared once); PostgreSQL takes arrays, one per field, through unnest.
 */
export function leadInsertSql(dialect: Dialect, guarded: boolean): string {
  const columns = LEAD_INSERT_COLUMNS.map(([c]) => c).join(', ');
  const expressions = LEAD_INSERT_COLUMNS.map(([, e]) => e).join(', ');
  const guard = guarded ? ' and s.active = 1 and s.pipeline_id = v.pipeline_id' : '';
  const source =
    dialect === 'sqlite'
      ? `(select ${LEAD_ROW_FIELDS.map((f) => `? as ${f}`).join(', ')}) v`
      : `unnest(${LEAD_ROW_FIELDS.map((_, i) => `$${i + 1}::text[]`).join(', ')}) as v(${LEAD_ROW_FIELDS.join(', ')})`;
  return `insert into leads (${columns}) select ${expressions} from ${source} join lead_sources s on s.id = v.source_id${guard} returning id`;
}

/** Parameters of leadInsertSql for SQLite (one row) or PostgreSQL (one array per field). */
export function leadInsertParams(dialect: Dialect, rows: readonly LeadInsertValues[]): unknown[] {
  if (dialect === 'sqlite') return LEAD_ROW_FIELDS.map((f) => rows[0]![f]);
  return columns(rows, LEAD_ROW_FIELDS);
}

/** One array per field, in the order of `fields`: PostgreSQL parameters for `unnest(…)`. */
export function columns<T, K extends keyof T>(rows: readonly T[], fields: readonly K[]): Array<Array<T[K]>> {
  return fields.map((f) => rows.map((r) => r[f]));
}

/** A quarantine entry as caught; restored_lead_id is set only when it is restored. */
export type QuarantineRow = Omit<QuarantineTable, 'restored_lead_id'>;

/** A scan as uploaded; `raw` is any byte view (the SQLite writer thread receives it transferred). */
export type ScanRow = Omit<ScanTable, 'raw'> & { raw: Uint8Array };

/** A room: its listed name and its byte range [start, end) of the scan's raw body. */
export interface RoomRow {
  name: string;
  start: number;
  end: number;
}

/** Marks an idempotency key done with its result, in the same transaction as the rows it answers for. */
export interface KeyDone {
  scope: string;
  key: string;
  requestHash: string;
  /** response_status: null since keys keep domain results (records from before held an HTTP status). */
  status: number | null;
  /** response_body: the result as JSON text. */
  body: string;
}

export interface KeyClaim {
  scope: string;
  key: string;
  requestHash: string;
  createdAt: string;
  expiresAt: string;
  /** An in_flight row created at or before this is abandoned and taken over. */
  leaseCutoff: string;
}

export interface KeyRow {
  request_hash: string;
  state: string;
  response_status: number | null;
  response_body: string | null;
}

export type HotWrite =
  | { kind: 'lead'; lead: LeadRow; done: KeyDone | null }
  | { kind: 'quarantine'; row: QuarantineRow; cutoff: string; keep: number; done: KeyDone | null }
  | { kind: 'scan'; scan: ScanRow; rooms: RoomRow[]; done: KeyDone | null }
  | { kind: 'claim'; claim: KeyClaim };

/** lead/quarantine: `stored` is false when the source was closed (or moved) meanwhile. claim: the row in the way. */
export type HotResult =
  | { kind: 'stored'; stored: boolean }
  | { kind: 'claimed' }
  | { kind: 'existing'; row: KeyRow | null };

export type ResultOf<W extends HotWrite> = W extends { kind: 'claim' }
  ? Extract<HotResult, { kind: 'claimed' | 'existing' }>
  : Extract<HotResult, { kind: 'stored' }>;

/** The data-only write path, one per database handle. */
export interface HotWriter {
  /** Resolves after the COMMIT that holds the write; rejects alone if the write failed, or all in flight on a crash. */
  write<W extends HotWrite>(write: W): Promise<ResultOf<W>>;
  readonly stats: { commits: number; writes: number; largestBatch: number };
  /** Gets ready before the first write (the server calls it once it listens); a no-op where nothing needs starting. */
  start(): void;
  close(): Promise<void>;
}

/** Statements shared by both executors (SQLite `?`, PostgreSQL `$n` after numbering). */
export const SQL = {
  quarantineInsert:
    'insert into quarantine (id, workspace_id, source_id, reason, fields, received_at, client_ip, user_agent, origin, referer, idempotency_key, restored_lead_id) ' +
    'select ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, null where exists (select 1 from lead_sources where id = ? and active = 1)',
  quarantinePruneOld: 'delete from quarantine where source_id = ? and received_at < ?',
  quarantineOldestKept:
    'select received_at, id from quarantine where source_id = ? order by received_at desc, id desc limit 1 offset ?',
  quarantinePruneBeyond:
    'delete from quarantine where source_id = ? and (received_at < ? or (received_at = ? and id < ?))',
  scanInsert:
    'insert into scans (id, workspace_id, received_at, room_count, byte_size, user_agent, raw, idempotency_key) values (?, ?, ?, ?, ?, ?, ?, ?)',
  roomInsert: "insert into scan_rooms (scan_id, idx, name, raw, raw_start, raw_end) values (?, ?, ?, x'', ?, ?)",
  keyDone:
    "update idempotency_keys set request_hash = ?, state = 'done', response_status = ?, response_body = ? where scope = ? and key = ?",
  keyClaim:
    "insert into idempotency_keys (scope, key, request_hash, state, response_status, response_body, created_at, expires_at) values (?, ?, ?, 'in_flight', null, null, ?, ?) " +
    'on conflict (scope, key) do update set request_hash = excluded.request_hash, state = excluded.state, response_status = null, ' +
    'response_body = null, created_at = excluded.created_at, expires_at = excluded.expires_at ' +
    "where idempotency_keys.expires_at <= excluded.created_at or (idempotency_keys.state = 'in_flight' and idempotency_keys.created_at <= ?) " +
    'returning scope',
  keyRead: 'select request_hash, state, response_status, response_body from idempotency_keys where scope = ? and key = ?',
} as const;

/** `?` → `$1, $2, …` for PostgreSQL. */
export function numbered(text: string): string {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}

export function keyDoneParams(done: KeyDone): unknown[] {
  return [done.requestHash, done.status, done.body, done.scope, done.key];
}

export function keyClaimParams(c: KeyClaim): unknown[] {
  return [c.scope, c.key, c.requestHash, c.createdAt, c.expiresAt, c.leaseCutoff];
}

export function quarantineInsertParams(r: QuarantineRow): unknown[] {
  return [r.id, r.workspace_id, r.source_id, r.reason, r.fields, r.received_at, r.client_ip, r.user_agent, r.origin, r.referer, r.idempotency_key, r.source_id];
}

export function scanInsertParams(s: ScanRow): unknown[] {
  return [s.id, s.workspace_id, s.received_at, s.room_count, s.byte_size, s.user_agent, s.raw, s.idempotency_key];
}
