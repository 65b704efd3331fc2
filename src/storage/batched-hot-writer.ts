/**
 * The hot writes through the generic commit batcher alone: each HotWrite is one `writer.write(trx => …)`, its
 * statements run on the main connection inside the batcher's transaction (and savepoint), and the batcher folds
 * concurrent writes into one commit as it does for every other write. Same results as the hot writers
 * (hot-writes.ts): `stored: false` when the source was closed or moved meanwhile, the claim's row in the way, the
 * idempotency answer marked done in the transaction of the row it answers for.
 *
 * Not the default: selected by LEADSCAN_WRITE_PATH=batcher (config.ts, `writePath`), a bench switch that measures
 * whether the hot writers earn their lines (docs/performance.md, "One write path or two"). The statements are the
 * hot writers' own (hot-writes/*), one row each; on PostgreSQL a lead or a scan and its idempotency answer are one
 * statement, as in the PostgreSQL hot writer.
 */
import { CompiledQuery, type Transaction } from 'kysely';
import type { CommitBatcher } from './commit-batcher.js';
import type { Dialect } from './dialect.js';
import type { HotResult, HotWrite, HotWriter, ResultOf } from './hot-writes.js';
import {
  keyClaim,
  keyClaimParams,
  keyDone,
  keyDoneParams,
  keyRead,
  keysDoneIn,
  keysDoneParams,
  type KeyDone,
  type KeyDoneFor,
  type KeyRow,
} from './hot-writes/idempotency-key.js';
import { leadInsert, leadInsertCtes, leadInsertParams } from './hot-writes/lead.js';
import {
  quarantineInsert,
  quarantineInsertParams,
  quarantineOldestKept,
  quarantinePruneBeyond,
  quarantinePruneBeyondParams,
  quarantinePruneOld,
} from './hot-writes/quarantine.js';
import { roomInsert, roomParams, roomsParams, scanInsert, scanInsertParams } from './hot-writes/scan.js';
import { Markers, statementsFor } from './hot-writes/sql-parts.js';
import type { Schema } from './schema.js';

/** Threads that run beside the write path whichever path writes (SQLite: the checkpoint and search index threads). */
export interface WriteHelpers {
  start(): void;
  close(): Promise<void>;
}

type Statements = ReturnType<typeof statementsOf>;

function statementsOf(dialect: Dialect) {
  const one = statementsFor(dialect, {
    quarantineInsert,
    quarantinePruneOld,
    quarantineOldestKept,
    quarantinePruneBeyond,
    keyDone,
    keyClaim,
    keyRead,
    roomInsert,
    scanInsert: (m) => scanInsert(m, 1),
    lead: (m) => leadInsert(m, { guarded: true }),
  });
  if (dialect === 'sqlite') return { ...one, leadAndDone: null, scanAndDone: null };
  const lead = new Markers('postgres');
  const scan = new Markers('postgres');
  return {
    ...one,
    // The lead (and its search document) and its key's answer, one statement: the key is marked done only if the
    // guarded insert stored the lead.
    leadAndDone:
      `with ${leadInsertCtes(lead, { guarded: true })}, ` +
      `done as (${keysDoneIn(lead, 'stored')}) select id from stored`,
    scanAndDone:
      `with stored as (${scanInsert(scan, 1)} returning id), rooms as (${roomInsert(scan)}), ` +
      `done as (${keysDoneIn(scan, 'stored')}) select id from stored`,
  };
}

async function run<R>(trx: Transaction<Schema>, text: string, params: readonly unknown[]) {
  return trx.executeQuery<R>(CompiledQuery.raw(text, [...params]));
}

function doneFor(done: KeyDone | null, rowId: string): KeyDoneFor[] {
  return done ? [{ ...done, rowId }] : [];
}

async function markDone(trx: Transaction<Schema>, s: Statements, done: KeyDone | null): Promise<void> {
  if (done) await run(trx, s.keyDone, keyDoneParams(done));
}

/** One hot write's statements inside the batcher's transaction. */
async function apply(trx: Transaction<Schema>, s: Statements, dialect: Dialect, write: HotWrite): Promise<HotResult> {
  switch (write.kind) {
    case 'lead': {
      const lead = { ...write.lead, restored_from: null };
      if (s.leadAndDone !== null) {
        const params = [...leadInsertParams('postgres', [lead]), ...keysDoneParams(doneFor(write.done, lead.id))];
        const { rows } = await run(trx, s.leadAndDone, params);
        return { kind: 'stored', stored: rows.length > 0 };
      }
      const { rows } = await run(trx, s.lead, leadInsertParams(dialect, [lead]));
      if (rows.length === 0) return { kind: 'stored', stored: false };
      await markDone(trx, s, write.done);
      return { kind: 'stored', stored: true };
    }
    case 'quarantine': {
      const { row, cutoff, keep } = write;
      const inserted = await run(trx, s.quarantineInsert, quarantineInsertParams(row));
      if (!inserted.numAffectedRows) return { kind: 'stored', stored: false };
      await run(trx, s.quarantinePruneOld, [row.source_id, cutoff]);
      const oldest = await run<{ received_at: string; id: string }>(trx, s.quarantineOldestKept, [
        row.source_id,
        keep - 1,
      ]);
      const kept = oldest.rows[0];
      if (kept) await run(trx, s.quarantinePruneBeyond, quarantinePruneBeyondParams(row.source_id, kept));
      await markDone(trx, s, write.done);
      return { kind: 'stored', stored: true };
    }
    case 'scan': {
      const { scan, rooms, done } = write;
      if (s.scanAndDone !== null) {
        const params = [
          ...scanInsertParams(scan),
          ...roomsParams([{ scanId: scan.id, rooms }]),
          ...keysDoneParams(doneFor(done, scan.id)),
        ];
        await run(trx, s.scanAndDone, params);
        return { kind: 'stored', stored: true };
      }
      await run(trx, s.scanInsert, scanInsertParams(scan));
      for (const [idx, room] of rooms.entries()) await run(trx, s.roomInsert, roomParams(scan.id, room, idx));
      await markDone(trx, s, done);
      return { kind: 'stored', stored: true };
    }
    case 'claim': {
      const claimed = await run(trx, s.keyClaim, keyClaimParams(write.claim));
      if (claimed.rows.length > 0) return { kind: 'claimed' };
      const { rows } = await run<KeyRow>(trx, s.keyRead, [write.claim.scope, write.claim.key]);
      return { kind: 'existing', row: rows[0] ?? null };
    }
  }
}

/** A HotWriter that is the commit batcher: one generic write per hot write. */
export class BatchedHotWriter implements HotWriter {
  /** Always zero: these writes are the generic writer's, counted in its own stats (serve's summary adds both). */
  readonly stats = { commits: 0, writes: 0, largestBatch: 0 };
  private readonly statements: Statements;
  private started = false;

  constructor(
    private readonly writer: CommitBatcher,
    private readonly dialect: Dialect,
    private readonly helpers: WriteHelpers | null = null,
  ) {
    this.statements = statementsOf(dialect);
  }

  write<W extends HotWrite>(write: W): Promise<ResultOf<W>> {
    // As the SQLite hot writer does: the first write starts the helper threads where nothing has yet (a CLI run).
    this.start();
    return this.writer.write((trx) => apply(trx, this.statements, this.dialect, write)) as Promise<ResultOf<W>>;
  }

  start(): void {
    if (this.started) return;
    this.started = true;
    this.helpers?.start();
  }

  /** The batcher is closed by the store (database.ts); this stops the helper threads. */
  async close(): Promise<void> {
    await this.helpers?.close();
  }
}
