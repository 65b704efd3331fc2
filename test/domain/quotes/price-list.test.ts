import { inWorkspace } from '../../../src/domain/context.js';
import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addPriceListItem } from '../../../src/domain/price-list/add-price-list-item.js';
import { exportPriceList } from '../../../src/domain/price-list/export-price-list.js';
import { importPriceList } from '../../../src/domain/price-list/import-price-list.js';
import { listPriceList } from '../../../src/domain/price-list/list-price-list.js';
import { removePriceListItem } from '../../../src/domain/price-list/remove-price-list-item.js';
import { updatePriceListItem } from '../../../src/domain/price-list/update-price-list-item.js';
import { updateWorkspaceSettings } from '../../../src/domain/settings/update-workspace-settings.js';
import { describeEachBackend } from '../../helpers/backends.js';
import { createWorld, type TestWorld } from '../../helpers/test-app.js';

describeEachBackend('the price list', (backend) => {
  let world: TestWorld;
  beforeAll(async () => {
    world = await createWorld(backend);
  });
  afterAll(async () => {
    await world.close();
  });

  const workspace = async (name: string, currency = 'CAD') => {
    const { workspaceId } = await world.seed(name);
    await updateWorkspaceSettings({
      ctx: world.ctx,
      input: {
        workspaceId,
        currency,
        taxes: [
          { name: 'GST', rate: '5' },
          { name: 'QST', rate: '9.975' },
          { name: 'Eco', rate: '1', onByDefault: false },
        ],
      },
    });
    return workspaceId;
  };

  it('adds items with the default taxes, exact prices, measures, waste, coats and packs; owners only', async () => {
    const workspaceId = await workspace('Items');
    const ctx = world.ctx;
    const paint = await addPriceListItem({
      ctx,
      input: {
        workspaceId,
        role: 'owner',
        item: {
          name: 'Paint walls',
          unit: 'm2',
          price: '12.40',
          measure: 'wall_area_net',
          waste: '10',
          coats: '2',
          pack: '',
        },
      },
    });
    expect(paint).toMatchObject({
      unit: 'm2',
      unitPrice: 1240,
      taxes: ['GST', 'QST'],
      measure: 'wall_area_net',
      waste: 10_000,
      coats: 200,
      pack: null,
    });
    const tiles = await addPriceListItem({
      ctx,
      input: {
        workspaceId,
        role: 'owner',
        item: {
          name: 'Tiles',
          unit: 'm2',
          price: '35',
          measure: 'floor_area',
          waste: '7.5',
          pack: '1.44',
          taxes: ['gst', 'ECO'],
        },
      },
    });
    expect(tiles).toMatchObject({ unitPrice: 3500, taxes: ['GST', 'Eco'], waste: 7500, coats: 100, pack: 144 });
    await expect(
      addPriceListItem({ ctx, input: { workspaceId, role: 'member', item: { name: 'X', unit: 'each', price: '1' } } }),
    ).rejects.toMatchObject({ code: 'owner_only' });
    await expect(
      updatePriceListItem({
        ctx,
        input: { workspaceId, role: 'member', itemId: paint.id, item: { name: 'X', unit: 'each', price: '1' } },
      }),
    ).rejects.toMatchObject({ code: 'owner_only' });
    await expect(
      removePriceListItem({ ctx: inWorkspace(ctx, workspaceId), input: { role: 'member', itemId: paint.id } }),
    ).rejects.toMatchObject({ code: 'owner_only' });
    await expect(
      importPriceList({ ctx, input: { workspaceId, role: 'member', csv: 'name,unit,price\nA,each,1\n' } }),
    ).rejects.toMatchObject({ code: 'owner_only' });

    const refused = await addPriceListItem({
      ctx,
      input: {
        workspaceId,
        role: 'owner',
        item: { name: '', unit: 'yards', price: '1.234', waste: '-1', taxes: ['PST'] },
      },
    }).catch((e: unknown) => e);
    expect(refused).toMatchObject({ code: 'invalid_fields' });
    expect((refused as { fieldErrors: Array<{ field: string }> }).fieldErrors.map((f) => f.field).sort()).toEqual([
      'name',
      'price',
      'taxes',
      'unit',
      'waste',
    ]);
    await expect(
      addPriceListItem({
        ctx,
        input: { workspaceId, role: 'owner', item: { name: 'Skirting', unit: 'm2', price: '3', measure: 'skirting' } },
      }),
    ).rejects.toMatchObject({
      code: 'invalid_fields',
      fieldErrors: [{ field: 'unit' }],
    });

    const changed = await updatePriceListItem({
      ctx,
      input: {
        workspaceId,
        role: 'owner',
        itemId: paint.id,
        item: { name: 'Paint walls', unit: 'm2', price: '13', measure: 'wall_area_net' },
      },
    });
    expect(changed.unitPrice).toBe(1300);
    expect((await listPriceList({ ctx, input: { workspaceId } })).map((i) => i.name)).toEqual(['Paint walls', 'Tiles']);
    await removePriceListItem({ ctx: inWorkspace(ctx, workspaceId), input: { role: 'owner', itemId: tiles.id } });
    expect((await listPriceList({ ctx, input: { workspaceId } })).map((i) => i.name)).toEqual(['Paint walls']);
    await expect(
      removePriceListItem({ ctx: inWorkspace(ctx, workspaceId), input: { role: 'owner', itemId: tiles.id } }),
    ).rejects.toMatchObject({ code: 'price_list_item_not_found' });
    const other = await workspace('Other');
    await expect(
      updatePriceListItem({
        ctx,
        input: { workspaceId: other, role: 'owner', itemId: paint.id, item: { name: 'P', unit: 'm2', price: '1' } },
      }),
    ).rejects.toMatchObject({
      code: 'price_list_item_not_found',
    });
  });

  it('exports CSV with formula cells guarded and imports it back to the same items', async () => {
    const source = await workspace('Export', 'KWD');
    const ctx = world.ctx;
    const items = [
      { name: '=HYPERLINK("http://evil.example","x")', unit: 'each', price: '1.250', taxes: [] },
      { name: 'Discount, loyal customer', unit: 'fixed', price: '-5.500', taxes: ['GST', 'QST'] },
      {
        name: 'Primer',
        unit: 'm2',
        price: '0.375',
        measure: 'ceiling_area',
        waste: '12.5',
        coats: '1.5',
        pack: '10',
        taxes: ['QST'],
        customerDescription: 'Stain-blocking, "one coat"\n=on bare plaster',
      },
      { name: 'Doors', unit: 'each', price: '40', measure: 'doors', taxes: ['Eco'] },
    ];
    for (const item of items) await addPriceListItem({ ctx, input: { workspaceId: source, role: 'owner', item } });
    const csv = await exportPriceList({ ctx, input: { workspaceId: source } });
    expect(
      csv.startsWith('\uFEFF"name","unit","price","taxes","measure","waste","coats","pack","description"\r\n'),
    ).toBe(true);
    const cells = parse(csv, { bom: true }) as string[][];
    const byName = new Map(cells.slice(1).map((r) => [r[0], r]));
    expect(byName.get('\'=HYPERLINK("http://evil.example","x")')).toBeDefined();
    // Numbers are number cells (the one CSV cell rule): a negative price keeps its plain "-".
    expect(byName.get('Discount, loyal customer')![2]).toBe('-5.500');
    expect(byName.get('Primer')).toEqual([
      'Primer',
      'm2',
      '0.375',
      'QST',
      'ceiling_area',
      '12.5',
      '1.5',
      '10',
      'Stain-blocking, "one coat"\n=on bare plaster',
    ]);

    const target = await workspace('Import', 'KWD');
    expect(await importPriceList({ ctx, input: { workspaceId: target, role: 'owner', csv } })).toEqual({
      added: 4,
      updated: 0,
    });
    const strip = (list: Awaited<ReturnType<typeof listPriceList>>) =>
      list.map(({ id: _id, workspaceId: _w, createdAt: _c, updatedAt: _u, ...rest }) => rest);
    expect(strip(await listPriceList({ ctx, input: { workspaceId: target } }))).toEqual(
      strip(await listPriceList({ ctx, input: { workspaceId: source } })),
    );
    // Importing again replaces by name: nothing is added twice.
    expect(await importPriceList({ ctx, input: { workspaceId: target, role: 'owner', csv } })).toEqual({
      added: 0,
      updated: 4,
    });
  });

  it('refuses a whole file for one bad row, naming the row, and changes nothing', async () => {
    const workspaceId = await workspace('Bad import');
    const ctx = world.ctx;
    const csv = 'name,unit,price\nGood,each,10\nBad,each,ten\n';
    await expect(importPriceList({ ctx, input: { workspaceId, role: 'owner', csv } })).rejects.toMatchObject({
      code: 'invalid_fields',
      detail: expect.stringMatching(/^Row 3: /),
    });
    expect(await listPriceList({ ctx, input: { workspaceId } })).toEqual([]);
    // Every bad row is named, each a field error of the file.
    const many = await importPriceList({
      ctx,
      input: { workspaceId, role: 'owner', csv: 'name,unit,price\nA,each,x\nB,each,1\nC,yard,1\n' },
    }).catch((e: unknown) => e);
    expect(many).toMatchObject({ code: 'invalid_fields', detail: expect.stringMatching(/^Row 2: .*; Row 4: /) });
    expect(
      (many as { fieldErrors: Array<{ field: string; message: string }> }).fieldErrors.map((e) =>
        e.message.slice(0, 6),
      ),
    ).toEqual(['Row 2:', 'Row 4:']);
    await expect(
      importPriceList({ ctx, input: { workspaceId, role: 'owner', csv: 'name,unit\nA,each\n' } }),
    ).rejects.toMatchObject({ detail: expect.stringMatching(/no "price" column/) });
    await expect(
      importPriceList({ ctx, input: { workspaceId, role: 'owner', csv: 'name,unit,price,colour\nA,each,1,red\n' } }),
    ).rejects.toMatchObject({ detail: expect.stringMatching(/colour/) });
  });
});
