/**
 * Keeps the SQLite search index (migrations 0006 and 0008) current, from the SQLite writer thread, in small
 * transactions of its own between batches and never inside one.
 *
 * Why not inside: FTS5 writes what a transaction added as a new segment at COMMIT, and its automerge folds
 * segments together in bursts of 64 pages per level. Indexing each batch's few leads in the batch's own
 * transaction made about one COMMIT a second take 20–35 ms at half load (measured with bench/open-loop.ts), and
 * every request in that batch waited for it.
 *
 * Instead:
 * - the lead triggers note each new lead in `leads_search_pending`, where search finds it meanwhile;
 * - once the thread has no batch waiting, it indexes the oldest `chunk` noted leads in one transaction, as soon as
 *   that many are noted or the oldest has waited `afterMs`; a thread that is never idle indexes a chunk between
 *   batches anyway once `backlog` are noted;
 * - after indexing, it merges segments in steps of `mergePages` pages (each a few milliseconds), one step per
 *   idle moment, until FTS5 finds nothing left to merge.
 *
 * These transactions commit without their own fsync (synchronous=NORMAL): the next batch's COMMIT (FULL) syncs
 * the WAL they share. A crash before that loses only index work, never a lead, because a lead leaves the pending
 * table in the same transaction that indexes it.
 */
import type BetterSqlite3 from 'better-sqlite3';
import { SQL } from './hot-writes.js';

export interface UpkeepSettings {
  /** Leads indexed per transaction, at most. */
  chunk: number;
  /** How long fewer than a chunk of noted leads may wait for an idle moment. */
  afterMs: number;
  /** Noted leads from which a chunk is indexed even though batches are waiting. */
  backlog: number;
  /** Merge work per step, in index pages. */
  mergePages: number;
}

export const UPKEEP: UpkeepSettings = { chunk: 64, afterMs: 200, backlog: 4096, mergePages: 16 };

export class SearchUpkeep {
  private noted = 0;
  private notedSince = 0;
  /** At start, whatever another process indexed may be left unmerged. */
  private mergeWanted = true;
  private readonly statements;

  constructor(
    private readonly db: BetterSqlite3.Database,
    private readonly settings: UpkeepSettings = UPKEEP,
  ) {
    this.statements = {
      count: db.prepare(SQL.searchPendingCount).pluck(),
      chunkEnd: db.prepare(SQL.searchChunkEnd).pluck(),
      indexUpTo: db.prepare(SQL.searchIndexUpTo),
      clearUpTo: db.prepare(SQL.searchPendingClearUpTo),
      merge: db.prepare(SQL.searchMerge),
      totalChanges: db.prepare('select total_changes() as n').pluck(),
      begin: db.prepare('begin immediate'),
      commit: db.prepare('commit'),
      rollback: db.prepare('rollback'),
    };
    this.recount();
    // Leads another process noted and left (a CLI run without a writer thread) are due at once.
    this.notedSince -= settings.afterMs;
  }

  /** Counts the noted leads anew (at start, and after another connection wrote). */
  recount(): void {
    this.noted = this.statements.count.get() as number;
    this.notedSince = performance.now();
  }

  /** Leads the thread has just stored (their triggers noted them). */
  stored(leads: number): void {
    if (leads === 0) return;
    if (this.noted === 0) this.notedSince = performance.now();
    this.noted += leads;
  }

  /** So many leads are noted that a chunk is indexed even though batches are waiting. */
  get overdue(): boolean {
    return this.noted >= this.settings.backlog;
  }

  /** Milliseconds until an idle thread has work here (0: now), or null when there is none. */
  dueIn(): number | null {
    if (this.noted >= this.settings.chunk || this.mergeWanted) return 0;
    if (this.noted > 0) return Math.max(0, this.settings.afterMs - (performance.now() - this.notedSince));
    return null;
  }

  /** One bounded piece of work: a chunk of noted leads if one is due, otherwise a merge step. */
  step(): void {
    const chunkDue = this.noted >= this.settings.chunk || (this.noted > 0 && performance.now() - this.notedSince >= this.settings.afterMs);
    if (chunkDue) this.indexChunk();
    else if (this.mergeWanted) this.mergeStep();
  }

  /** Indexes everything noted, chunk by chunk (the thread is closing). */
  finish(): void {
    while (this.noted > 0) {
      const before = this.noted;
      this.indexChunk();
      if (this.noted >= before) return;
    }
  }

  private indexChunk(): void {
    const done = this.quietly(() => {
      const upTo = this.statements.chunkEnd.get(this.settings.chunk) as number | null;
      if (upTo === null) return;
      this.statements.indexUpTo.run(upTo);
      this.statements.clearUpTo.run(upTo);
    });
    // On failure the leads stay noted (search still finds them) and the next chunk is due after `afterMs`.
    this.recount();
    if (done) this.mergeWanted = true;
  }

  private mergeStep(): void {
    const before = this.statements.totalChanges.get() as number;
    const done = this.quietly(() => this.statements.merge.run(this.settings.mergePages));
    // The merge command itself counts as one change; anything more is merge work done, so there may be more.
    this.mergeWanted = done && (this.statements.totalChanges.get() as number) - before > 1;
  }

  /** Runs fn in a transaction that commits without an fsync of its own (see the module's comment). */
  private quietly(fn: () => void): boolean {
    this.db.pragma('synchronous = NORMAL');
    try {
      this.statements.begin.run();
      fn();
      this.statements.commit.run();
      return true;
    } catch {
      if (this.db.inTransaction) this.statements.rollback.run();
      return false;
    } finally {
      this.db.pragma('synchronous = FULL');
    }
  }
}
