import fs from 'node:fs';
import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  applySearchChanges,
  pruneSearchChanges,
  SearchIndex,
  searchIndexFile,
  unindexedMatches,
} from '../../src/storage/search-index.js';
import { listLeads } from '../../src/domain/leads/list-leads.js';
import { resolveLeadFilters } from '../../src/domain/leads/lead-filters.js';
import { runRetention } from '../../src/domain/retention/run-retention.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { createDomainContext } from '../../src/runtime.js';
import { openIntake, parseIntakeToken } from '../../src/domain/intake/open-intake.js';
import { submitLead, type IntakeMeta } from '../../src/domain/intake/submit-lead.js';
import { openDatabase, type Database } from '../../src/storage/database.js';
import type { SqliteHotWriter } from '../../src/storage/sqlite-hot-writer.js';
import { insertLeads, minute } from '../domain/leads-fixtures.js';
import { inWorkspace } from '../../src/domain/context.js';

// The search index file (storage/search-index.ts) on a real, migrated SQLite database, driven step by step: each
// step is one transaction of the search index thread (sqlite-search-indexer.ts).
describe('search index file [sqlite]', () => {
  let world: TestWorld;
  let db: BetterSqlite3.Database;
  let index: SearchIndex | null;
  let source: { id: string; workspace_id: string; pipeline_id: string };
  let made = 0;

  beforeEach(async () => {
    made = 0;
    index = null;
    world = await createWorld('sqlite');
    await world.seed();
    await world.store.close();
    db = new BetterSqlite3(world.testDb.url);
    db.pragma('journal_mode = WAL');
    source = db.prepare('select id, workspace_id, pipeline_id from lead_sources').get() as typeof source;
  });
  afterEach(async () => {
    index?.close();
    db.close();
    await world.testDb.drop();
  });

  /** Stores `n` leads; lead i's notes hold the word `needle<i>x`. */
  const storeLeads = (n: number) => {
    const insert = db.prepare(
      'insert into leads (id, workspace_id, pipeline_id, source_id, name, notes, received_at) values (?, ?, ?, ?, ?, ?, ?)',
    );
    db.transaction(() => {
      for (let i = 0; i < n; i += 1) {
        made += 1;
        insert.run(
          `lead_${made}`,
          source.workspace_id,
          source.pipeline_id,
          source.id,
          `Lead ${made}`,
          `call about needle${made}x`,
          new Date().toISOString(),
        );
      }
    })();
  };
  const open = (rebuild: boolean | 'unless-current' = true) => {
    index = new SearchIndex(world.testDb.url, { rebuild });
    return index;
  };
  /** The rowids the index file holds under every trigram of `word` (detail=none: only trigrams). */
  const postings = (word: string) => {
    const file = new BetterSqlite3(searchIndexFile(world.testDb.url), { readonly: true });
    try {
      const trigrams = Array.from({ length: word.length - 2 }, (_, i) => `"${word.slice(i, i + 3)}"`).join(' AND ');
      return file
        .prepare('select rowid from leads_folded where leads_folded match ?')
        .pluck()
        .all(trigrams) as number[];
    } finally {
      file.close();
    }
  };
  const rowidOf = (name: string) => db.prepare('select rowid from leads where name = ?').pluck().get(name) as number;
  const settle = (i: SearchIndex) => {
    for (let steps = 0; i.step() > 0; steps += 1) if (steps > 1000) throw new Error('the index never runs out of work');
  };
  /** Stores `n` leads and an index file that holds them, then closes it: what follows happens behind its back. */
  const indexedThenClosed = (n: number) => {
    storeLeads(n);
    settle(open());
    index!.close();
    index = null;
  };

  it('indexes the leads in rowid order, a chunk per step, until it has caught up', () => {
    storeLeads(300);
    const i = open();
    expect(i.backlog()).toBe(300);
    expect(i.step()).toBe(256);
    expect(i.backlog()).toBe(44);
    expect(postings('needle7x')).toEqual([rowidOf('Lead 7')]);
    expect(postings('needle299x')).toEqual([]);
    settle(i);
    expect(i.backlog()).toBe(0);
    expect(postings('needle299x')).toEqual([rowidOf('Lead 299')]);
    expect(i.step()).toBe(0);
  });

  it('a deleted lead leaves the index; a rowid SQLite reuses for a new lead is indexed for the new lead', () => {
    storeLeads(3);
    const i = open();
    settle(i);
    const last = rowidOf('Lead 3');
    db.prepare("delete from leads where name in ('Lead 1', 'Lead 3')").run();
    // The newest lead's rowid is free again: SQLite hands it to the next lead.
    storeLeads(1);
    expect(rowidOf('Lead 4')).toBe(last);
    // Two deletes, and the rowid handed out again (migration 0026).
    expect(db.prepare('select lead_rowid from leads_search_changes order by seq').pluck().all()).toEqual([
      rowidOf('Lead 2') - 1,
      last,
      last,
    ]);
    settle(i);
    expect(postings('needle1x')).toEqual([]);
    expect(postings('needle3x')).toEqual([]);
    expect(postings('needle4x')).toEqual([last]);
    expect(postings('needle2x')).toEqual([rowidOf('Lead 2')]);
  });

  it('an edited lead is indexed as it is now', () => {
    storeLeads(2);
    const i = open();
    settle(i);
    db.prepare("update leads set notes = 'now about widget9q' where name = 'Lead 1'").run();
    settle(i);
    expect(postings('needle1x')).toEqual([]);
    expect(postings('widget9q')).toEqual([rowidOf('Lead 1')]);
  });

  it('a rebuild starts from nothing, so a stale or foreign index file is never trusted', () => {
    indexedThenClosed(2);
    // The database changes behind the index's back (a restored copy, a run without the thread).
    db.prepare("update leads set notes = 'swapped' where name = 'Lead 1'").run();
    db.prepare('delete from leads_search_changes').run();
    const i = open(true);
    expect(i.backlog()).toBe(2);
    settle(i);
    expect(postings('needle1x')).toEqual([]);
    expect(postings('swapped')).toEqual([rowidOf('Lead 1')]);
  });

  it('a start keeps a current index and indexes only what changed while the server was down', () => {
    indexedThenClosed(300);
    // With the server down (the CLI, another process): an edit, a deletion, the newest lead deleted and its rowid
    // reused, and new leads.
    db.prepare("update leads set notes = 'now about widget9q' where name = 'Lead 7'").run();
    db.prepare("delete from leads where name in ('Lead 5', 'Lead 300')").run();
    storeLeads(3);
    const i = open('unless-current');
    expect(i.start).toBe('resumed');
    expect(i.backlog()).toBe(2);
    settle(i);
    // Only what changed: the three new leads (one on the reused rowid, noted as a change too) and four changes.
    expect(i.done).toEqual({ leads: 2, changes: 4 });
    expect(postings('needle7x')).toEqual([]);
    expect(postings('widget9q')).toEqual([rowidOf('Lead 7')]);
    expect(postings('needle5x')).toEqual([]);
    expect(postings('needle300x')).toEqual([]);
    expect(postings('needle301x')).toEqual([rowidOf('Lead 301')]);
    expect(postings('needle303x')).toEqual([rowidOf('Lead 303')]);
    expect(postings('needle8x')).toEqual([rowidOf('Lead 8')]);
    i.close();
    // A start with nothing changed costs nothing.
    const again = open('unless-current');
    expect(again.start).toBe('resumed');
    settle(again);
    expect(again.done).toEqual({ leads: 0, changes: 0 });
  });

  it('a start rebuilds an index whose watermark does not fit the database (a restored older copy)', () => {
    storeLeads(2);
    const copy = `${world.testDb.url}.copy`;
    db.prepare('vacuum into ?').run(copy);
    try {
      storeLeads(2);
      settle(open());
      index!.close();
      index = null;
      // The older copy is put back while the server is down: leads 3 and 4 are gone, their rowids free for others.
      db.close();
      for (const suffix of ['', '-wal', '-shm']) fs.rmSync(`${world.testDb.url}${suffix}`, { force: true });
      fs.copyFileSync(copy, world.testDb.url);
      db = new BetterSqlite3(world.testDb.url);
      storeLeads(1);
      const i = open('unless-current');
      expect(i.start).toBe('rebuilt');
      settle(i);
      expect(i.done.leads).toBe(3);
      expect(postings('needle3x')).toEqual([]);
      expect(postings('needle5x')).toEqual([rowidOf('Lead 5')]);
    } finally {
      fs.rmSync(copy, { force: true });
    }
  });

  it('a start rebuilds an index of another database, or of an older layout', () => {
    indexedThenClosed(2);
    // Another database's change log: its last change is of another lead than the one the index applied.
    db.prepare("delete from leads where name = 'Lead 1'").run();
    settle(open(false));
    index!.close();
    db.prepare('update leads_search_changes set lead_rowid = lead_rowid + 100').run();
    const other = open('unless-current');
    expect(other.start).toBe('rebuilt');
    other.close();
    // An index file from before the watermark's fingerprints.
    const file = new BetterSqlite3(searchIndexFile(world.testDb.url));
    file.exec(
      'drop table state; create table state (indexed_upto integer not null, changes_upto integer not null); insert into state values (0, 0)',
    );
    file.close();
    index = open('unless-current');
    expect(index.start).toBe('rebuilt');
    settle(index);
    expect(postings('needle2x')).toEqual([rowidOf('Lead 2')]);
  });

  it('a start rebuilds an index of layout 1, which may have passed by a lead stored on a rowid handed out again', () => {
    indexedThenClosed(2);
    // Before migration 0026 nothing noted such a lead: the index's watermark fits, yet it may lack leads.
    const file = new BetterSqlite3(searchIndexFile(world.testDb.url));
    file.exec(`create table layout1 as select indexed_upto, upto_lead_id, changes_upto, changes_upto_rowid from state;
      drop table state; alter table layout1 rename to state`);
    file.close();
    const i = open('unless-current');
    expect(i.start).toBe('rebuilt');
    settle(i);
    expect(i.done.leads).toBe(2);
    expect(postings('needle2x')).toEqual([rowidOf('Lead 2')]);
  });

  it('a CLI run applies deletions to an index file it finds, and leaves new leads to the thread', () => {
    indexedThenClosed(2);
    db.prepare("delete from leads where name = 'Lead 1'").run();
    storeLeads(1);
    applySearchChanges(world.testDb.url);
    expect(postings('needle1x')).toEqual([]);
    expect(postings('needle3x')).toEqual([]);
    expect(open(false).backlog()).toBe(1);
  });

  it('a CLI run leaves an index file that was never built as it is (search then checks every lead)', () => {
    storeLeads(1);
    db.prepare("delete from leads where name = 'Lead 1'").run();
    // The app's connection attaches the file, which makes it, empty.
    expect(fs.existsSync(searchIndexFile(world.testDb.url))).toBe(true);
    applySearchChanges(world.testDb.url);
    const file = new BetterSqlite3(searchIndexFile(world.testDb.url), { readonly: true });
    try {
      expect(file.prepare('select count(*) from sqlite_master').pluck().get()).toBe(0);
    } finally {
      file.close();
    }
    expect(db.prepare('select count(*) from leads_search_changes').pluck().get()).toBe(1);
  });
});

// Inbox search (domain/leads/lead-filters.ts) through a built index file, before and after the index has caught
// up with new, edited and deleted leads: the answer is exact either way.
describe('inbox search through the index file [sqlite]', () => {
  let world: TestWorld;
  let seeded: Seeded;
  let index: SearchIndex;

  beforeEach(async () => {
    world = await createWorld('sqlite');
    seeded = await world.seed();
    index = new SearchIndex(world.testDb.url, { rebuild: true });
  });
  afterEach(async () => {
    index.close();
    await world.close();
  });

  const at = () => ({ workspaceId: seeded.workspaceId, pipelineId: seeded.pipelineId, sourceId: seeded.source.id });
  const names = async (search: string) =>
    (await listLeads({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { search, limit: 1000 } })).leads
      .map((l) => l.name)
      .sort();
  const catchUp = () => {
    while (index.step() > 0);
  };

  it('finds indexed, not yet indexed, edited, deleted and rowid-reusing leads exactly as they are', async () => {
    const [ada, , last] = await insertLeads(world, at(), [
      { name: 'Ada Lovelace', notes: 'kitchen refit', received_at: minute(1) },
      { name: 'Bob Builder', notes: 'bathroom', received_at: minute(2) },
      { name: 'Cleo Newest', notes: 'kitchen island', received_at: minute(3) },
    ]);
    catchUp();
    expect(await names('kitchen')).toEqual(['Ada Lovelace', 'Cleo Newest']);
    await world.store.db.updateTable('leads').set({ notes: 'garden shed' }).where('id', '=', ada!.id).execute();
    // The newest lead goes and its rowid is handed to the next one.
    await world.store.db.deleteFrom('leads').where('id', '=', last!.id).execute();
    // Directly, as another process would: nothing applies the changes to the index meanwhile.
    await insertLeads(world, at(), [{ name: 'Dora Reuse', notes: 'garage door', received_at: minute(4) }], {
      direct: true,
    });
    await insertLeads(world, at(), [{ name: 'Eve Fresh', notes: 'garage roof', received_at: minute(5) }], {
      direct: true,
    });
    const expectations = async () => {
      expect(await names('kitchen')).toEqual([]);
      expect(await names('garden')).toEqual(['Ada Lovelace']);
      expect(await names('GARAGE')).toEqual(['Dora Reuse', 'Eve Fresh']);
      expect(await names('roof')).toEqual(['Eve Fresh']);
      expect(await names('newest')).toEqual([]);
      expect(await names('bathroom')).toEqual(['Bob Builder']);
    };
    await expectations();
    catchUp();
    expect(index.backlog()).toBe(0);
    await expectations();
  });

  it('answers folded text and phone digits from the index, exactly', async () => {
    const [accented, plain] = await insertLeads(world, at(), [
      { name: 'Gagné Rénovations', phone: '+1 514-555-0199', received_at: minute(1) },
      { name: 'Marc Gagne', phone: '(450) 555-1234', notes: 'near 514 555 street', received_at: minute(2) },
      { name: 'Zoë Tremblay', phone: '819.555.0100', received_at: minute(3) },
    ]);
    catchUp();
    const fromIndex = async (search: string) => {
      const filters = await resolveLeadFilters(inWorkspace(world.ctx, seeded.workspaceId), { search });
      // Answered from the index: the ids, no condition left for SQL.
      expect(filters.search, search).toBeUndefined();
      return filters.searchIds;
    };
    expect(await fromIndex('gagne')).toEqual(expect.arrayContaining([accented!.id, plain!.id]));
    expect(await fromIndex('GAGNÉ')).toHaveLength(2);
    expect(await fromIndex('5550199')).toEqual([accented!.id]);
    // As digits in the phone, and as text in the notes.
    expect((await fromIndex('514 555'))?.sort()).toEqual([accented!.id, plain!.id].sort());
    expect(await fromIndex('514555')).toEqual([accented!.id]);
    expect(await fromIndex('gagne 0199')).toEqual([]);
    expect(await names('zoe')).toEqual(['Zoë Tremblay']);
    expect(await names('rénovations')).toEqual(['Gagné Rénovations']);
  });

  it("another workspace's many matches leave a small workspace's search on the index, and exact", async () => {
    const big = await world.seed('Big');
    const bigAt = { workspaceId: big.workspaceId, pipelineId: big.pipelineId, sourceId: big.source.id };
    await insertLeads(
      world,
      bigAt,
      Array.from({ length: 2_500 }, (_, i) => ({ name: `Tremblay ${i}`, received_at: minute(i) })),
    );
    await insertLeads(world, at(), [
      { name: 'Marie Tremblay', received_at: minute(1) },
      { name: 'Luc Tremblay', received_at: minute(2) },
      { name: 'Ada Lovelace', received_at: minute(3) },
    ]);
    catchUp();
    const filters = await resolveLeadFilters(inWorkspace(world.ctx, seeded.workspaceId), { search: 'tremblay' });
    // Answered from the index: the candidates are the workspace's own, two of them, not 2,502 of everyone's.
    expect(filters.search).toBeUndefined();
    expect(filters.searchIds).toHaveLength(2);
    expect(await names('tremblay')).toEqual(['Luc Tremblay', 'Marie Tremblay']);
  });

  it('a rare term stays on the index while thousands of new leads wait to be indexed, and finds them too', async () => {
    await insertLeads(world, at(), [
      { name: 'Ada Lovelace', notes: 'zebra crossing', received_at: minute(1) },
      { name: 'Bob Builder', received_at: minute(2) },
    ]);
    catchUp();
    // Intake pours in faster than the index thread keeps up: 2,500 leads above its watermark, one of them a match.
    await insertLeads(world, at(), [
      ...Array.from({ length: 2_500 }, (_, i) => ({ name: `Tremblay ${i}`, received_at: minute(10 + i) })),
      { name: 'Zeb Newest', notes: 'zebra print', received_at: minute(3_000) },
    ]);
    expect(index.backlog()).toBe(2_501);
    const rare = await resolveLeadFilters(inWorkspace(world.ctx, seeded.workspaceId), { search: 'zebra' });
    // Answered as ids (the new leads checked in SQL), not left to a scan of every lead in page order.
    expect(rare.search).toBeUndefined();
    expect(await names('zebra')).toEqual(['Ada Lovelace', 'Zeb Newest']);
    // A term most new leads match is left to the scan in page order, which stops at the page.
    const common = await resolveLeadFilters(inWorkspace(world.ctx, seeded.workspaceId), { search: 'tremblay' });
    expect(common.searchIds).toBeUndefined();
    expect(await names('tremblay')).toHaveLength(1_000);
  });

  it('reaches the leads the index has not caught up with from their rowids, not by walking the workspace', async () => {
    await insertLeads(
      world,
      at(),
      Array.from({ length: 20 }, (_, i) => ({ name: `Lead ${i}`, received_at: minute(i) })),
    );
    catchUp();
    // No ANALYZE, as on the app's databases: SQLite then takes `workspace_id = ?` for a narrow index range, and with
    // `rowid in (…)` walked every lead of the workspace.
    const plan = await sql<{
      detail: string;
    }>`explain query plan ${unindexedMatches(seeded.workspaceId, { text: 'zebra', digits: null }, 2001)}`.execute(
      world.store.db,
    );
    const details = plan.rows.map((r) => r.detail);
    expect(details).toContain('SEARCH l USING INTEGER PRIMARY KEY (rowid=?)');
    expect(
      details.filter((d) => /^(SCAN|SEARCH) l\b/.test(d)),
      details.join('\n'),
    ).toHaveLength(1);
  });

  it('the daily run prunes the change log below the watermark, and a start still keeps the index', async () => {
    const log = () =>
      world.store.db
        .selectNoFrom(
          sql<number[]>`(select json_group_array(seq) from (select seq from leads_search_changes order by seq))`.as(
            'seqs',
          ),
        )
        .executeTakeFirstOrThrow();
    const seqs = async () => JSON.parse(String((await log()).seqs)) as number[];
    const [ada, bob, cleo, dora] = await insertLeads(world, at(), [
      { name: 'Ada Lovelace', received_at: minute(1) },
      { name: 'Bob Builder', received_at: minute(2) },
      { name: 'Cleo Clay', received_at: minute(3) },
      { name: 'Dora Door', received_at: minute(4) },
    ]);
    catchUp();
    await world.store.db.deleteFrom('leads').where('id', 'in', [ada!.id, bob!.id]).execute();
    await world.store.db.updateTable('leads').set({ notes: 'kitchen' }).where('id', '=', cleo!.id).execute();
    catchUp();
    // Noted after the index last looked: not applied yet, so it stays.
    await world.store.db.deleteFrom('leads').where('id', '=', dora!.id).execute();
    const before = await seqs();
    expect(before).toHaveLength(4);

    const pruned = await pruneSearchChanges(world.store.db, (run) => world.store.db.transaction().execute(run));
    expect(pruned).toBe(2);
    // The change at the watermark and the one after it.
    expect(await seqs()).toEqual(before.slice(2));
    // The daily run's writes go through the store's writer, which in a process without the index thread (this one)
    // applies the noted changes first: then only the last change, at the new watermark, stays.
    const run = await runRetention(world.ctx);
    expect(run.searchChangesPruned).toBe(1);
    expect(await seqs()).toEqual(before.slice(3));
    catchUp();
    expect(await names('kitchen')).toEqual(['Cleo Clay']);
    expect(await names('door')).toEqual([]);
    index.close();
    index = new SearchIndex(world.testDb.url, { rebuild: 'unless-current' });
    expect(index.start).toBe('resumed');
  });
});

// The search index thread of a real store (sqlite-hot-writer.ts), across a stop and a start: what the start cost
// is reported once the thread has caught up.
describe('the search index thread across a restart [sqlite]', () => {
  let world: TestWorld;
  let restarted: Database | null = null;

  beforeEach(async () => {
    world = await createWorld('sqlite');
  });
  afterEach(async () => {
    await restarted?.close();
    restarted = null;
    await world.close();
  });

  const meta: IntakeMeta = { clientIp: '203.0.113.7', userAgent: 'ua/1', origin: null, referer: null };
  const started = async (store: Database) => {
    const hot = store.hot as SqliteHotWriter;
    for (let waited = 0; hot.searchIndexStart === null; waited += 20) {
      if (waited > 30_000) throw new Error('the search index thread never caught up');
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    return hot.searchIndexStart;
  };

  it('a start after a stop indexes only the leads and changes made while the server was down', async () => {
    const seeded = await world.seed();
    const source = await openIntake({ ctx: world.ctx, input: { token: parseIntakeToken(seeded.source.token) } });
    for (const word of ['quokka', 'wombat', 'numbat', 'dingo']) {
      await submitLead({
        ctx: world.ctx,
        input: { source, body: { name: `Lead ${word}`, email: `${word}@example.com` }, meta },
      });
    }
    expect((await started(world.store))?.start).toBe('rebuilt');
    const check = new SearchIndex(world.testDb.url, { rebuild: false });
    try {
      while (check.backlog() > 0) await new Promise((resolve) => setTimeout(resolve, 20));
    } finally {
      check.close();
    }
    await world.store.close();

    // While the server is down: a lead deleted, one edited, one stored.
    const db = new BetterSqlite3(world.testDb.url);
    try {
      db.prepare("delete from leads where name = 'Lead wombat'").run();
      db.prepare("update leads set notes = 'call about a platypus' where name = 'Lead numbat'").run();
      const columns = db.prepare("select name from pragma_table_info('leads')").pluck().all() as string[];
      const own: Record<string, string> = {
        id: "'lead_while_down'",
        name: "'Lead echidna'",
        email: "'echidna@example.com'",
      };
      const values = columns.map((c) => own[c] ?? c);
      db.prepare(
        `insert into leads (${columns.join(', ')}) select ${values.join(', ')} from leads where name = 'Lead quokka'`,
      ).run();
    } finally {
      db.close();
    }

    restarted = openDatabase(world.config.database);
    const ctx = createDomainContext({ config: world.config, store: restarted, appSecret: world.appSecret });
    // A honeypot catch: a hot write that starts the threads and stores no lead.
    await submitLead({ ctx, input: { source, body: { name: 'Bot', website: 'x' }, meta } });
    expect(await started(restarted)).toEqual({ start: 'resumed', leads: 1, changes: 2 });
    const names = async (search: string) =>
      (await listLeads({ ctx: inWorkspace(ctx, seeded.workspaceId), input: { search } })).leads
        .map((l) => l.name)
        .sort();
    expect(await names('wombat')).toEqual([]);
    expect(await names('platypus')).toEqual(['Lead numbat']);
    expect(await names('echidna')).toEqual(['Lead echidna']);
    expect(await names('quokka')).toEqual(['Lead quokka']);
  });
});
