/**
 * What `secure_delete` costs the intake's writes on SQLite: the writer thread's real lead INSERT (with its triggers)
 * into a migrated database, in transactions of 20 leads with synchronous=FULL, with secure_delete off and on, in
 * alternating rounds of one run. Also a delete-heavy case (quarantine pruning, erasures), where zeroing happens.
 *
 *   node --import tsx bench/secure-delete.ts        # BENCH_LEADS=40000 BENCH_ROUNDS=6
 */
import fs from 'node:fs';
import path from 'node:path';
import BetterSqlite3 from 'better-sqlite3';
import { leadInsert, leadInsertParams, type LeadInsertValues } from '../src/storage/hot-writes/lead.js';
import { Markers } from '../src/storage/hot-writes/sql-parts.js';
import { benchDir, benchLead, seedBenchDatabase, type BenchDatabase } from './setup.js';

const LEADS = Number(process.env.BENCH_LEADS ?? 40_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 6);
const BATCH = 20;
const dir = benchDir('secure-delete');

type Target = Pick<BenchDatabase, 'file' | 'sourceId' | 'pipelineId'>;

function open(file: string, secureDelete: boolean): BetterSqlite3.Database {
  const db = new BetterSqlite3(file);
  for (const pragma of ['journal_mode = WAL', 'synchronous = FULL', 'foreign_keys = ON', 'temp_store = MEMORY'])
    db.pragma(pragma);
  db.pragma(`secure_delete = ${secureDelete ? 'ON' : 'OFF'}`);
  return db;
}

function lead(target: Target, i: number): LeadInsertValues {
  return benchLead(target, {
    name: `Ada Lovelace ${i}`,
    phone: '+44 20 7946 0958',
    email: `ada-${i}@example.com`,
    address: '12 St James’s Square, London',
    notes: 'Kitchen refit, about 12 m². Please call after 5 pm. '.repeat(6),
    extra: '{"source":"landing-page-b"}',
    received_at: new Date(Date.UTC(2026, 0, 1) + i).toISOString(),
    client_ip: '203.0.113.7',
    user_agent: 'Mozilla/5.0 (bench)',
    origin: 'https://example.com',
    referer: 'https://example.com/quote',
    email_key: `ada-${i}@example.com`,
    phone_key: '2079460958',
  });
}

/** µs per lead to insert `count` leads in transactions of BATCH. */
function insertRound(db: BetterSqlite3.Database, target: Target, start: number, count: number): number {
  const insert = db.prepare(leadInsert(new Markers('sqlite'), { guarded: true }));
  const began = process.hrtime.bigint();
  for (let i = start; i < start + count; i += BATCH) {
    db.exec('begin immediate');
    for (let j = i; j < Math.min(i + BATCH, start + count); j += 1)
      insert.run(leadInsertParams('sqlite', [lead(target, j)]));
    db.exec('commit');
  }
  return Number(process.hrtime.bigint() - began) / 1000 / count;
}

/** µs per lead to delete `count` leads, one transaction per BATCH (like pruning or erasing). */
function deleteRound(db: BetterSqlite3.Database, count: number): number {
  const ids = db.prepare('select id from leads order by random() limit ?').pluck().all(count) as string[];
  const remove = db.prepare('delete from leads where id = ?');
  const began = process.hrtime.bigint();
  for (let i = 0; i < ids.length; i += BATCH) {
    db.exec('begin immediate');
    for (const id of ids.slice(i, i + BATCH)) remove.run(id);
    db.exec('commit');
  }
  return Number(process.hrtime.bigint() - began) / 1000 / Math.max(1, ids.length);
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

const migrated = (name: string) => seedBenchDatabase(path.join(dir, `${name}.sqlite`));
const targets = { off: await migrated('off'), on: await migrated('on') };
const results = {
  off: { insert: [] as number[], delete: [] as number[] },
  on: { insert: [] as number[], delete: [] as number[] },
};
const perRound = Math.floor(LEADS / ROUNDS);
for (let round = 0; round < ROUNDS; round += 1) {
  // Alternate which goes first, so neither always gets the warmer cache or the quieter moment.
  const order: Array<'off' | 'on'> = round % 2 === 0 ? ['off', 'on'] : ['on', 'off'];
  for (const mode of order) {
    const db = open(targets[mode].file, mode === 'on');
    results[mode].insert.push(insertRound(db, targets[mode], round * perRound, perRound));
    results[mode].delete.push(deleteRound(db, Math.floor(perRound / 4)));
    db.close();
  }
}
for (const kind of ['insert', 'delete'] as const) {
  const off = median(results.off[kind]);
  const on = median(results.on[kind]);
  process.stdout.write(
    `${kind.padEnd(6)} secure_delete off ${off.toFixed(1)} µs/lead, on ${on.toFixed(1)} µs/lead (${(((on - off) / off) * 100).toFixed(1)}%), median of ${ROUNDS} rounds\n`,
  );
}
fs.rmSync(dir, { recursive: true, force: true });
