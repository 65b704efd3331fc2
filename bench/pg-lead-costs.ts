/**
 * What each index, trigger and foreign key of `leads` costs a lead on PostgreSQL, in the database's own CPU time:
 *
 *   node --import tsx bench/pg-lead-costs.ts        # BENCH_DATABASE_URL (default: the local postgres), BENCH_ROUNDS
 *
 * A database is migrated once (one workspace, pipeline and source, made by the domain verbs) and used as a template.
 * For each variant, in alternating rounds: a copy of the template with one piece taken away (or the schema as it was
 * before migration 0042, for a before and after in one run), SEED leads stored, then LEADS more timed. Both go through the intake's own statement (the hot writer's, batches of BATCH as a
 * busy event loop hands them over), on one connection, and the cost is that connection's server process's CPU time
 * (user + system, from /proc) per lead, so other work on the machine moves it far less than a request rate. The
 * search mover's share (documents moved under the trigram index) is the same connection's CPU while it moves them.
 * Each lead has its own email and phone, as a flood through rotating addresses has.
 */
import fs from 'node:fs';
import { CompiledQuery, Kysely, PostgresDialect } from 'kysely';
import pg from 'pg';
import { emailKey, phoneKey } from '../src/storage/contact-keys.js';
import { LEADS_STATEMENT, leadsStatementParams } from '../src/storage/postgres-hot-writer.js';
import { moveAllSearchDocuments } from '../src/storage/postgres-search-mover.js';
import type { Schema } from '../src/storage/schema.js';
import { benchLead, seedBenchDatabase, type BenchDatabase } from './setup.js';

const ADMIN =
  process.env.BENCH_DATABASE_URL ?? process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const SEED = Number(process.env.BENCH_SEED_LEADS ?? 20_000);
const LEADS = Number(process.env.BENCH_LEADS ?? 20_000);
const BATCH = 25;
/** BENCH_VARIANTS: comma-separated parts of variant names, to run only those (and "as built"). */
const ONLY = process.env.BENCH_VARIANTS?.split(',')
  .map((part) => part.trim())
  .filter(Boolean);

/** What each variant changes in its copy of the migrated schema ('' = as built). */
const VARIANTS: ReadonlyArray<readonly [name: string, sql: string]> = [
  ['as built', ''],
  [
    'as before migration 0042',
    'create index leads_email on leads (lower(email)); drop index leads_pipeline_assignee_received; ' +
      'create index leads_pipeline_assignee_received on leads (pipeline_id, assignee_user_id, received_at, id); ' +
      'create index lead_unread_pipeline on lead_unread (pipeline_id); ' +
      'alter table leads drop constraint leads_pipeline_workspace_fkey, ' +
      'add constraint leads_workspace_id_fkey foreign key (workspace_id) references workspaces (id), ' +
      'add constraint leads_pipeline_id_fkey foreign key (pipeline_id) references pipelines (id); ' +
      'alter table lead_search_pending add constraint lead_search_pending_lead_id_fkey foreign key (lead_id) references leads (id) on delete cascade; ' +
      'alter table lead_search add constraint lead_search_lead_id_fkey foreign key (lead_id) references leads (id) on delete cascade',
  ],
  ['without leads_pipeline_received_id', 'drop index leads_pipeline_received_id'],
  ['without leads_pipeline_stage_received', 'drop index leads_pipeline_stage_received'],
  ['without leads_source_received', 'drop index leads_source_received'],
  ['without leads_workspace_received', 'drop index leads_workspace_received'],
  ['without leads_workspace_email_key', 'drop index leads_workspace_email_key'],
  ['without leads_workspace_phone_key', 'drop index leads_workspace_phone_key'],
  ['without the (pipeline, workspace) foreign key', 'alter table leads drop constraint leads_pipeline_workspace_fkey'],
  ['without the source foreign key', 'alter table leads drop constraint leads_source_id_fkey'],
  ['without the unread-mark trigger', 'drop trigger leads_unread_insert on leads'],
  ['without the trigram index', 'drop index lead_search_text'],
  ['search documents in an unlogged table', 'alter table lead_search set unlogged'],
];

const NOTES = 'Please call after 5 pm on weekdays; the side door is easier. '.repeat(10);

function lead(target: BenchDatabase, n: number) {
  const email = `ada.${n}@example.com`;
  const phone = `+44 20 7${String(n).padStart(6, '0')}`;
  return benchLead(target, {
    name: 'Ada Lovelace',
    email,
    phone,
    notes: NOTES,
    email_key: emailKey(email),
    phone_key: phoneKey(phone),
  });
}

/** user + system CPU time of a process, in microseconds. */
function cpuMicros(pid: number): number {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1e6) / 100; // utime, stime: fields 14, 15 of stat; CLK_TCK 100
}

function urlOf(database: string): string {
  const url = new URL(ADMIN);
  url.pathname = `/${database}`;
  return url.toString();
}

interface Cost {
  insert: number;
  move: number;
}

async function measure(template: string, target: BenchDatabase, sqlText: string, copy: string): Promise<Cost> {
  const admin = new pg.Client({ connectionString: ADMIN });
  await admin.connect();
  await admin.query(`create database ${copy} template ${template}`);
  await admin.end();
  const pool = new pg.Pool({ connectionString: urlOf(copy), max: 1 });
  pool.on('error', () => {}); // the copy is dropped with (force) at the end
  const db = new Kysely<Schema>({ dialect: new PostgresDialect({ pool }) });
  try {
    if (sqlText) await db.executeQuery(CompiledQuery.raw(sqlText));
    const pid = Number(
      (await db.executeQuery<{ pid: number }>(CompiledQuery.raw('select pg_backend_pid() as pid'))).rows[0]!.pid,
    );
    const store = async (from: number, count: number) => {
      for (let i = from; i < from + count; i += BATCH) {
        const leads = Array.from({ length: Math.min(BATCH, from + count - i) }, (_, k) => lead(target, i + k));
        await pool.query({ ...LEADS_STATEMENT, values: leadsStatementParams(leads, []) });
      }
    };
    await store(0, SEED);
    await moveAllSearchDocuments(db);
    const t0 = cpuMicros(pid);
    await store(SEED, LEADS);
    const t1 = cpuMicros(pid);
    await moveAllSearchDocuments(db);
    const t2 = cpuMicros(pid);
    return { insert: (t1 - t0) / LEADS, move: (t2 - t1) / LEADS };
  } finally {
    await db.destroy();
    const admin2 = new pg.Client({ connectionString: ADMIN });
    await admin2.connect();
    await admin2.query(`drop database if exists ${copy} with (force)`);
    await admin2.end();
  }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

async function main(): Promise<void> {
  const template = `leadscan_costs_${process.pid}`;
  const admin = new pg.Client({ connectionString: ADMIN });
  await admin.connect();
  await admin.query(`create database ${template}`);
  try {
    const target = await seedBenchDatabase(urlOf(template));
    // A template must have no other session: seedBenchDatabase closed its store.
    const results = new Map<string, Cost[]>();
    for (let round = 0; round < ROUNDS; round++) {
      for (const [name, sqlText] of VARIANTS.filter(
        ([name]) => name === 'as built' || !ONLY || ONLY.some((part) => name.includes(part)),
      )) {
        const cost = await measure(template, target, sqlText, `${template}_v`);
        results.set(name, [...(results.get(name) ?? []), cost]);
        process.stderr.write(`round ${round + 1}: ${name}: ${cost.insert.toFixed(1)} + ${cost.move.toFixed(1)} µs\n`);
      }
    }
    const base = median(results.get('as built')!.map((c) => c.insert + c.move));
    const lines = [
      `\n== leads on PostgreSQL: the database's CPU per lead, by what the schema has; ${SEED} leads stored, then ${LEADS} timed in batches of ${BATCH};`,
      `   medians of ${ROUNDS} alternating rounds; load average ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')} at the end`,
      '| schema | insert µs/lead | search mover µs/lead | total µs/lead | saved against as built |',
      '|---|---|---|---|---|',
    ];
    for (const [name] of VARIANTS) {
      const costs = results.get(name);
      if (!costs) continue;
      const total = median(costs.map((c) => c.insert + c.move));
      const cells = [median(costs.map((c) => c.insert)), median(costs.map((c) => c.move)), total].map((v) =>
        v.toFixed(1),
      );
      lines.push(`| ${name} | ${cells.join(' | ')} | ${name === 'as built' ? '-' : (base - total).toFixed(1)} |`);
    }
    process.stdout.write(`${lines.join('\n')}\n`);
  } finally {
    await admin.query(`drop database if exists ${template} with (force)`);
    await admin.end();
  }
}

await main();
