/**
 * The Leads inbox at 100,000 leads in one workspace on SQLite, and on PostgreSQL with BENCH_DATABASE_URL (or
 * TEST_DATABASE_URL; a database of its own is made and dropped) (docs/admin-app.md): the first inbox page, searches that
 * match one lead (a phone fragment, a phone's digits, a name without its accents: without an index, every row would
 * be looked at) and one that matches one lead in five (found by a scan in page order), and the per-pipeline unread
 * counts, each timed over repeated runs (median and p95); then the CSV export of all 100,000 in a separate process,
 * whose peak RSS is compared with exporting 1,000 (bounded memory means the two are close).
 *
 * On SQLite it also times a start: the runtime opened again, and the search index thread's start (kept when its
 * watermark fits, then catching up with 10 leads deleted and 10 stored while the server was down).
 *
 *   node --import tsx bench/inbox.ts            BENCH_LEADS=100000 BENCH_RUNS=30 BENCH_DATABASE_URL=postgres://…
 */
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadConfig } from '../src/config.js';
import { openRuntime } from '../src/runtime.js';
import { createWorkspace } from '../src/domain/workspaces/create-workspace.js';
import { createPipeline } from '../src/domain/pipelines/create-pipeline.js';
import { createSource } from '../src/domain/sources/create-source.js';
import { listLeads } from '../src/domain/leads/list-leads.js';
import { unreadCounts } from '../src/domain/leads/unread-counts.js';
import type { LeadTable } from '../src/storage/schema.js';
import { SearchIndex } from '../src/storage/search-index.js';
import { searchDocument } from '../src/storage/search-text.js';
import pg from 'pg';
import { phoneKey } from '../src/storage/contact-keys.js';
import { leadRow } from '../test/helpers/hot-rows.js';
import { inWorkspace } from '../src/domain/context.js';

const LEADS = Number(process.env.BENCH_LEADS ?? 100_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 30);

function quantile(sorted: number[], q: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
}

async function timed(runs: number, fn: () => Promise<unknown>): Promise<{ median: number; p95: number }> {
  await fn(); // warm the page cache and the statement cache
  const samples: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    await fn();
    samples.push(performance.now() - start);
  }
  samples.sort((a, b) => a - b);
  return { median: quantile(samples, 0.5), p95: quantile(samples, 0.95) };
}

interface ExportFigures {
  rows: number;
  bytes: number;
  ms: number;
  maxRssMb: number;
}

/** Runs the export in a fresh process, so its peak RSS is the export's and not the seeding's. */
function exportInChild(env: Record<string, string>, search?: string): Promise<ExportFigures> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', path.join(import.meta.dirname, 'inbox-export-child.ts')],
      {
        env: { ...process.env, ...env, ...(search ? { BENCH_SEARCH: search } : {}) },
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    );
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString('utf8')));
    child.on('error', reject);
    child.on('close', (code) =>
      code === 0 ? resolve(JSON.parse(out) as ExportFigures) : reject(new Error(`export child exited ${code}`)),
    );
  });
}

/** A PostgreSQL database of its own under `adminUrl`, and how to drop it. */
async function postgresDatabase(adminUrl: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `leadscan_bench_inbox_${crypto.randomBytes(4).toString('hex')}`;
  const admin = async (text: string) => {
    const client = new pg.Client({ connectionString: adminUrl });
    await client.connect();
    try {
      await client.query(text);
    } finally {
      await client.end();
    }
  };
  await admin(`create database ${name}`);
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return { url: url.toString(), drop: () => admin(`drop database if exists ${name} with (force)`) };
}

export async function benchInbox(backend: 'sqlite' | 'postgres' = 'sqlite', adminUrl = ''): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'leadscan-bench-inbox-'));
  const postgres = backend === 'postgres' ? await postgresDatabase(adminUrl) : null;
  const databaseUrl = postgres ? postgres.url : path.join(dir, 'leadscan.sqlite');
  const env = {
    DATABASE_URL: databaseUrl,
    APP_SECRET: crypto.randomBytes(32).toString('base64url'),
    LOG_LEVEL: 'silent',
  };
  let runtime = await openRuntime(loadConfig(env), { mayCreate: true });
  let { ctx } = runtime;
  try {
    const workspace = await createWorkspace({ ctx, input: { name: 'Bench' } });
    const pipeline = await createPipeline({ ctx: inWorkspace(ctx, workspace.id), input: { name: 'Sales' } });
    const sources = await Promise.all(
      ['Website form', 'Facebook ad'].map((name) =>
        createSource({ ctx: inWorkspace(ctx, workspace.id), input: { pipelineId: pipeline.id, name } }),
      ),
    );
    /** A leads row of the workspace's pipeline: the intake's shape (test/helpers/hot-rows.ts), in `stage`. */
    const inboxLead = (sourceId: string, stage: string): LeadTable => ({
      ...leadRow({ id: sourceId, pipeline_id: pipeline.id }, null),
      workspace_id: workspace.id,
      stage,
      restored_from: null,
    });
    const stages = ['inbox', 'inbox', 'inbox', 'contacted', 'quoted', 'won', 'lost'];
    const start = Date.UTC(2025, 0, 1);
    const seedStart = performance.now();
    const needle = Math.floor(LEADS / 3);
    for (let i = 0; i < LEADS; i += 500) {
      const rows: LeadTable[] = [];
      for (let j = i; j < Math.min(LEADS, i + 500); j++) {
        const phone = j === needle ? '+44 20 7946 0958' : `+1 555 ${String(j).padStart(7, '0')}`;
        rows.push({
          ...inboxLead(sources[j % 2]!.id, stages[j % stages.length]!),
          // The same lead has an accented name: searches without the accents must find it.
          name: j === needle ? 'Hélène Gagné' : `Customer ${j}`,
          // One lead has a phone number no other lead shares a fragment of: the search below must find it. The
          // others' digits are 1555 and seven more, so any 6 digits can occur in them (at 1,000,000 leads,
          // `7946 09` also finds +1 555 0794609 by its digits): the searches use 8 or more of the needle's.
          phone,
          email: `customer${j}@example.com`,
          address: `${j} Main Street`,
          notes: j % 5 === 0 ? 'Kitchen remodel, call after 5pm' : null,
          extra: JSON.stringify({
            budget: String(1000 + (j % 50) * 100),
            ...(j === needle ? { 'Project type': 'Attic loft conversion' } : {}),
          }),
          // A quarter of the leads came from a Google ad (migration 0038): the inbox's Campaign source filter.
          utm_source: j % 4 === 0 ? 'google' : null,
          received_at: new Date(start + j * 60_000).toISOString(),
          client_ip: '203.0.113.7',
          user_agent: 'Mozilla/5.0 (bench)',
          origin: 'https://example.com',
          referer: 'https://example.com/contact',
          email_key: `customer${j}@example.com`,
          phone_key: phoneKey(phone),
        });
      }
      await ctx.store.writer.write(async (trx) => {
        await trx.insertInto('leads').values(rows).execute();
        // PostgreSQL: each lead's search document, as the search mover leaves it under the trigram index (0025).
        if (postgres)
          await trx
            .insertInto('lead_search')
            .values(rows.map((row) => ({ lead_id: row.id, search_text: searchDocument(row) })))
            .execute();
        // Two in three leads have been opened.
        const opened = rows.filter((_, k) => (i + k) % 3 !== 0);
        if (opened.length > 0) {
          await trx
            .deleteFrom('lead_unread')
            .where(
              'lead_id',
              'in',
              opened.map((r) => r.id),
            )
            .execute();
        }
      });
    }
    const seedMs = performance.now() - seedStart;
    let indexMs = 0;
    let startLine = '';
    if (!postgres) {
      // The search index file, built from nothing as the server's index thread does on a first start.
      const indexStart = performance.now();
      const index = new SearchIndex(databaseUrl, { rebuild: true });
      try {
        while (index.step() > 0);
      } finally {
        index.close();
      }
      indexMs = performance.now() - indexStart;
      // A stop, 10 leads deleted and 10 stored meanwhile (as the CLI would), then a start: the runtime opened again
      // (connect, migrations checked), and the index thread's start and catch-up.
      await runtime.store.close();
      const down = await openRuntime(loadConfig(env));
      const gone = await down.store.db.selectFrom('leads').select('id').orderBy('received_at').limit(10).execute();
      await down.store.writer.write((trx) =>
        trx
          .deleteFrom('leads')
          .where(
            'id',
            'in',
            gone.map((g) => g.id),
          )
          .execute(),
      );
      await down.store.writer.write((trx) =>
        trx
          .insertInto('leads')
          .values(
            gone.map((_, k) => ({
              ...inboxLead(sources[0]!.id, 'inbox'),
              name: `Late ${k}`,
              email: `late${k}@example.com`,
            })),
          )
          .execute(),
      );
      await down.store.close();
      const openStart = performance.now();
      runtime = await openRuntime(loadConfig(env));
      ctx = runtime.ctx;
      const openMs = performance.now() - openStart;
      const resumeStart = performance.now();
      const resumed = new SearchIndex(databaseUrl, { rebuild: 'unless-current' });
      try {
        while (resumed.step() > 0);
        const resumeMs = performance.now() - resumeStart;
        startLine =
          `  start: runtime opened in ${openMs.toFixed(0)} ms; search index ${resumed.start} and caught up in ${resumeMs.toFixed(0)} ms ` +
          `(${resumed.done.leads} leads indexed, ${resumed.done.changes} changes applied; a rebuild took ${(indexMs / 1000).toFixed(1)} s)`;
      } finally {
        resumed.close();
      }
    }
    await import('kysely').then(({ sql }) => sql`analyze`.execute(ctx.store.db));

    const scoped = inWorkspace(ctx, workspace.id);
    const input = { pipelineId: pipeline.id };
    const firstPage = await listLeads({ ctx: scoped, input });
    const found = await listLeads({ ctx: scoped, input: { ...input, search: '20 7946 09' } });
    const byDigits = await listLeads({ ctx: scoped, input: { ...input, search: '2079460958' } });
    const byFolded = await listLeads({ ctx: scoped, input: { ...input, search: 'GAGNE' } });
    if (
      firstPage.leads.length !== 50 ||
      found.leads.length !== 1 ||
      byDigits.leads.length !== 1 ||
      byFolded.leads.length !== 1
    )
      throw new Error('the inbox queries do not answer what they should');
    // A custom answer (an extra field's value) is searched like the lead's own fields; one lead has this one.
    const byAnswer = await listLeads({ ctx: scoped, input: { ...input, search: 'LOFT CONVERSION' } });
    const byUtm = await listLeads({ ctx: scoped, input: { ...input, utmSource: 'google' } });
    if (byAnswer.leads.length !== 1 || byUtm.leads.length !== 50)
      throw new Error('the custom-answer search or the utm_source filter does not answer what it should');
    const unread = (await unreadCounts({ ctx: scoped, input: {} }))[0]!.unread;

    const page = await timed(RUNS, () => listLeads({ ctx: scoped, input }));
    const nextPage = await timed(RUNS, () =>
      listLeads({ ctx: scoped, input: { ...input, cursor: firstPage.nextCursor! } }),
    );
    const filtered = await timed(RUNS, () =>
      listLeads({ ctx: scoped, input: { ...input, stage: 'quoted', source: 'Facebook ad' } }),
    );
    const search = await timed(RUNS, () => listLeads({ ctx: scoped, input: { ...input, search: '20 7946 09' } }));
    const searchCommon = await timed(RUNS, () => listLeads({ ctx: scoped, input: { ...input, search: 'kitchen' } }));
    const searchDigits = await timed(RUNS, () => listLeads({ ctx: scoped, input: { ...input, search: '2079460958' } }));
    const searchFolded = await timed(RUNS, () => listLeads({ ctx: scoped, input: { ...input, search: 'GAGNE' } }));
    const searchCommonFolded = await timed(RUNS, () =>
      listLeads({ ctx: scoped, input: { ...input, search: 'KÏTCHEN' } }),
    );
    const searchAnswer = await timed(RUNS, () =>
      listLeads({ ctx: scoped, input: { ...input, search: 'LOFT CONVERSION' } }),
    );
    const utmFilter = await timed(RUNS, () => listLeads({ ctx: scoped, input: { ...input, utmSource: 'google' } }));
    const counts = await timed(RUNS, () => unreadCounts({ ctx: scoped, input: {} }));
    await runtime.store.close();
    const label = postgres ? 'PostgreSQL' : 'SQLite';
    if (postgres) {
      // The export child reads SQLite files; on PostgreSQL the figures above are the ones that differ.
      return [
        `${label}, ${LEADS.toLocaleString('en')} leads in one workspace (seeded in ${(seedMs / 1000).toFixed(1)} s), ${RUNS} runs each, median / p95:`,
        `  first inbox page (50, newest first)          ${page.median.toFixed(1)} ms / ${page.p95.toFixed(1)} ms`,
        `  search "20 7946 09" (one match)              ${search.median.toFixed(1)} ms / ${search.p95.toFixed(1)} ms`,
        `  search "GAGNE" (one match, "Gagné")          ${searchFolded.median.toFixed(1)} ms / ${searchFolded.p95.toFixed(1)} ms`,
        `  search "kitchen" (scan)                      ${searchCommon.median.toFixed(1)} ms / ${searchCommon.p95.toFixed(1)} ms`,
        `  search "LOFT CONVERSION" (one custom answer) ${searchAnswer.median.toFixed(1)} ms / ${searchAnswer.p95.toFixed(1)} ms`,
        `  utm_source filter (a quarter match)          ${utmFilter.median.toFixed(1)} ms / ${utmFilter.p95.toFixed(1)} ms`,
        `  unread counts (${unread.toLocaleString('en')} of them)           ${counts.median.toFixed(1)} ms / ${counts.p95.toFixed(1)} ms`,
      ].join('\n');
    }

    const small = await exportInChild({ ...env, BENCH_WORKSPACE: workspace.id }, 'customer1');
    const all = await exportInChild({ ...env, BENCH_WORKSPACE: workspace.id });
    const ms = (n: number) => `${n.toFixed(1)} ms`;
    // Every fifth lead's notes mention a kitchen.
    const kitchens = Math.ceil(LEADS / 5).toLocaleString('en');
    const lines = [
      `${label}, ${LEADS.toLocaleString('en')} leads in one workspace (seeded in ${(seedMs / 1000).toFixed(1)} s, search index built in ${(indexMs / 1000).toFixed(1)} s), ${RUNS} runs each, median / p95:`,
      startLine,
      `  first inbox page (50, newest first)          ${ms(page.median)} / ${ms(page.p95)}`,
      `  second page (cursor)                         ${ms(nextPage.median)} / ${ms(nextPage.p95)}`,
      `  stage + source filter                        ${ms(filtered.median)} / ${ms(filtered.p95)}`,
      `  search "20 7946 09" (one match: trigram index) ${ms(search.median)} / ${ms(search.p95)}`,
      `  search "kitchen" (${kitchens} matches: scan)     ${ms(searchCommon.median)} / ${ms(searchCommon.p95)}`,
      `  search "2079460958" (one phone's digits)     ${ms(searchDigits.median)} / ${ms(searchDigits.p95)}`,
      `  search "GAGNE" (one match, "Gagné")          ${ms(searchFolded.median)} / ${ms(searchFolded.p95)}`,
      `  search "KÏTCHEN" (${kitchens} matches: scan)     ${ms(searchCommonFolded.median)} / ${ms(searchCommonFolded.p95)}`,
      `  search "LOFT CONVERSION" (one custom answer) ${ms(searchAnswer.median)} / ${ms(searchAnswer.p95)}`,
      `  utm_source filter (a quarter match)          ${ms(utmFilter.median)} / ${ms(utmFilter.p95)}`,
      `  unread counts (${unread.toLocaleString('en')} of them)           ${ms(counts.median)} / ${ms(counts.p95)}`,
      `CSV export, own process, peak RSS:`,
      `  ${all.rows.toLocaleString('en')} leads: ${(all.bytes / 1e6).toFixed(1)} MB in ${(all.ms / 1000).toFixed(1)} s, peak RSS ${all.maxRssMb.toFixed(0)} MB`,
      `  ${small.rows.toLocaleString('en')} leads: ${(small.bytes / 1e6).toFixed(1)} MB in ${(small.ms / 1000).toFixed(1)} s, peak RSS ${small.maxRssMb.toFixed(0)} MB`,
    ];
    return lines.join('\n');
  } finally {
    await runtime.store.close();
    fs.rmSync(dir, { recursive: true, force: true });
    await postgres?.drop();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  process.stdout.write(`${await benchInbox()}\n`);
  const adminUrl = process.env.BENCH_DATABASE_URL?.trim() || process.env.TEST_DATABASE_URL?.trim();
  if (adminUrl) process.stdout.write(`${await benchInbox('postgres', adminUrl)}\n`);
}
