import { quoteCtx } from '../helpers/contexts.js';
import { inWorkspace } from '../../src/domain/context.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { lineAmount } from '../../src/domain/money.js';
import { createQuote } from '../../src/domain/quotes/create-quote.js';
import { reorderQuoteLines } from '../../src/domain/quotes/reorder-quote-lines.js';
import { updateQuoteLine } from '../../src/domain/quotes/update-quote-line.js';
import { insertQuoteLines } from '../../src/storage/quote-lines-sql.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { leadOf, quoteWorkspace } from '../domain/quotes/quote-fixtures.js';

/**
 * A quote's lines written as sets (storage/quote-lines-sql.ts): more lines than one statement's chunk, amounts past
 * 32 bits, and a stale amount on every line, each put right by one save, on both databases.
 */
describeEachBackend("a quote's lines written as sets", (backend) => {
  let world: TestWorld;
  let ws: Seeded;
  beforeAll(async () => {
    world = await createWorld(backend);
    ws = await quoteWorkspace(world, 'Sets');
  });
  afterAll(async () => {
    await world.close();
  });

  it('inserts 1,201 lines in order, re-prices stale amounts in one save, and reorders them all', async () => {
    const quote = await createQuote({
      ctx: inWorkspace(world.ctx, ws.workspaceId),
      input: { leadId: await leadOf(world, ws) },
    });
    const count = 1201;
    // Unit prices up to 120 million dollars: amounts past 2^31 cents, stored as 0 (stale) for the save to put right.
    const rows = Array.from({ length: count }, (_, i) => ({
      id: `qln_set${String(i).padStart(5, '0')}`,
      quote_id: quote.id,
      position: i,
      description: `Line ${i}`,
      quantity: 150 + i,
      unit: 'each',
      unit_price: 1_000_000 * (i + 1),
      amount: 0,
      taxes: '[]',
      optional: 0,
      chosen: 1,
      source: null,
    }));
    await world.store.writer.write((trx) => insertQuoteLines(trx, rows));

    const saved = await updateQuoteLine({
      ctx: await quoteCtx(world.ctx, quote.id),
      input: {
        quoteId: quote.id,
        lineId: rows[7]!.id,
        line: { description: 'Line 7', quantity: '1', unit: 'each', price: '1.00' },
      },
    });
    expect(saved.lines.map((l) => l.id)).toEqual(rows.map((r) => r.id));
    const stored = await world.store.db
      .selectFrom('quote_lines')
      .select(['id', 'quantity', 'unit_price', 'amount', 'position'])
      .where('quote_id', '=', quote.id)
      .orderBy('position')
      .execute();
    expect(stored).toHaveLength(count);
    for (const line of stored)
      expect(Number(line.amount)).toBe(lineAmount(Number(line.quantity), Number(line.unit_price)));
    expect(Number(stored[count - 1]!.amount)).toBeGreaterThan(2 ** 31);
    expect(saved.lines.map((l) => l.amount)).toEqual(stored.map((l) => Number(l.amount)));
    const sum = stored.reduce((total, l) => total + BigInt(l.amount), 0n);
    expect(BigInt(saved.subtotal)).toBe(sum);
    const row = await world.store.db
      .selectFrom('quotes')
      .select(['subtotal', 'total'])
      .where('id', '=', quote.id)
      .executeTakeFirstOrThrow();
    expect(BigInt(row.subtotal)).toBe(sum);

    const reversed = [...rows.map((r) => r.id)].reverse();
    const reordered = await reorderQuoteLines({
      ctx: await quoteCtx(world.ctx, quote.id),
      input: { quoteId: quote.id, lineIds: reversed },
    });
    expect(reordered.lines.map((l) => l.id)).toEqual(reversed);
    const positions = await world.store.db
      .selectFrom('quote_lines')
      .select(['id', 'position'])
      .where('quote_id', '=', quote.id)
      .orderBy('position')
      .execute();
    expect(positions.map((p) => p.id)).toEqual(reversed);
    expect(positions.map((p) => Number(p.position))).toEqual(reversed.map((_, i) => i));
  });
});
