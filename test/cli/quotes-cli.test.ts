import { quoteCtx } from '../helpers/contexts.js';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { sendQuote } from '../../src/domain/quotes/send-quote.js';
import { describeEachBackend } from '../helpers/backends.js';
import { cliJson, runCli } from '../helpers/cli.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';
import { leadOf, scanOf } from '../domain/quotes/quote-fixtures.js';

describeEachBackend('leadscan workspace settings, price-list and quotes (spawned CLI)', (backend) => {
  let world: TestWorld;
  let env: Record<string, string>;
  beforeAll(async () => {
    world = await createWorld(backend);
    env = { DATABASE_URL: world.testDb.url, APP_SECRET: world.appSecret, PUBLIC_BASE_URL: 'https://leads.example.com' };
  });
  afterAll(async () => {
    await world.close();
  }, 120_000);

  it('settings flags, the price list, and a quote drafted from a scan, shown in the documented shape', async () => {
    const ws = await world.seed('Painters');
    const settings = await cliJson<Record<string, unknown>>(
      [
        'workspace',
        'settings',
        'Painters',
        '--currency',
        'CAD',
        '--locale',
        'fr-CA',
        '--tax',
        'GST=5',
        '--tax',
        'QST=9.975',
        '--tax',
        'Eco=1:default-off',
        '--quote-valid-days',
        '14',
        '--quote-terms',
        'Half up front.',
        '--business-address',
        '1 rue Principale',
        '--business-phone',
        '+1 514 555 0100',
        '--business-email',
        'office@example.com',
        '--tax-number',
        'GST/HST=123456789 RT0001',
      ],
      env,
    );
    expect(settings).toMatchObject({
      currency: 'CAD',
      locale: 'fr-CA',
      taxes: [
        { name: 'GST', rate: 5000, onByDefault: true },
        { name: 'QST', rate: 9975, onByDefault: true },
        { name: 'Eco', rate: 1000, onByDefault: false },
      ],
      quoteValidDays: 14,
      taxNumbers: [{ name: 'GST/HST', value: '123456789 RT0001' }],
    });
    const removed = await cliJson<{ taxes: Array<{ name: string }> }>(
      ['workspace', 'settings', 'Painters', '--tax', 'Eco=off'],
      env,
    );
    expect(removed.taxes.map((t) => t.name)).toEqual(['GST', 'QST']);
    const bad = await runCli(['workspace', 'settings', 'Painters', '--currency', 'ZZZ', '--json'], env);
    expect(bad.code).toBe(1);
    expect(JSON.parse(bad.stdout)).toMatchObject({ ok: false, code: 'invalid_fields' });

    const tiles = await cliJson<{ id: string; unitPrice: number; taxes: string[] }>(
      [
        'price-list',
        'add',
        '--workspace',
        'Painters',
        '--name',
        'Tiles',
        '--unit',
        'm2',
        '--price',
        '35.00',
        '--measure',
        'floor_area',
        '--waste',
        '10',
        '--customer-description',
        'Porcelain, laid straight',
      ],
      env,
    );
    expect(tiles).toMatchObject({
      unitPrice: 3500,
      taxes: ['GST', 'QST'],
      customerDescription: 'Porcelain, laid straight',
    });
    const spare = await cliJson<{ id: string }>(
      [
        'price-list',
        'add',
        '--workspace',
        'Painters',
        '--name',
        '=cmd|x',
        '--unit',
        'each',
        '--price',
        '1',
        '--taxes',
        '',
      ],
      env,
    );
    const listed = await cliJson<Array<{ name: string }>>(['price-list', 'list', '--workspace', 'Painters'], env);
    expect(listed.map((i) => i.name)).toEqual(['=cmd|x', 'Tiles']);
    const csv = await runCli(['price-list', 'export', '--workspace', 'Painters'], env);
    expect(csv.code).toBe(0);
    expect(csv.stdout).toContain('"\'=cmd|x","each","1.00",,,"0","1",,\r\n');
    expect(csv.stdout).toContain(
      '"Tiles","m2","35.00","GST, QST","floor_area","10","1",,"Porcelain, laid straight"\r\n',
    );
    await cliJson(['price-list', 'remove', spare.id], env);
    const file = path.join(world.testDb.dir, 'prices.csv');
    fs.writeFileSync(file, 'name,unit,price,taxes,description\nCall-out,fixed,75,GST,"Travel, and the first hour"\n');
    expect(await cliJson(['price-list', 'import', '--workspace', 'Painters', file], env)).toEqual({
      added: 1,
      updated: 0,
    });
    const missing = await runCli(
      ['price-list', 'import', '--workspace', 'Painters', path.join(world.testDb.dir, 'missing.csv'), '--json'],
      env,
    );
    expect(JSON.parse(missing.stdout)).toMatchObject({ ok: false, code: 'invalid_arguments' });
    const imported = (
      await cliJson<Array<{ id: string; name: string; customerDescription: string | null }>>(
        ['price-list', 'list', '--workspace', 'Painters'],
        env,
      )
    ).find((i) => i.name === 'Call-out')!;
    expect(imported.customerDescription).toBe('Travel, and the first hour');

    const leadId = await leadOf(world, ws);
    const scanId = await scanOf(world, ws, leadId);
    const created = await cliJson<Record<string, unknown>>(
      ['quotes', 'create', '--lead', leadId, '--scan', scanId, '--item', tiles.id, '--room', '1'],
      env,
    );
    expect(Object.keys(created)).toEqual([
      'id',
      'number',
      'revision',
      'status',
      'leadId',
      'currency',
      'customer',
      'sections',
      'lines',
      'subtotal',
      'taxes',
      'total',
      'deposit',
      'validUntil',
      'sentAt',
      'viewedAt',
      'acceptedAt',
      'acceptedName',
      'declinedAt',
      'declineReason',
      'customerUrl',
    ]);
    expect(created).toMatchObject({
      number: null,
      status: 'draft',
      currency: 'CAD',
      customer: { name: 'Ada Lovelace', email: 'ada@example.com' },
      lines: [
        {
          // What the customer reads; how it was measured is the staff's note, in the workspace's locale.
          description: 'Tiles\nPorcelain, laid straight',
          quantity: 14.32,
          unit: 'm2',
          unitPrice: 3500,
          amount: 50120,
          taxes: ['GST', 'QST'],
          optional: false,
          chosen: true,
          source: {
            scanId,
            room: 1,
            measure: 'floor_area',
            waste: 10,
            coats: 1,
            pack: null,
            note: 'Kitchen: floor 13,02 m² + 10 % waste',
          },
        },
      ],
      subtotal: 50120,
      customerUrl: null,
    });
    const id = created.id as string;
    const added = await cliJson<{
      lines: unknown[];
      subtotal: number;
      taxes: Array<{ name: string; rate: number; amount: number }>;
      total: number;
    }>(
      [
        'quotes',
        'add-line',
        id,
        '--description',
        'Discount',
        '--quantity',
        '1',
        '--unit',
        'fixed',
        '--price',
        '-20.50',
        '--taxes',
        'GST',
      ],
      env,
    );
    expect(added.lines).toHaveLength(2);
    expect(added.subtotal).toBe(50120 - 2050);
    expect(added.taxes).toEqual([
      { name: 'GST', rate: 5, amount: 2404 }, // 5 % of 480.70 = 24.035 → 24.04
      { name: 'QST', rate: 9.975, amount: 4999 }, // 9.975 % of 501.20 = 49.9947 → 49.99
    ]);
    expect(added.total).toBe(48070 + 2404 + 4999);

    // A person sends it in the builder; the CLI then finds it by number and can withdraw it.
    const sent = await sendQuote({
      ctx: await quoteCtx(world.ctx, id),
      input: { quoteId: id, by: { userId: null, label: 'test' } },
    });
    const shown = await cliJson<{ number: string; status: string; customerUrl: string }>(
      ['quotes', 'show', 'Q-0001'],
      env,
    );
    expect(shown).toMatchObject({
      number: 'Q-0001',
      status: 'sent',
      customerUrl: `https://leads.example.com/q/${sent.token}`,
    });
    const list = await cliJson<Array<{ id: string; status: string }>>(
      ['quotes', 'list', '--workspace', 'Painters', '--status', 'sent'],
      env,
    );
    expect(list.map((q) => q.id)).toEqual([id]);
    expect(await cliJson(['quotes', 'list', '--workspace', 'Painters', '--status', 'draft'], env)).toEqual([]);
    const withdrawn = await cliJson<{ status: string }>(['quotes', 'withdraw', 'q-1'], env);
    expect(withdrawn.status).toBe('withdrawn');
    const again = await runCli(
      ['quotes', 'add-line', id, '--description', 'x', '--quantity', '1', '--unit', 'each', '--price', '1', '--json'],
      env,
    );
    expect(JSON.parse(again.stdout)).toMatchObject({ ok: false, code: 'quote_not_editable' });

    const human = await runCli(['quotes', 'show', id], env);
    expect(human.stdout).toContain('Q-0001');
    expect(human.stdout).toContain('Tiles Porcelain, laid straight (Kitchen: floor 13,02 m² + 10 % waste)');
    expect(human.stdout).toContain('Total: 554.73 CAD');
    const noSend = await runCli(['quotes', 'send', id], env);
    expect(noSend.code).toBe(1);
    expect(noSend.stderr).toMatch(/unknown command/);
  }, 180_000);
});
