import type pg from 'pg';
import { isRetryableConflict, LaneScheduler, type LaneItem, type LaneOptions } from './lane-scheduler.js';
import { StorageUnavailableError } from './storage-errors.js';
import type { HotResult, HotWrite, HotWriter, ResultOf } from './hot-writes.js';
import {
  keyClaims,
  keyClaimsParams,
  keyDone,
  keyDoneParams,
  keysDoneIn,
  keysDoneParams,
  type KeyDone,
  type KeyDoneFor,
  type KeyRow,
} from './hot-writes/idempotency-key.js';
import { leadInsertCtes, leadInsertParams, type LeadRow } from './hot-writes/lead.js';
import {
  quarantineInsert,
  quarantineInsertParams,
  quarantineOldestKept,
  quarantinePruneBeyond,
  quarantinePruneBeyondParams,
  quarantinePruneOld,
} from './hot-writes/quarantine.js';
import { roomInsert, roomsParams, scanInsert, scanInsertParams } from './hot-writes/scan.js';
import { Markers, statementsFor } from './hot-writes/sql-parts.js';

interface Pending extends LaneItem {
  write: HotWrite;
  resolve: (result: HotResult) => void;
}

export interface PostgresHotWriterOptions extends LaneOptions {
  onCommit?: (batchSize: number, seconds: number) => void;
}

/** Scan bodies folded into one statement at most, in bytes; a batch holding more commits in several statements. */
const MAX_SCAN_BYTES_PER_STATEMENT = 8 * 1024 * 1024;

/**
 * A batch of leads and the idempotency keys of those stored, one statement; named, so each connection parses and
 * plans it once. Parameters: the leads' arrays, then the keys'.
 */
function leadsStatement(): { name: string; text: string } {
  const m = new Markers('postgres');
  return {
    name: 'leadscan_hot_leads',
    text: `with ${leadInsertCtes(m, { guarded: true })}, done as (${keysDoneIn(m, 'stored')}) select id from stored`,
  };
}

export const LEADS_STATEMENT = leadsStatement();

/** LEADS_STATEMENT's parameters: the leads' arrays, then the idempotency keys they answer. */
export function leadsStatementParams(leads: readonly LeadRow[], done: readonly KeyDoneFor[]): unknown[] {
  return [
    ...leadInsertParams(
      'postgres',
      leads.map((lead) => ({ ...lead, restored_from: null })),
    ),
    ...keysDoneParams([...done]),
  ];
}

/**
 * `count` scans with their rooms and the keys they answer, one statement (the text depends only on `count`).
 * Parameters: each scan's in turn, the rooms' arrays, then the keys'.
 */
function scansStatement(count: number): string {
  const m = new Markers('postgres');
  return (
    `with stored as (${scanInsert(m, count)} returning id), rooms as (${roomInsert(m)}), ` +
    `done as (${keysDoneIn(m, 'stored')}) select id from stored`
  );
}

/** A batch of idempotency claims, one statement (keyClaims). */
const CLAIMS_STATEMENT = { name: 'leadscan_hot_claims', text: keyClaims(new Markers('postgres')) };

/** The quarantine transaction's statements, one row each. */
const Q = statementsFor('postgres', {
  quarantineInsert,
  quarantinePruneOld,
  quarantineOldestKept,
  quarantinePruneBeyond,
  keyDone,
});

/** A SQLSTATE that says something about this data (a constraint, a bad value), not about the server being gone. */
function isDataError(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return (
    typeof code === 'string' &&
    /^[0-9A-Z]{5}$/.test(code) &&
    !['08', '53', '57'].includes(code.slice(0, 2)) &&
    !isRetryableConflict(error)
  );
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
    const done = leads.flatMap((w): KeyDoneFor[] => (w.done ? [{ ...w.done, rowId: w.lead.id }] : []));
    const stored = await this.pool.query<{ id: string }>({
      ...LEADS_STATEMENT,
      values: leadsStatementParams(
        leads.map((w) => w.lead),
        done,
      ),
    });
    const ids = new Set(stored.rows.map((r) => r.id));
    return leads.map((w) => ({ kind: 'stored', stored: ids.has(w.lead.id) }));
  }

  private async claim(writes: HotWrite[]): Promise<HotResult[]> {
    const claims = writes.flatMap((w) => (w.kind === 'claim' ? [w.claim] : []));
    const { rows } = await this.pool.query<KeyRow & { claimed: boolean }>({
      ...CLAIMS_STATEMENT,
      values: keyClaimsParams(claims),
    });
    // One row per claim, in the batch's order (the left joins match at most one row each: (scope, key) is unique).
    return rows.map(({ claimed, ...row }) =>
      claimed ? { kind: 'claimed' } : { kind: 'existing', row: row.state === null ? null : row },
    );
  }

  private async storeScans(writes: HotWrite[]): Promise<HotResult[]> {
    const scans = writes.flatMap((w) => (w.kind === 'scan' ? [w] : []));
    const done = scans.flatMap((w): KeyDoneFor[] => (w.done ? [{ ...w.done, rowId: w.scan.id }] : []));
    await this.pool.query(scansStatement(scans.length), [
      ...scans.flatMap((w) => scanInsertParams(w.scan)),
      ...roomsParams(scans.map((w) => ({ scanId: w.scan.id, rooms: w.rooms }))),
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
        const oldest = await client.query<{ received_at: string; id: string }>(Q.quarantineOldestKept, [
          row.source_id,
          keep - 1,
        ]);
        const kept = oldest.rows[0];
        if (kept) await client.query(Q.quarantinePruneBeyond, quarantinePruneBeyondParams(row.source_id, kept));
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
