import fc from 'fast-check';
import { sql, type Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { backfillOpenTotals } from '../../src/storage/migrations/0055-invoice-open-totals-kept.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';

/**
 * The outstanding totals kept per workspace, currency and due day by the triggers of migration 0055 are, after any
 * run of inserts, updates and deletes of invoices (one row or several a statement), what summing the open invoices
 * gives: sent, viewed or partly paid, not credit notes. No row of nothing open is left. The migration's backfill
 * writes the same rows.
 */
describeEachBackend('the open invoices totals kept by triggers', (backend) => {
  let world: TestWorld;
  const workspaces: string[] = [];

  beforeAll(async () => {
    world = await createWorld(backend);
    workspaces.push((await world.seed('Acme')).workspaceId, (await world.seed('Bright Floors')).workspaceId);
  });
  afterAll(async () => world.close());

  const STATUSES = ['draft', 'sent', 'viewed', 'partly_paid', 'paid', 'void'] as const;
  const fields = fc.record({
    workspace: fc.integer({ min: 0, max: 1 }),
    status: fc.constantFrom(...STATUSES),
    credit: fc.boolean(),
    currency: fc.constantFrom('USD', 'EUR'),
    due: fc.option(fc.constantFrom<string>('2026-11-01', '2026-11-02', '2026-12-15'), { nil: null }),
    balance: fc.integer({ min: -50_000, max: 5_000_000 }),
  });
  type Fields = typeof fields extends fc.Arbitrary<infer T> ? T : never;
  const step = fc.oneof(
    fc.record({ op: fc.constant('insert' as const), rows: fc.array(fields, { minLength: 1, maxLength: 4 }) }),
    fc.record({ op: fc.constant('update' as const), pick: fc.nat(), many: fc.boolean(), set: fields }),
    fc.record({ op: fc.constant('delete' as const), pick: fc.nat(), many: fc.boolean() }),
  );

  const row = (id: string, f: Fields) => ({
    id,
    workspace_id: workspaces[f.workspace]!,
    kind: f.credit ? 'credit_note' : 'invoice',
    status: f.status,
    currency: f.currency,
    due_date: f.due,
    balance: f.balance,
    subtotal: 0,
    total: 0,
    paid: 0,
    credited: 0,
    view_count: 0,
    tax_rates: '[]',
    payment_terms_days: 14,
    created_at: '2026-11-01T10:00:00.000Z',
    updated_at: '2026-11-01T10:00:00.000Z',
  });

  const kept = async () =>
    (
      await world.store.db
        .selectFrom('invoice_open_totals')
        .selectAll()
        .orderBy('workspace_id')
        .orderBy('currency')
        .orderBy('due_date')
        .execute()
    ).map((r) => ({ ...r, open_count: Number(r.open_count), balance: Number(r.balance) }));

  /** The reference: the open invoices summed, as the totals' query did before migration 0055. */
  const summed = async () =>
    (
      await sql<{ workspace_id: string; currency: string; due_date: string; open_count: number; balance: number }>`
        select workspace_id, currency, coalesce(due_date, '') as due_date, count(*) as open_count,
          sum(balance) as balance from invoices
        where status in ('sent', 'viewed', 'partly_paid') and kind <> 'credit_note'
        group by workspace_id, currency, coalesce(due_date, '')
        order by workspace_id, currency, due_date`.execute(world.store.db)
    ).rows.map((r) => ({ ...r, open_count: Number(r.open_count), balance: Number(r.balance) }));

  it('equal the open invoices summed after any run of writes, a row or several a statement', async () => {
    let next = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 1, maxLength: 12 }), async (steps) => {
        const db = world.store.db;
        await db.deleteFrom('invoices').execute();
        for (const s of steps) {
          const ids = (await db.selectFrom('invoices').select('id').orderBy('id').execute()).map((r) => r.id);
          if (s.op === 'insert') {
            await db
              .insertInto('invoices')
              .values(s.rows.map((f) => row(`ivc_${String(++next).padStart(6, '0')}`, f)))
              .execute();
          } else if (ids.length > 0) {
            // One invoice, or every one from the picked one on: a statement of several rows.
            const from = ids[s.pick % ids.length]!;
            const which = s.many ? db.selectFrom('invoices').select('id').where('id', '>=', from) : [from];
            if (s.op === 'delete') await db.deleteFrom('invoices').where('id', 'in', which).execute();
            else {
              const { id: _id, created_at: _c, updated_at: _u, ...set } = row('', s.set);
              await db.updateTable('invoices').set(set).where('id', 'in', which).execute();
            }
          }
          expect(await kept()).toEqual(await summed());
        }
        expect((await kept()).filter((r) => r.open_count === 0)).toEqual([]);
      }),
      { numRuns: 25 },
    );
  });

  it("only what changes an invoice's part writes: a view or a note leaves the totals as they are", async () => {
    const db = world.store.db;
    await db.deleteFrom('invoices').execute();
    const f: Fields = { workspace: 0, status: 'sent', credit: false, currency: 'USD', due: '2026-11-02', balance: 700 };
    await db
      .insertInto('invoices')
      .values([row('ivc_a', f), row('ivc_b', { ...f, balance: 300 })])
      .execute();
    expect(await kept()).toEqual([
      { workspace_id: workspaces[0], currency: 'USD', due_date: '2026-11-02', open_count: 2, balance: 1000 },
    ]);
    await db.updateTable('invoices').set({ view_count: 3, note: 'Gate code 1234' }).execute();
    expect(await kept()).toEqual(await summed());
    await db.updateTable('invoices').set({ status: 'paid', balance: 0 }).where('id', '=', 'ivc_a').execute();
    expect(await kept()).toEqual([
      { workspace_id: workspaces[0], currency: 'USD', due_date: '2026-11-02', open_count: 1, balance: 300 },
    ]);
  });

  it("the migration's backfill writes the rows the triggers kept", async () => {
    const db = world.store.db;
    await db.deleteFrom('invoices').execute();
    const values = Array.from({ length: 40 }, (_, i) =>
      row(`ivc_${i}`, {
        workspace: i % 2,
        status: STATUSES[i % STATUSES.length]!,
        credit: i % 7 === 0,
        currency: i % 5 === 0 ? 'EUR' : 'USD',
        due: i % 9 === 0 ? null : `2026-11-${String(1 + (i % 4)).padStart(2, '0')}`,
        balance: 1000 + i * 37,
      }),
    );
    await db.insertInto('invoices').values(values).execute();
    const written = await kept();
    expect(written.length).toBeGreaterThan(6);
    expect(written).toEqual(await summed());
    await db.deleteFrom('invoice_open_totals').execute();
    await backfillOpenTotals(db as unknown as Kysely<unknown>);
    expect(await kept()).toEqual(written);
  });
});
