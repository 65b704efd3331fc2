import { parse } from 'csv-parse/sync';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { csvText, guardText } from '../../../src/domain/csv-cells.js';
import { addPriceListItem } from '../../../src/domain/price-list/add-price-list-item.js';
import { exportPriceList } from '../../../src/domain/price-list/export-price-list.js';
import { importPriceList } from '../../../src/domain/price-list/import-price-list.js';
import { listPriceList } from '../../../src/domain/price-list/list-price-list.js';
import { unguardCell } from '../../../src/domain/price-list/price-list-csv.js';
import { describeEachBackend } from '../../helpers/backends.js';
import { createWorld, type TestWorld } from '../../helpers/test-app.js';

/** Names a person may type, rich in what the formula guard acts on: = + - @ after the start, a `;` or a `,`, and `'`. */
const name = fc
  .array(fc.constantFrom("'", '=', '+', '-', '@', ';', ',', ' ', '"', 'a', 'Z', '4', 'é', '%', '('), {
    minLength: 1,
    maxLength: 16,
  })
  .map((chars) => chars.join('').trim())
  .filter((text) => text !== '');

const NAMED = ["'=kept as typed", "'+44 tiles", '=SUM(A1)', "''=two", "Tiles, '-5 % off", "a;'@b", '-', "'"];

/**
 * The price list's CSV (docs/quotes.md, "The price list"): export guards only cells a spreadsheet would run as a
 * formula, and import takes off exactly that guard, so every name a person can type comes back as typed.
 */
describe('the formula guard and its undoing', () => {
  it('guards only what begins a formula, and unguarding gives back the text exactly', () => {
    fc.assert(
      fc.property(fc.oneof(name, fc.constantFrom(...NAMED)), (text) => {
        const cell = (parse(csvText([[text]]), { bom: true }) as string[][])[0]![0]!;
        expect(cell).toBe(guardText(text));
        expect(unguardCell(cell)).toBe(text);
        // What the guard leaves unguarded never begins a formula, at the start or after a separator.
        expect(cell).not.toMatch(/^[=+\-@]/);
        expect(cell).not.toMatch(/[;,]\s*[=+\-@]/);
      }),
      { numRuns: 2000 },
    );
  });

  it('leaves text that starts no formula as it is', () => {
    for (const text of ['Tiles', "O'Brien's paint", "'quoted'", 'Paint 10 L, white'])
      expect(guardText(text)).toBe(text);
  });
});

describeEachBackend('the price list exported and imported back', (backend) => {
  let world: TestWorld;
  let n = 0;
  beforeAll(async () => {
    world = await createWorld(backend);
  });
  afterAll(async () => {
    await world.close();
  });

  it('imports back to the very same items, replacing each by its name and adding none', async () => {
    const names = fc.uniqueArray(name, { minLength: 1, maxLength: 6, selector: (text) => text.toLowerCase() });
    const price = fc.integer({ min: -99_999, max: 99_999 }).map((cents) => (cents / 100).toFixed(2));
    await fc.assert(
      fc.asyncProperty(
        fc.oneof(
          names,
          fc.constant(NAMED.filter((text, i) => NAMED.findIndex((o) => o.toLowerCase() === text.toLowerCase()) === i)),
        ),
        price,
        async (list, unitPrice) => {
          const { workspaceId } = await world.seed(`Round trip ${(n += 1)}`);
          const ctx = world.ctx;
          for (const itemName of list)
            await addPriceListItem({
              ctx,
              input: { workspaceId, role: 'owner', item: { name: itemName, unit: 'each', price: unitPrice } },
            });
          const before = await listPriceList({ ctx, input: { workspaceId } });
          const csv = await exportPriceList({ ctx, input: { workspaceId } });
          expect(await importPriceList({ ctx, input: { workspaceId, role: 'owner', csv } })).toEqual({
            added: 0,
            updated: list.length,
          });
          const after = await listPriceList({ ctx, input: { workspaceId } });
          const same = (items: typeof before) => items.map(({ updatedAt: _u, ...rest }) => rest);
          expect(same(after)).toEqual(same(before));
        },
      ),
      { numRuns: backend === 'postgres' ? 25 : 12 },
    );
  }, 120_000);
});
