import BetterSqlite3 from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { SearchUpkeep } from '../../src/storage/sqlite-search-upkeep.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';

// The SQLite writer thread's search upkeep on a real, migrated SQLite file, driven step by step: each step is what
// the thread does in one idle moment (sqlite-hot-worker.ts).
describe('search index upkeep [sqlite]', () => {
  let world: TestWorld;
  let db: BetterSqlite3.Database;
  let source: { id: string; workspace_id: string; pipeline_id: string };
  let made = 0;

  beforeEach(async () => {
    made = 0;
    world = await createWorld('sqlite');
    await world.seed();
    await world.store.close();
    db = new BetterSqlite3(world.testDb.url);
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    source = db.prepare('select id, workspace_id, pipeline_id from lead_sources').get() as typeof source;
  });
  afterEach(async () => {
    db.close();
    await world.testDb.drop();
  });

  /** Stores `n` leads in one transaction, as a batch would; lead i's notes hold the word `needle<i>x`. */
  const storeLeads = (n: number) => {
    const insert = db.prepare('insert into leads (id, workspace_id, pipeline_id, source_id, name, notes, received_at) values (?, ?, ?, ?, ?, ?, ?)');
    db.transaction(() => {
      for (let i = 0; i < n; i += 1) {
        made += 1;
        insert.run(`lead_${made}`, source.workspace_id, source.pipeline_id, source.id, `Lead ${made}`, `call about needle${made}x`, new Date().toISOString());
      }
    })();
  };
  const pending = () => db.prepare('select lead_rowid from leads_search_pending order by lead_rowid').pluck().all() as number[];
  /** The leads the index holds under every trigram of `needle<n>x` (detail=none: no phrases, only trigrams). */
  const indexed = (n: number) => {
    const word = `needle${n}x`;
    const trigrams = Array.from({ length: word.length - 2 }, (_, i) => `"${word.slice(i, i + 3)}"`).join(' AND ');
    return db.prepare('select l.name from leads_search s join leads l on l.rowid = s.rowid where leads_search match ?').pluck().all(trigrams);
  };
  const settle = (upkeep: SearchUpkeep) => {
    for (let steps = 0; upkeep.dueIn() === 0; steps += 1) {
      if (steps > 1000) throw new Error('the upkeep never runs out of work');
      upkeep.step();
    }
  };

  it('indexes the oldest noted leads in chunks of their own, and search finds them there', () => {
    storeLeads(100);
    expect(pending()).toHaveLength(100);
    const upkeep = new SearchUpkeep(db, { chunk: 64, afterMs: 60_000, backlog: 1000, mergePages: 16 });
    expect(upkeep.dueIn()).toBe(0);
    upkeep.step();
    expect(pending()).toEqual(Array.from({ length: 36 }, (_, i) => 65 + i));
    expect(indexed(1)).toEqual(['Lead 1']);
    expect(indexed(64)).toEqual(['Lead 64']);
    expect(indexed(65)).toEqual([]);
    // The 36 left are fewer than a chunk: they wait for afterMs (or, here, the thread's closing).
    settle(upkeep);
    expect(pending()).toHaveLength(36);
    upkeep.finish();
    expect(pending()).toEqual([]);
    expect(indexed(100)).toEqual(['Lead 100']);
    settle(upkeep);
    expect(upkeep.dueIn()).toBeNull();
  });

  it('lets a few noted leads wait until the oldest has waited afterMs, and counts a backlog as overdue', async () => {
    const upkeep = new SearchUpkeep(db, { chunk: 64, afterMs: 80, backlog: 10, mergePages: 16 });
    settle(upkeep);
    expect(upkeep.dueIn()).toBeNull();
    storeLeads(3);
    upkeep.stored(3);
    expect(upkeep.dueIn()).toBeGreaterThan(0);
    expect(upkeep.overdue).toBe(false);
    upkeep.step();
    expect(pending()).toHaveLength(3);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(upkeep.dueIn()).toBe(0);
    upkeep.step();
    expect(pending()).toEqual([]);
    storeLeads(10);
    upkeep.stored(10);
    expect(upkeep.overdue).toBe(true);
  });

  it('merges the segments that chunks leave (automerge is off) in steps, until FTS5 finds nothing left to merge', () => {
    const upkeep = new SearchUpkeep(db, { chunk: 8, afterMs: 0, backlog: 1000, mergePages: 16 });
    settle(upkeep);
    // Fewer than FTS5's crisis merge (16 segments on one level), which would merge them all at once.
    const chunks = 12;
    for (let i = 0; i < chunks; i += 1) {
      storeLeads(8);
      upkeep.stored(8);
      // Only the chunk: no idle moment for merging between them.
      upkeep.step();
    }
    const segments = () => db.prepare('select count(distinct segid) from leads_search_idx').pluck().get() as number;
    expect(segments()).toBe(chunks);
    for (const n of [1, 50, 96]) expect(indexed(n)).toEqual([`Lead ${n}`]);
    settle(upkeep);
    expect(segments()).toBeLessThan(chunks / 2);
    expect(upkeep.dueIn()).toBeNull();
    for (const n of [1, 50, 96]) expect(indexed(n)).toEqual([`Lead ${n}`]);
  });

  it('keeps the connection at synchronous=FULL, and the leads noted, when a step fails', () => {
    storeLeads(5);
    const upkeep = new SearchUpkeep(db, { chunk: 4, afterMs: 0, backlog: 1000, mergePages: 16 });
    db.exec('drop table leads_search');
    upkeep.step();
    expect(pending()).toHaveLength(5);
    expect(db.pragma('synchronous', { simple: true })).toBe(2);
    expect(db.inTransaction).toBe(false);
  });
});
