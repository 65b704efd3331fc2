import { leadCtx, quoteCtx } from '../helpers/contexts.js';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { inWorkspace } from '../../src/domain/context.js';
import { addInvoiceLine } from '../../src/domain/invoices/add-invoice-line.js';
import { createBlankInvoice } from '../../src/domain/invoices/create-blank-invoice.js';
import { updateInvoice } from '../../src/domain/invoices/update-invoice.js';
import { addQuoteLine } from '../../src/domain/quotes/add-quote-line.js';
import { createQuote } from '../../src/domain/quotes/create-quote.js';
import { sendQuote } from '../../src/domain/quotes/send-quote.js';
import { updateQuote } from '../../src/domain/quotes/update-quote.js';
import { openRuntime } from '../../src/runtime.js';
import { createTestDatabase, describeEachBackend, type TestDatabase } from '../helpers/backends.js';
import { cliJson } from '../helpers/cli.js';
import { serveProcess, type ServeProcess } from '../multi-instance/serve-process.js';

/** What identifies the person: each must be unreadable anywhere on disk after the erasure. */
const PERSON = {
  email: 'quinlan.zebedee-7731@example.com',
  phone: '+1 555 0199 7731',
  name: 'Quinlan Zebedee',
  userAgent: 'ErasureProbe/7731 (disk test)',
  idempotencyKey: 'erasure-probe-key-7731',
  // The quote's customer details (docs/quotes.md): its own spelling of the name, email and phone, the address, and a
  // line that names them.
  quoteName: 'Quinlan Q. Zebedee-Quote',
  quoteEmail: 'q.zebedee.quote-7731@example.com',
  quotePhone: '+1 555 0177 7731',
  quoteAddress: '7731 Zebedee Crescent, Erasureville',
  quoteLine: 'Refit of the Zebedee-7731 kitchen',
  // A draft invoice for the lead (never issued, so not the books): erased with its lines.
  invoiceAddress: '7731 Zebedee Draft Lane, Invoicetown',
  invoiceLine: 'Draft invoice line Zebedee-7731',
};

/** Occurrences of each marker in each file of the data directory (the database, its WAL, the search file, …). */
function occurrences(dir: string): Array<{ file: string; marker: string; count: number }> {
  const found: Array<{ file: string; marker: string; count: number }> = [];
  for (const file of fs.readdirSync(dir)) {
    const bytes = fs.readFileSync(path.join(dir, file));
    for (const [marker, value] of Object.entries(PERSON)) {
      let count = 0;
      for (let at = bytes.indexOf(value); at !== -1; at = bytes.indexOf(value, at + 1)) count += 1;
      if (count > 0) found.push({ file, marker, count });
    }
  }
  return found;
}

describeEachBackend('erasure leaves nothing of the person readable', (backend) => {
  let testDb: TestDatabase;
  let dataDir: string;
  let server: ServeProcess;
  const env: Record<string, string> = {};
  beforeAll(async () => {
    testDb = await createTestDatabase(backend);
    dataDir = testDb.dir;
    Object.assign(env, {
      DATABASE_URL: testDb.url,
      APP_SECRET: crypto.randomBytes(32).toString('base64url'),
      INTAKE_RATE_LIMIT: '0',
      PUBLIC_BASE_URL: 'http://erase.test',
    });
    server = await serveProcess([], env);
  });
  afterAll(async () => {
    await server?.stop();
    await testDb.drop();
  });

  it('after `person erase` on a running server: no byte of the email, phone, name, user agent, key or quote remains', async () => {
    const token = /Intake URL:\s+\S+\/api\/intake\/(\S+)/.exec(server.output())![1]!;
    const post = async (body: Record<string, string>, headers: Record<string, string> = {}) => {
      const res = await fetch(`${server.url}/api/intake/${token}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      });
      expect(res.status).toBe(200);
    };
    // Other people's leads around the person's, so their rows share pages with others that stay.
    for (let i = 0; i < 60; i += 1)
      await post({ name: `Bystander ${i}`, email: `bystander-${i}@example.com`, notes: 'x'.repeat(200) });
    await post(
      { name: PERSON.name, email: PERSON.email, phone: PERSON.phone, notes: 'Kitchen refit' },
      {
        'user-agent': PERSON.userAgent,
        'idempotency-key': PERSON.idempotencyKey,
      },
    );
    await post(
      { name: PERSON.name, email: PERSON.email.toUpperCase(), phone: PERSON.phone },
      { 'user-agent': PERSON.userAgent },
    );
    // A honeypot catch of the same person lands in quarantine.
    await post(
      { name: PERSON.name, email: PERSON.email, website: 'http://spam.example' },
      { 'user-agent': PERSON.userAgent },
    );
    // A quote on the person's lead, made and sent through the domain's verbs (another process beside the server).
    const runtime = await openRuntime(loadConfig(env), { poolSize: 2 });
    try {
      const ctx = runtime.ctx;
      const lead = await runtime.store.db
        .selectFrom('leads')
        .select('id')
        .where('email', '=', PERSON.email)
        .executeTakeFirstOrThrow();
      const draft = await createQuote({ ctx: await leadCtx(ctx, lead.id), input: { leadId: lead.id } });
      await updateQuote({
        ctx: await quoteCtx(ctx, draft.id),
        input: {
          quoteId: draft.id,
          details: {
            customerName: PERSON.quoteName,
            customerEmail: PERSON.quoteEmail,
            customerPhone: PERSON.quotePhone,
            customerAddress: PERSON.quoteAddress,
          },
        },
      });
      await addQuoteLine({
        ctx: await quoteCtx(ctx, draft.id),
        input: {
          quoteId: draft.id,
          line: { description: PERSON.quoteLine, quantity: '1', unit: 'fixed', price: '4200' },
        },
      });
      const sent = await sendQuote({
        ctx: await quoteCtx(ctx, draft.id),
        input: { quoteId: draft.id, by: { userId: null, label: 'erasure test' } },
      });
      expect(sent.quote.customer).toEqual({
        name: PERSON.quoteName,
        email: PERSON.quoteEmail,
        phone: PERSON.quotePhone,
        address: PERSON.quoteAddress,
      });
      const invoice = await createBlankInvoice({
        ctx: inWorkspace(ctx, draft.workspaceId),
        input: { leadId: lead.id },
      });
      await updateInvoice({
        ctx: inWorkspace(ctx, draft.workspaceId),
        input: { invoiceId: invoice.id, details: { customerAddress: PERSON.invoiceAddress } },
      });
      await addInvoiceLine({
        ctx: inWorkspace(ctx, draft.workspaceId),
        input: {
          invoiceId: invoice.id,
          line: { description: PERSON.invoiceLine, quantity: '1', unit: 'fixed', price: '4200' },
        },
      });
    } finally {
      await runtime.store.close();
    }
    for (let i = 60; i < 120; i += 1) await post({ name: `Bystander ${i}`, email: `bystander-${i}@example.com` });

    if (backend === 'sqlite') {
      // Written through the server's writer thread and copied into the file by its checkpoints: the probe is there.
      expect(occurrences(dataDir).map((o) => o.marker)).toEqual(
        expect.arrayContaining(['email', 'quoteAddress', 'quoteLine', 'invoiceAddress', 'invoiceLine']),
      );
    }
    // PostgreSQL: a transaction that began before the erasure and still holds its snapshot when VACUUM would run (a
    // background pass, another instance's request): VACUUM must not run until it ends, or it keeps the erased rows.
    if (backend === 'postgres') {
      const reader = new pg.Client({ connectionString: testDb.url });
      await reader.connect();
      await reader.query('begin isolation level repeatable read');
      await reader.query('select count(*) from leads');
      // It ends only once the erasure's delete has committed, so the erasure meets it open.
      const watcher = new pg.Client({ connectionString: testDb.url });
      await watcher.connect();
      void (async () => {
        while (
          Number((await watcher.query('select count(*) as n from leads where email = $1', [PERSON.email])).rows[0].n) >
          0
        ) {
          await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await new Promise((resolve) => setTimeout(resolve, 200));
        await reader.query('commit');
      })()
        .catch(() => undefined)
        .finally(() => void Promise.all([reader.end(), watcher.end()]).catch(() => undefined));
    }
    const erased = await cliJson<{
      deleted: { leads: string[]; quarantine: string[]; invoices: string[] };
      kept: unknown[];
      onDisk: Record<string, unknown>;
      backups: string;
    }>(['person', 'erase', '--workspace', 'Default', '--email', PERSON.email, '--yes'], env);
    expect(erased.deleted.leads).toHaveLength(2);
    expect(erased.deleted.quarantine).toHaveLength(1);
    expect(erased.deleted.invoices).toHaveLength(1);
    expect(erased.kept).toEqual([]);
    expect(erased.backups).toMatch(/^Backups made before this erasure still hold this data/);

    if (backend === 'sqlite') {
      expect(erased.onDisk).toEqual({ walTruncated: true });
      expect(occurrences(dataDir)).toEqual([]);
      // And after a clean restart (the search index is rebuilt from what is left).
      await server.stop();
      server = await serveProcess([], env);
      await post({ name: 'After restart', email: 'after@example.com' });
      expect(occurrences(dataDir)).toEqual([]);
      return;
    }
    expect(erased.onDisk).toEqual({
      vacuumed: [
        'leads',
        'quarantine',
        'idempotency_keys',
        'stage_history',
        'lead_unread',
        'lead_notes',
        'lead_events',
        'lead_search',
        'lead_search_pending',
        'quotes',
        'quote_lines',
        'quote_sections',
        'documents',
        'invoices',
        'invoice_lines',
        'outbox',
        'confirmation_sends',
      ],
    });
    // PostgreSQL: no row version, live or dead, of any table holds the person (pageinspect reads every tuple).
    const client = new pg.Client({ connectionString: testDb.url });
    await client.connect();
    try {
      await client.query('create extension if not exists pageinspect');
      const tables = await client.query<{ name: string }>(
        `select tablename as name from pg_tables where schemaname = 'public'`,
      );
      for (const { name } of tables.rows) {
        const pages = await client.query<{ n: number }>('select (pg_relation_size($1::regclass) / 8192)::int as n', [
          name,
        ]);
        for (let page = 0; page < pages.rows[0]!.n; page += 1) {
          const tuples = await client.query<{ t_data: Buffer | null }>(
            'select t_data from heap_page_items(get_raw_page($1, $2))',
            [name, page],
          );
          for (const { t_data: data } of tuples.rows) {
            if (!data) continue;
            for (const value of Object.values(PERSON))
              expect(data.includes(value), `${name} page ${page} holds ${value}`).toBe(false);
          }
        }
      }
    } finally {
      await client.end();
    }
  }, 120_000);
});
