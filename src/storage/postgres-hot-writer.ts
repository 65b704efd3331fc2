import type pg from 'pg';
import { isRetryableConflict } from './commit-batcher.js';
import { StorageUnavailableError } from './storage-errors.js';
import {
  keyClaimParams,
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

interface Pending {
  write: HotWrite;
  resolve: (result: HotResult) => void;
  reject: (error: unknown) => void;
}

export interface PostgresHotWriterOptions {
  /** Batches committing at once. */
  lanes: number;
  maxBatch: number;
  onCommit?: (batchSize: number, seconds: number) => void;
}

const MAX_ATTEMPTS = 5;

const Q = {
  leads: leadInsertSql('postgres', true),
  quarantineInsert: numbered(SQL.quarantineInsert),
  quarantinePruneOld: numbered(SQL.quarantinePruneOld),
  quarantineOldestKept: numbered(SQL.quarantineOldestKept),
  quarantinePruneBeyond: numbered(SQL.quarantinePruneBeyond),
  scanInsert: numbered(SQL.scanInsert),
  rooms:
    'insert into scan_rooms (scan_id, idx, name, raw, raw_start, raw_end) ' +
    "select $1, t.i - 1, t.name, ''::bytea, t.s, t.e from unnest($2::text[], $3::int[], $4::int[]) with ordinality as t(name, s, e, i)",
  keyClaim: numbered(SQL.keyClaim),
  keyRead: numbered(SQL.keyRead),
  keysDone:
    "update idempotency_keys k set request_hash = d.h, state = 'done', response_status = d.st, response_body = d.b " +
    'from unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::text[]) as d(scope, key, h, st, b) ' +
    'where k.scope = d.scope and k.key = d.key',
};

/** A SQLSTATE that says something about this data (a constraint, a bad value), not about the server being gone. */
function isDataError(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code) && !['08', '53', '57'].includes(code.slice(0, 2)) && !isRetryableConflict(error);
}

/**
 * Hot writes on PostgreSQL: each batch is one transaction on its own pooled connection, with its leads folded into
 * one multi-row INSERT … SELECT FROM unnest(…) and its idempotency answers into one UPDATE … FROM unnest(…). No
 * savepoints: if a statement fails on the data, the batch rolls back and each write runs again alone. A batch that
 * loses a serialization conflict or a deadlock (40001, 40P01) is tried again after a short random wait. The only
 * rows two batches both lock are idempotency keys, updated in one sorted statement, so lanes do not deadlock.
 */
export class PostgresHotWriter implements HotWriter {
  readonly stats = { commits: 0, writes: 0, largestBatch: 0 };
  private queue: Pending[] = [];
  private running = 0;
  private scheduled = false;
  private closed = false;
  private idleWaiters: Array<() => void> = [];

  constructor(
    private readonly pool: pg.Pool,
    private readonly options: PostgresHotWriterOptions,
  ) {}

  write<W extends HotWrite>(write: W): Promise<ResultOf<W>> {
    if (this.closed) return Promise.reject(new StorageUnavailableError('The database writer is closed'));
    return new Promise<HotResult>((resolve, reject) => {
      this.queue.push({ write, resolve, reject });
      this.schedule();
    }) as Promise<ResultOf<W>>;
  }

  /** Nothing to start: batches borrow pooled connections as they come. */
  start(): void {}

  async close(): Promise<void> {
    this.closed = true;
    if (this.queue.length === 0 && this.running === 0) return;
    await new Promise<void>((resolve) => this.idleWaiters.push(resolve));
  }

  private schedule(): void {
    if (this.scheduled || this.queue.length === 0 || this.running >= this.options.lanes) return;
    this.scheduled = true;
    setImmediate(() => {
      this.scheduled = false;
      while (this.running < this.options.lanes && this.queue.length > 0) {
        const batch = this.queue.splice(0, this.options.maxBatch);
        this.running += 1;
        void this.commit(batch).finally(() => {
          this.running -= 1;
          this.schedule();
          if (this.running === 0 && this.queue.length === 0) {
            const waiters = this.idleWaiters;
            this.idleWaiters = [];
            for (const resolve of waiters) resolve();
          }
        });
      }
    });
  }

  private async commit(batch: Pending[]): Promise<void> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        const started = performance.now();
        const results = await this.transaction(batch.map((p) => p.write));
        this.stats.commits += 1;
        this.stats.writes += batch.length;
        this.stats.largestBatch = Math.max(this.stats.largestBatch, batch.length);
        this.options.onCommit?.(batch.length, (performance.now() - started) / 1000);
        batch.forEach((p, i) => p.resolve(results[i]!));
        return;
      } catch (error) {
        if (isRetryableConflict(error) && attempt < MAX_ATTEMPTS) {
          await new Promise((resolve) => setTimeout(resolve, Math.random() * 2 ** attempt));
          continue;
        }
        if (batch.length > 1 && isDataError(error)) {
          // Find the write at fault: each alone, in a transaction of its own.
          await Promise.all(batch.map((p) => this.commit([p])));
          return;
        }
        for (const p of batch) p.reject(error);
        return;
      }
    }
  }

  private async transaction(writes: HotWrite[]): Promise<HotResult[]> {
    const client = await this.pool.connect();
    let broken: unknown;
    try {
      await client.query('begin');
      try {
        const results = await this.apply(client, writes);
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

  private async apply(client: pg.PoolClient, writes: HotWrite[]): Promise<HotResult[]> {
    const results: HotResult[] = new Array(writes.length);
    const done: KeyDone[] = [];

    for (const [i, write] of writes.entries()) {
      if (write.kind !== 'claim') continue;
      const claimed = await client.query(Q.keyClaim, keyClaimParams(write.claim));
      if (claimed.rowCount) {
        results[i] = { kind: 'claimed' };
      } else {
        const row = await client.query<KeyRow>(Q.keyRead, [write.claim.scope, write.claim.key]);
        results[i] = { kind: 'existing', row: row.rows[0] ?? null };
      }
    }

    const leads = writes.flatMap((w, i) => (w.kind === 'lead' ? [{ w, i }] : []));
    if (leads.length > 0) {
      const inserted = await client.query<{ id: string }>(
        Q.leads,
        leadInsertParams('postgres', leads.map(({ w }) => ({ ...w.lead, restored_from: null }))),
      );
      const stored = new Set(inserted.rows.map((r) => r.id));
      for (const { w, i } of leads) {
        const ok = stored.has(w.lead.id);
        results[i] = { kind: 'stored', stored: ok };
        if (ok && w.done) done.push(w.done);
      }
    }

    for (const [i, write] of writes.entries()) {
      if (write.kind === 'quarantine') {
        const { row, cutoff, keep } = write;
        const inserted = await client.query(Q.quarantineInsert, quarantineInsertParams(row));
        if (!inserted.rowCount) {
          results[i] = { kind: 'stored', stored: false };
          continue;
        }
        await client.query(Q.quarantinePruneOld, [row.source_id, cutoff]);
        const oldest = await client.query<{ received_at: string; id: string }>(Q.quarantineOldestKept, [row.source_id, keep - 1]);
        const kept = oldest.rows[0];
        if (kept) await client.query(Q.quarantinePruneBeyond, [row.source_id, kept.received_at, kept.received_at, kept.id]);
        if (write.done) done.push(write.done);
        results[i] = { kind: 'stored', stored: true };
      } else if (write.kind === 'scan') {
        const raw = Buffer.from(write.scan.raw.buffer, write.scan.raw.byteOffset, write.scan.raw.byteLength);
        await client.query(Q.scanInsert, scanInsertParams({ ...write.scan, raw }));
        await client.query(Q.rooms, [
          write.scan.id,
          write.rooms.map((r) => r.name),
          write.rooms.map((r) => r.start),
          write.rooms.map((r) => r.end),
        ]);
        if (write.done) done.push(write.done);
        results[i] = { kind: 'stored', stored: true };
      }
    }

    if (done.length > 0) {
      // One statement, in key order: two batches never lock the same keys in opposite orders.
      done.sort((a, b) => (a.scope === b.scope ? (a.key < b.key ? -1 : 1) : a.scope < b.scope ? -1 : 1));
      await client.query(Q.keysDone, [
        done.map((d) => d.scope),
        done.map((d) => d.key),
        done.map((d) => d.requestHash),
        done.map((d) => d.status),
        done.map((d) => d.body),
      ]);
    }
    return results;
  }
}
