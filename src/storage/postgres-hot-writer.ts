import type pg from 'pg';
import { isRetryableConflict, LaneScheduler, type LaneItem, type LaneOptions } from './lane-scheduler.js';
import { StorageUnavailableError } from './storage-errors.js';
import {
  columns,
  keyDoneParams,
  LEAD_ROW_FIELDS,
  leadInsertParams,
  leadInsertSql,
  numbered,
  quarantineInsertParams,
  scanInsertParams,
  SQL,
  type HotResult,
  type HotWrite,
  type HotWriter,
  type KeyDone,
  type KeyRow,
  type ResultOf,
} from './hot-writes.js';

interface Pending extends LaneItem {
  write: HotWrite;
  resolve: (result: HotResult) => void;
}

export interface PostgresHotWriterOptions extends LaneOptions {
  onCommit?: (batchSize: number, seconds: number) => void;
}

/** Scan bodies folded into one statement at most, in bytes; a batch holding more commits in several statements. */
const MAX_SCAN_BYTES_PER_STATEMENT = 8 * 1024 * 1024;

/** A write stored by a statement, and the idempotency key it answers (marked done only if the row was stored). */
type Done = KeyDone & { rowId: string };

/**
 * Marks the keys of the rows `stored` returned as done: parameters $n … $n+5, one array each. Two batches never lock
 * the same key rows (each key is claimed by one request), and each statement takes them in key order anyway.
 */
function keysDoneSql(n: number): string {
  return (
    "update idempotency_keys k set request_hash = d.h, state = 'done', response_status = d.st, response_body = d.b " +
    `from unnest($${n}::text[], $${n + 1}::text[], $${n + 2}::text[], $${n + 3}::int[], $${n + 4}::text[], $${n + 5}::text[]) as d(scope, key, h, st, b, row_id) ` +
    'where k.scope = d.scope and k.key = d.key and d.row_id in (select id from stored)'
  );
}

function keysDoneParams(done: Done[]): unknown[] {
  done.sort((a, b) => (a.scope === b.scope ? (a.key < b.key ? -1 : 1) : a.scope < b.scope ? -1 : 1));
  return columns(done, ['scope', 'key', 'requestHash', 'status', 'body', 'rowId']);
}

/** A batch of leads and their keys, one statement; named, so each connection parses and plans it once. */
const LEADS_STATEMENT = {
  name: 'leadscan_hot_leads',
  text: `with stored as (${leadInsertSql('postgres', true)}), done as (${keysDoneSql(LEAD_ROW_FIELDS.length + 1)}) select id from stored`,
};

const SCAN_INSERT_HEAD = SQL.scanInsert.slice(0, SQL.scanInsert.indexOf(' values '));
/** Parameters per scan row, as scanInsertParams gives them. */
const SCAN_PARAMS = SQL.scanInsert.split('?').length - 1;

/** `count` scans with their rooms and keys, one statement (the text depends only on `count`). */
function scansStatement(count: number): string {
  const rows = Array.from(
    { length: count },
    (_, r) => `(${Array.from({ length: SCAN_PARAMS }, (_, c) => `$${r * SCAN_PARAMS + c + 1}`).join(', ')})`,
  );
  const n = count * SCAN_PARAMS + 1;
  return (
    `with stored as (${SCAN_INSERT_HEAD} values ${rows.join(', ')} returning id), ` +
    'rooms as (insert into scan_rooms (scan_id, idx, name, raw, raw_start, raw_end) ' +
    `select r.scan_id, r.idx, r.name, ''::bytea, r.s, r.e from unnest($${n}::text[], $${n + 1}::int[], $${n + 2}::text[], $${n + 3}::int[], $${n + 4}::int[]) as r(scan_id, idx, name, s, e)), ` +
    `done as (${keysDoneSql(n + 5)}) select id from stored`
  );
}

/** `text` with `from` replaced once; throws at start-up if `from` is not there (the shared SQL changed shape). */
function replaceOnce(text: string, from: string, to: string): string {
  if (!text.includes(from)) throw new Error(`Statement does not contain ${from}`);
  return text.replace(from, () => to);
}

/**
 * A batch of idempotency claims, one statement: SQL.keyClaim (one row of values) made to take the batch's rows `c`,
 * each with its own lease cutoff, then, for each key it did not get, the row in the way as the statement's snapshot
 * saw it (none if it was committed meanwhile: the caller reads that as "in flight, try again"). Two claims of one key
 * in a batch make PostgreSQL refuse the statement (21000), and then each claim runs alone.
 */
function claimsSql(): string {
  const fromRows = replaceOnce(
    SQL.keyClaim,
    "values (?, ?, ?, 'in_flight', null, null, ?, ?)",
    "select c.scope, c.key, c.h, 'in_flight', null, null, c.created, c.expires from c",
  );
  // The one `?` left is the lease cutoff.
  const cutoffPerRow = replaceOnce(numbered(fromRows), '$1', '(select c.cutoff from c where c.scope = excluded.scope and c.key = excluded.key)');
  const upsert = replaceOnce(cutoffPerRow, 'returning scope', 'returning scope, key');
  return (
    'with c as (select * from unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::text[]) ' +
    `with ordinality as c(scope, key, h, created, expires, cutoff, i)), claimed as (${upsert}) ` +
    'select cl.key is not null as claimed, k.request_hash, k.state, k.response_status, k.response_body from c ' +
    'left join claimed cl on cl.scope = c.scope and cl.key = c.key ' +
    'left join idempotency_keys k on cl.key is null and k.scope = c.scope and k.key = c.key order by c.i'
  );
}

const CLAIMS_STATEMENT = { name: 'leadscan_hot_claims', text: claimsSql() };

const Q = {
  quarantineInsert: numbered(SQL.quarantineInsert),
  quarantinePruneOld: numbered(SQL.quarantinePruneOld),
  quarantineOldestKept: numbered(SQL.quarantineOldestKept),
  quarantinePruneBeyond: numbered(SQL.quarantinePruneBeyond),
  keyDone: numbered(SQL.keyDone),
};

/** A SQLSTATE that says something about this data (a constraint, a bad value), not about the server being gone. */
function isDataError(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !['08', '53', '57'].includes(code.slice(0, 2)) && !isRetryableConflict(error);
}

type Run = (writes: HotWrite[]) => Promise<HotResult[]>;

/**
 * Hot writes on PostgreSQL. A batch's leads, its scans and its idempotency claims are each folded into one statement
 * (data-modifying CTEs over unnest(…): the rows, a scan's rooms, the idempotency answers of the rows actually stored)
 * sent in autocommit: one round trip, and the statement is its own transaction, whose COMMIT has flushed
 * (synchronous_commit=on) before the answer arrives. Quarantine entries, which read before they write, run in a
 * BEGIN … COMMIT of their own. No savepoints: if a statement fails on the data, each of its writes runs again alone.
 * A write that loses a serialization conflict or a deadlock (40001, 40P01) is tried again after a short random wait.
 * The only rows two batches both lock are idempotency keys (each claimed by one request, taken in key order), so
 * lanes do not deadlock.
 */
export class PostgresHotWriter implements HotWriter {
  readonly stats = { commits: 0, writes: 0, largestBatch: 0 };
  private readonly lanes: LaneScheduler<Pending>;
  private closed = false;

  constructor(
    private readonly pool: pg.Pool,
    private readonly options: PostgresHotWriterOptions,
  ) {
    this.lanes = new LaneScheduler(options, (batch) => this.commit(batch));
  }

  write<W extends HotWrite>(write: W): Promise<ResultOf<W>> {
    if (this.closed) return Promise.reject(new StorageUnavailableError('The database writer is closed'));
    return new Promise<HotResult>((resolve, reject) => {
      this.lanes.push({ write, attempts: 0, resolve, reject });
    }) as Promise<ResultOf<W>>;
  }

  /** Nothing to start: batches borrow pooled connections as they come. */
  start(): void {}

  async close(): Promise<void> {
    this.closed = true;
    await this.lanes.whenIdle();
  }

  /** The batch's leads, claims, scans and quarantine entries commit side by side, each on a pooled connection. */
  private async commit(batch: Pending[]): Promise<void> {
    const leads: Pending[] = [];
    const claims: Pending[] = [];
    const scans: Pending[][] = [];
    const quarantine: Pending[] = [];
    let scanBytes = Infinity;
    for (const p of batch) {
      if (p.write.kind === 'lead') leads.push(p);
      else if (p.write.kind === 'claim') claims.push(p);
      else if (p.write.kind === 'quarantine') quarantine.push(p);
      else {
        const size = p.write.scan.raw.byteLength;
        if (scanBytes + size > MAX_SCAN_BYTES_PER_STATEMENT) {
          scans.push([]);
          scanBytes = 0;
        }
        scans.at(-1)!.push(p);
        scanBytes += size;
      }
    }
    await Promise.all([
      leads.length > 0 && this.settle(leads, (writes) => this.storeLeads(writes)),
      claims.length > 0 && this.settle(claims, (writes) => this.claim(writes)),
      ...scans.map((part) => this.settle(part, (writes) => this.storeScans(writes))),
      quarantine.length > 0 && this.settle(quarantine, (writes) => this.storeQuarantine(writes)),
    ]);
  }

  /** Runs `part`, resolving each write with its result, or finds the write at fault and fails it alone. */
  private async settle(part: Pending[], run: Run): Promise<void> {
    const started = performance.now();
    let results: HotResult[];
    try {
      results = await run(part.map((p) => p.write));
    } catch (error) {
      if (part.length > 1 && isDataError(error)) {
        await Promise.all(part.map((p) => this.settle([p], run)));
        return;
      }
      for (const p of part) this.lanes.retryOrReject(p, error);
      return;
    }
    this.stats.commits += 1;
    this.stats.writes += part.length;
    this.stats.largestBatch = Math.max(this.stats.largestBatch, part.length);
    this.options.onCommit?.(part.length, (performance.now() - started) / 1000);
    part.forEach((p, i) => p.resolve(results[i]!));
  }

  private async storeLeads(writes: HotWrite[]): Promise<HotResult[]> {
    const leads = writes.flatMap((w) => (w.kind === 'lead' ? [w] : []));
    const done = leads.flatMap((w) => (w.done ? [{ ...w.done, rowId: w.lead.id }] : []));
    const stored = await this.pool.query<{ id: string }>({
      ...LEADS_STATEMENT,
      values: [...leadInsertParams('postgres', leads.map((w) => ({ ...w.lead, restored_from: null }))), ...keysDoneParams(done)],
    });
    const ids = new Set(stored.rows.map((r) => r.id));
    return leads.map((w) => ({ kind: 'stored', stored: ids.has(w.lead.id) }));
  }

  private async claim(writes: HotWrite[]): Promise<HotResult[]> {
    const claims = writes.flatMap((w) => (w.kind === 'claim' ? [w.claim] : []));
    const { rows } = await this.pool.query<KeyRow & { claimed: boolean }>({
      ...CLAIMS_STATEMENT,
      values: columns(claims, ['scope', 'key', 'requestHash', 'createdAt', 'expiresAt', 'leaseCutoff']),
    });
    // One row per claim, in the batch's order (the left joins match at most one row each: (scope, key) is unique).
    return rows.map(({ claimed, ...row }) => (claimed ? { kind: 'claimed' } : { kind: 'existing', row: row.state === null ? null : row }));
  }

  private async storeScans(writes: HotWrite[]): Promise<HotResult[]> {
    const scans = writes.flatMap((w) => (w.kind === 'scan' ? [w] : []));
    const rooms = scans.flatMap((w) => w.rooms.map((room, idx) => ({ ...room, idx, scanId: w.scan.id })));
    const done = scans.flatMap((w) => (w.done ? [{ ...w.done, rowId: w.scan.id }] : []));
    // The body goes as a binary parameter: its bytes as they are, no hex text twice the size.
    const values = scans.flatMap((w) => {
      const raw = w.scan.raw;
      return scanInsertParams({ ...w.scan, raw: Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength) });
    });
    await this.pool.query(scansStatement(scans.length), [
      ...values,
      ...columns(rooms, ['scanId', 'idx', 'name', 'start', 'end']),
      ...keysDoneParams(done),
    ]);
    return scans.map(() => ({ kind: 'stored', stored: true }));
  }

  /** Quarantine entries read (what to prune) after they write: a transaction of their own. */
  private async storeQuarantine(writes: HotWrite[]): Promise<HotResult[]> {
    const client = await this.pool.connect();
    let broken: unknown;
    try {
      await client.query('begin');
      try {
        const results = await this.quarantine(client, writes);
        await client.query('commit');
        return results;
      } catch (error) {
        await client.query('rollback').catch((rollbackError: unknown) => (broken = rollbackError));
        throw error;
      }
    } finally {
      client.release(broken instanceof Error ? broken : undefined);
    }
  }

  private async quarantine(client: pg.PoolClient, writes: HotWrite[]): Promise<HotResult[]> {
    const results: HotResult[] = [];
    const done: KeyDone[] = [];
    for (const write of writes) {
      if (write.kind === 'quarantine') {
        const { row, cutoff, keep } = write;
        const inserted = await client.query(Q.quarantineInsert, quarantineInsertParams(row));
        if (!inserted.rowCount) {
          results.push({ kind: 'stored', stored: false });
          continue;
        }
        await client.query(Q.quarantinePruneOld, [row.source_id, cutoff]);
        const oldest = await client.query<{ received_at: string; id: string }>(Q.quarantineOldestKept, [row.source_id, keep - 1]);
        const kept = oldest.rows[0];
        if (kept) await client.query(Q.quarantinePruneBeyond, [row.source_id, kept.received_at, kept.received_at, kept.id]);
        if (write.done) done.push(write.done);
        results.push({ kind: 'stored', stored: true });
      } else {
        throw new Error(`A ${write.kind} write is not a quarantine entry`);
      }
    }
    // In key order: two transactions never wait on each other's keys the other way round.
    done.sort((a, b) => (a.scope === b.scope ? (a.key < b.key ? -1 : 1) : a.scope < b.scope ? -1 : 1));
    for (const d of done) await client.query(Q.keyDone, keyDoneParams(d));
    return results;
  }
}
