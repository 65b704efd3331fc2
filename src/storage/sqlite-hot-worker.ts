/**
 * The SQLite writer thread: owns the write connection for the hot writes, prepares its statements once, and
 * commits everything that has queued up as one transaction (group commit), so the COMMIT's fsync runs here, never
 * on the main thread's event loop (WAL checkpoints run on a thread of their own, sqlite-checkpointer.ts, and the
 * search index is kept in a file of its own by another, sqlite-search-indexer.ts). Answers each batch after COMMIT
 * has returned.
 *
 * No savepoints: a row's statement that fails a constraint is undone alone by SQLite (the transaction stays open),
 * so that write is answered as failed and the others go on. Any other failure rolls the transaction back and runs
 * each write again in a transaction of its own.
 */
import { receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import BetterSqlite3 from 'better-sqlite3';
import type { HotResult, HotWrite } from './hot-writes.js';
import {
  keyClaim,
  keyClaimParams,
  keyDone,
  keyDoneParams,
  keyRead,
  type KeyDone,
  type KeyRow,
} from './hot-writes/idempotency-key.js';
import { leadInsert, leadInsertParams } from './hot-writes/lead.js';
import {
  quarantineInsert,
  quarantineInsertParams,
  quarantineOldestKept,
  quarantinePruneBeyond,
  quarantinePruneBeyondParams,
  quarantinePruneOld,
} from './hot-writes/quarantine.js';
import { roomInsert, roomParams, scanInsert, scanInsertParams } from './hot-writes/scan.js';
import { statementsFor } from './hot-writes/sql-parts.js';
import type { ToWorker, FromWorker, WireOutcome } from './sqlite-hot-protocol.js';

const { file, port } = workerData as { file: string; port: MessagePort };

const db = new BetterSqlite3(file);
db.pragma('journal_mode = WAL');
db.pragma('synchronous = FULL');
db.pragma('busy_timeout = 5000');
db.pragma('foreign_keys = ON');
// Deleted content is overwritten with zeros (a person's erasure must not stay readable in the file); this thread's
// own deletes (quarantine pruning) and the pages it rewrites follow the same rule as the main connection's.
db.pragma('secure_delete = ON');
// Every lead INSERT fires triggers, so SQLite keeps a statement journal for it; past 64 KiB of a transaction that
// journal spills to a new temporary file in /var/tmp, one per transaction, written page by page (about 25 write
// calls a lead, 40% of this thread's CPU). A batch's journal is a few hundred KiB at most: keep it in memory.
db.pragma('temp_store = MEMORY');
// Checkpoints are the checkpoint thread's (sqlite-checkpointer.ts); this is only a safety valve should it be gone.
db.pragma('wal_autocheckpoint = 8000');

const sql = statementsFor('sqlite', {
  lead: (m) => leadInsert(m, { guarded: true }),
  quarantineInsert,
  quarantinePruneOld,
  quarantineOldestKept,
  quarantinePruneBeyond,
  scanInsert: (m) => scanInsert(m, 1),
  roomInsert,
  keyDone,
  keyClaim,
  keyRead,
});

const statements = {
  begin: db.prepare('begin immediate'),
  commit: db.prepare('commit'),
  rollback: db.prepare('rollback'),
  lead: db.prepare(sql.lead),
  quarantineInsert: db.prepare(sql.quarantineInsert),
  quarantinePruneOld: db.prepare(sql.quarantinePruneOld),
  quarantineOldestKept: db.prepare(sql.quarantineOldestKept),
  quarantinePruneBeyond: db.prepare(sql.quarantinePruneBeyond),
  scanInsert: db.prepare(sql.scanInsert),
  roomInsert: db.prepare(sql.roomInsert),
  keyDone: db.prepare(sql.keyDone),
  keyClaim: db.prepare(sql.keyClaim),
  keyRead: db.prepare(sql.keyRead),
};

/** Thrown when a write fails after its first statement changed something: the whole transaction must go. */
class PartialWrite extends Error {
  constructor(readonly inner: unknown) {
    super('a write failed after its first statement');
  }
}

function markDone(done: KeyDone | null): void {
  if (done) statements.keyDone.run(...keyDoneParams(done));
}

/** Runs one write's statements. Only its first statement may fail without spoiling the transaction. */
function apply(write: HotWrite): HotResult {
  let first = true;
  const step = <T>(run: () => T): T => {
    if (first) {
      first = false;
      return run();
    }
    try {
      return run();
    } catch (error) {
      throw new PartialWrite(error);
    }
  };
  switch (write.kind) {
    case 'lead': {
      const rows = step(() =>
        statements.lead.all(...leadInsertParams('sqlite', [{ ...write.lead, restored_from: null }])),
      );
      if (rows.length === 0) return { kind: 'stored', stored: false };
      step(() => markDone(write.done));
      return { kind: 'stored', stored: true };
    }
    case 'quarantine': {
      const { row, cutoff, keep } = write;
      const inserted = step(() => statements.quarantineInsert.run(...quarantineInsertParams(row)));
      if (inserted.changes === 0) return { kind: 'stored', stored: false };
      step(() => {
        statements.quarantinePruneOld.run(row.source_id, cutoff);
        const oldest = statements.quarantineOldestKept.get(row.source_id, keep - 1) as
          { received_at: string; id: string } | undefined;
        if (oldest) statements.quarantinePruneBeyond.run(...quarantinePruneBeyondParams(row.source_id, oldest));
        markDone(write.done);
      });
      return { kind: 'stored', stored: true };
    }
    case 'scan': {
      step(() => statements.scanInsert.run(...scanInsertParams(write.scan)));
      step(() => {
        write.rooms.forEach((room, idx) => statements.roomInsert.run(...roomParams(write.scan.id, room, idx)));
        markDone(write.done);
      });
      return { kind: 'stored', stored: true };
    }
    case 'claim': {
      const claimed = step(() => statements.keyClaim.all(...keyClaimParams(write.claim)));
      if (claimed.length > 0) return { kind: 'claimed' };
      const row = step(() => statements.keyRead.get(write.claim.scope, write.claim.key)) as KeyRow | undefined;
      return { kind: 'existing', row: row ?? null };
    }
  }
}

function wireError(error: unknown): WireOutcome {
  const e = error as { message?: unknown; code?: unknown };
  return { ok: false, message: String(e?.message ?? error), code: typeof e?.code === 'string' ? e.code : undefined };
}

function isConstraint(error: unknown): boolean {
  const code = (error as { code?: unknown })?.code;
  return typeof code === 'string' && code.startsWith('SQLITE_CONSTRAINT');
}

/** All writes in one transaction; null when it had to be abandoned (then each is run alone). */
function commitTogether(writes: HotWrite[]): WireOutcome[] | null {
  statements.begin.run();
  const outcomes: WireOutcome[] = [];
  try {
    for (const write of writes) {
      try {
        outcomes.push({ ok: true, result: apply(write) });
      } catch (error) {
        if (error instanceof PartialWrite || !isConstraint(error)) throw error;
        outcomes.push(wireError(error));
      }
    }
    statements.commit.run();
    return outcomes;
  } catch (error) {
    if (db.inTransaction) statements.rollback.run();
    if (writes.length === 1) return [wireError(error instanceof PartialWrite ? error.inner : error)];
    return null;
  }
}

function commitAlone(write: HotWrite): WireOutcome {
  try {
    return commitTogether([write])![0]!;
  } catch (error) {
    // BEGIN or COMMIT itself failed (disk full, I/O error, busy past the timeout).
    return wireError(error);
  }
}

const pending: Array<Extract<ToWorker, { type: 'batch' }>> = [];
let paused = false;

function post(message: FromWorker): void {
  port.postMessage(message);
}

function runPending(): void {
  if (paused || pending.length === 0) return;
  const batches = pending.splice(0, pending.length);
  const writes = batches.flatMap((b) => b.writes);
  const started = performance.now();
  let outcomes: WireOutcome[];
  try {
    outcomes = commitTogether(writes) ?? writes.map(commitAlone);
  } catch (error) {
    // BEGIN or COMMIT failed for the batch: nothing of it is acknowledged.
    const failed = wireError(error);
    outcomes = writes.map(() => failed);
  }
  const seconds = (performance.now() - started) / 1000;
  let at = 0;
  post({
    type: 'done',
    seconds,
    size: writes.length,
    batches: batches.map((b) => {
      const slice = outcomes.slice(at, at + b.writes.length);
      at += b.writes.length;
      return { id: b.id, outcomes: slice };
    }),
  });
}

function handle(message: ToWorker): void {
  switch (message.type) {
    case 'batch':
      pending.push(message);
      return;
    case 'pause':
      runPending();
      paused = true;
      post({ type: 'paused', id: message.id });
      return;
    case 'resume':
      paused = false;
      return;
    case 'close':
      runPending();
      db.close();
      post({ type: 'closed' });
      port.close();
      return;
  }
}

port.on('message', (message: ToWorker) => {
  handle(message);
  // Drain whatever else has queued meanwhile, so it all joins one transaction.
  for (let next = receiveMessageOnPort(port); next; next = receiveMessageOnPort(port)) handle(next.message as ToWorker);
  runPending();
});
