import { leadCtx, quoteCtx } from '../../helpers/contexts.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addPriceListItem } from '../../../src/domain/price-list/add-price-list-item.js';
import { addItemLines } from '../../../src/domain/quotes/add-item-lines.js';
import { addQuoteLine } from '../../../src/domain/quotes/add-quote-line.js';
import { addQuoteSection } from '../../../src/domain/quotes/add-quote-section.js';
import { markRoomSections } from '../../../src/storage/migrations/0056-room-sections.js';
import type { Kysely } from 'kysely';
import { createQuote } from '../../../src/domain/quotes/create-quote.js';
import { sendQuote } from '../../../src/domain/quotes/send-quote.js';
import { deleteScan } from '../../../src/domain/scans/delete-scan.js';
import { describeEachBackend } from '../../helpers/backends.js';
import { createWorld, type TestWorld } from '../../helpers/test-app.js';
import { leadOf, quoteWorkspace, scanOf } from './quote-fixtures.js';
import { inWorkspace } from '../../../src/domain/context.js';

describeEachBackend('a quote from measured rooms', (backend) => {
  let world: TestWorld;
  beforeAll(async () => {
    world = await createWorld(backend);
  });
  afterAll(async () => {
    await world.close();
  });

  const item = (workspaceId: string, fields: Parameters<typeof addPriceListItem>[0]['input']['item']) =>
    addPriceListItem({ ctx: world.ctx, input: { workspaceId, role: 'owner', item: fields } });

  it('metric: one line per room × measured item, quantity from the room with waste, coats and packs, priced exactly', async () => {
    const ws = await quoteWorkspace(world, 'Metric');
    const leadId = await leadOf(world, ws);
    const scanId = await scanOf(world, ws, leadId);
    const tiles = await item(ws.workspaceId, {
      name: 'Tiles',
      unit: 'm2',
      price: '35.00',
      measure: 'floor_area',
      waste: '10',
    });
    const paint = await item(ws.workspaceId, {
      name: 'Paint',
      unit: 'm2',
      price: '48.00',
      measure: 'wall_area_net',
      coats: '2',
      pack: '10',
      taxes: ['GST'],
    });
    const skirting = await item(ws.workspaceId, {
      name: 'Skirting',
      unit: 'm',
      price: '7.25',
      measure: 'skirting',
      taxes: [],
    });
    const doors = await item(ws.workspaceId, { name: 'Door paint', unit: 'each', price: '40', measure: 'doors' });
    const callout = await item(ws.workspaceId, { name: 'Call-out', unit: 'fixed', price: '75', taxes: ['GST', 'QST'] });

    const quote = await createQuote({
      ctx: await leadCtx(world.ctx, leadId),
      input: {
        leadId,
        scanIds: [scanId],
        rooms: [1],
        itemIds: [tiles.id, paint.id, skirting.id, doors.id, callout.id],
      },
    });
    expect(quote).toMatchObject({
      status: 'draft',
      number: null,
      revision: 1,
      currency: 'CAD',
      customer: { name: 'Ada Lovelace', email: 'ada@example.com', phone: '+1 514 555 0199', address: '12 Elm St' },
      terms: 'Half up front.',
    });
    // In the order shown: per room (the kitchen's tiles, skirting, doors) and the item not measured, then the
    // Materials section with the paint sold in packs (one line for the job).
    const [tileLine, skirtingLine, doorLine, calloutLine, paintLine] = quote.lines;
    expect(quote.lines).toHaveLength(5);
    // What the customer reads is the item's name; how it was measured is the staff's note.
    // 13.02 m² × 1.10 = 14.322 → 14.32 m² × $35.00 = $501.20
    expect(tileLine).toMatchObject({
      description: 'Tiles',
      quantity: 1432,
      unit: 'm2',
      unitPrice: 3500,
      amount: 50120,
      taxes: ['GST', 'QST'],
    });
    expect(tileLine!.source).toMatchObject({
      scanId,
      room: 1,
      measure: 'floor_area',
      waste: 10,
      coats: 1,
      pack: null,
      note: 'Kitchen: floor 13.02 m² + 10 % waste',
    });
    expect(tileLine!.source!.rooms).toBeUndefined();
    expect(tileLine!.source!.measured).toBeCloseTo(13.02, 9);
    // 32.7772 m² × 2 coats = 65.5544 m² ÷ 10 m² a pack → 7 packs × $48; the note says m², the figure's unit.
    expect(paintLine).toMatchObject({
      description: 'Paint',
      quantity: 700,
      unit: 'each',
      amount: 33600,
      taxes: ['GST'],
    });
    expect(paintLine!.source).toMatchObject({
      measure: 'wall_area_net',
      coats: 2,
      pack: 10,
      note: 'Kitchen: walls (net) 32.78 m² × 2 coats = 7 packs of 10 m²',
      rooms: [{ scanId, room: 1, name: 'Kitchen', measured: expect.closeTo(32.7772, 6) }],
    });
    // Skirting: the perimeter less the door's width, 14.6 − 0.82 = 13.78 m × $7.25 = $99.905 → $99.91 (half away from zero)
    expect(skirtingLine).toMatchObject({ description: 'Skirting', quantity: 1378, amount: 9991, taxes: [] });
    expect(skirtingLine!.source!.note).toBe('Kitchen: skirting 13.78 m');
    expect(doorLine).toMatchObject({ description: 'Door paint', quantity: 100, unit: 'each', amount: 4000 });
    expect(doorLine!.source!.note).toBe('Kitchen: doors 1');
    expect(calloutLine).toMatchObject({
      description: 'Call-out',
      quantity: 100,
      unit: 'fixed',
      amount: 7500,
      source: null,
    });
    // Three sections: the room's (headed with its name), General with the call-out, Materials with the paint.
    expect(quote.sections.map((s) => s.title)).toEqual(['Kitchen', 'General', 'Materials']);
    expect(quote.lines.map((l) => quote.sections.findIndex((s) => s.id === l.sectionId))).toEqual([0, 0, 0, 1, 2]);
    const gstBase = 50120 + 33600 + 4000 + 7500;
    const qstBase = 50120 + 4000 + 7500;
    expect(gstBase).toBe(95220);
    expect(qstBase).toBe(61620);
    // GST 5 % of $952.20 = $47.61; QST 9.975 % of $616.20 = $61.4659… → $61.47; Eco is on no line.
    expect(quote.taxes).toEqual([
      { name: 'GST', rate: 5000, amount: 4761 },
      { name: 'QST', rate: 9975, amount: 6147 },
      { name: 'Eco', rate: 1000, amount: 0 },
    ]);
    expect(quote.subtotal).toBe(gstBase + skirtingLine!.amount);
    expect(quote.total).toBe(quote.subtotal + quote.taxes.reduce((s, t) => s + t.amount, 0));
  });

  it("imperial: an item priced per ft² converts the room's m² at full precision", async () => {
    const ws = await quoteWorkspace(world, 'Imperial', { units: 'imperial', currency: 'USD' });
    const leadId = await leadOf(world, ws);
    const scanId = await scanOf(world, ws, leadId);
    const carpet = await item(ws.workspaceId, {
      name: 'Carpet',
      unit: 'ft2',
      price: '3.25',
      measure: 'floor_area',
      waste: '10',
      taxes: [],
    });
    const paint = await item(ws.workspaceId, {
      name: 'Paint',
      unit: 'ft2',
      price: '39.99',
      measure: 'wall_area_net',
      coats: '2',
      pack: '400',
      taxes: [],
    });
    const base = await item(ws.workspaceId, {
      name: 'Baseboard',
      unit: 'ft',
      price: '2.10',
      measure: 'perimeter',
      taxes: [],
    });
    const quote = await createQuote({
      ctx: await leadCtx(world.ctx, leadId),
      input: { leadId, scanIds: [scanId], itemIds: [carpet.id, paint.id, base.id] },
    });
    // Both rooms, each with the items sold by the unit; the paint once over both.
    expect(quote.lines.map((l) => [l.description, l.source?.room])).toEqual([
      ['Carpet', 1],
      ['Baseboard', 1],
      ['Carpet', 2],
      ['Baseboard', 2],
      ['Paint', 1],
    ]);
    const [carpetLine, baseLine, , , paintLine] = quote.lines;
    // 13.02 m² = 140.1461… ft² × 1.10 = 154.1607… → 154.16 ft² × $3.25 = $501.02
    expect(carpetLine).toMatchObject({ description: 'Carpet', quantity: 15416, unit: 'ft2', amount: 50102 });
    expect(carpetLine!.source!.note).toBe('Kitchen: floor 140.15 ft² + 10 % waste');
    expect(carpetLine!.source!.measured).toBeCloseTo(13.02 / 0.3048 ** 2, 9);
    // Walls 32.7772 m² = 352.81 ft² and 31.85 m² = 342.83 ft², together 695.64 ft² × 2 = 1391.28 ft² ÷ 400 → 4 gallons
    expect(paintLine).toMatchObject({ quantity: 400, unit: 'each', amount: 15996 });
    expect(paintLine!.source!.note).toBe(
      'Walls (net): Kitchen 352.81 ft² + Hall 342.83 ft² = 695.64 ft² × 2 coats = 4 packs of 400 ft²',
    );
    // 14.6 m = 47.9002… ft → 47.90 ft × $2.10 = $100.59
    expect(baseLine).toMatchObject({ description: 'Baseboard', quantity: 4790, unit: 'ft', amount: 10059 });
    expect(baseLine!.source!.note).toBe('Kitchen: perimeter 47.9 ft');
    expect(quote.taxes.every((t) => t.amount === 0)).toBe(true);
  });

  it('a pack item over several rooms is one line for the job, its packs rounded once, in Materials; labour stays per room', async () => {
    const ws = await quoteWorkspace(world, 'Packs');
    const leadId = await leadOf(world, ws);
    const scanId = await scanOf(world, ws, leadId);
    const paint = await item(ws.workspaceId, {
      name: 'Wall paint, 10 L tin',
      unit: 'm2',
      price: '48.00',
      measure: 'wall_area_net',
      coats: '2',
      pack: '10',
      taxes: ['GST'],
      customerDescription: 'Washable matt, two coats',
    });
    const labour = await item(ws.workspaceId, {
      name: 'Painting walls',
      unit: 'm2',
      price: '9.50',
      measure: 'wall_area_net',
      taxes: ['GST'],
    });
    const quote = await createQuote({
      ctx: await leadCtx(world.ctx, leadId),
      input: { leadId, scanIds: [scanId], itemIds: [paint.id, labour.id] },
    });
    const section = (id: string) => quote.sections.find((s) => s.id === id)?.title ?? null;
    // Walls: kitchen 32.7772 m², hall 13 m × 2.45 m = 31.85 m². Per room the tins would be 7 + 7 (65.55 and 63.7 m²
    // of two coats, 10 m² a tin); over both rooms 129.2544 m² is 13 tins.
    expect(quote.lines.map((l) => [l.description, l.quantity, l.unit, l.amount, section(l.sectionId)])).toEqual([
      ['Painting walls', 3278, 'm2', 31141, 'Kitchen'],
      ['Painting walls', 3185, 'm2', 30258, 'Hall'],
      ['Wall paint, 10 L tin\nWashable matt, two coats', 1300, 'each', 62400, 'Materials'],
    ]);
    const tins = quote.lines[2]!.source!;
    expect(tins).toMatchObject({
      scanId,
      room: 1,
      measure: 'wall_area_net',
      coats: 2,
      pack: 10,
      note: 'Walls (net): Kitchen 32.78 m² + Hall 31.85 m² = 64.63 m² × 2 coats = 13 packs of 10 m²',
      rooms: [
        { scanId, room: 1, name: 'Kitchen', measured: expect.closeTo(32.7772, 6) },
        { scanId, room: 2, name: 'Hall', measured: expect.closeTo(31.85, 6) },
      ],
    });
    expect(tins.measured).toBeCloseTo(64.6272, 6);
    expect(quote.lines.map((l) => l.source?.note)).toEqual([
      'Kitchen: walls (net) 32.78 m²',
      'Hall: walls (net) 31.85 m²',
      tins.note,
    ]);

    // Added in the builder later: another pack item joins the same Materials section (its floor primer over both
    // rooms, 20.52 m² ÷ 12 m² → 2 tins where 2 + 1 per room); an item added once goes in a General section, made for
    // it after the rooms and before the materials, never among the last room's lines (a free line after it joins it).
    const primer = await item(ws.workspaceId, {
      name: 'Floor primer',
      unit: 'm2',
      price: '30',
      measure: 'floor_area',
      pack: '12',
    });
    const callout = await item(ws.workspaceId, { name: 'Call-out', unit: 'fixed', price: '75' });
    const added = await addItemLines({
      ctx: await quoteCtx(world.ctx, quote.id),
      input: { quoteId: quote.id, itemIds: [primer.id, callout.id], picks: [{ scanId, rooms: [] }] },
    });
    const addedSection = (id: string) => added.sections.find((s) => s.id === id)?.title ?? null;
    expect(added.sections.map((s) => s.title)).toEqual(['Kitchen', 'Hall', 'General', 'Materials']);
    expect(added.lines.map((l) => [l.description, l.quantity, addedSection(l.sectionId)])).toEqual([
      ['Painting walls', 3278, 'Kitchen'],
      ['Painting walls', 3185, 'Hall'],
      ['Call-out', 100, 'General'],
      ['Wall paint, 10 L tin\nWashable matt, two coats', 1300, 'Materials'],
      ['Floor primer', 200, 'Materials'],
    ]);
    const free = await addQuoteLine({
      ctx: await quoteCtx(world.ctx, quote.id),
      input: { quoteId: quote.id, line: { description: 'Haul away', quantity: '1', unit: 'fixed', price: '40' } },
    });
    expect(free.sections.map((s) => s.title)).toEqual(['Kitchen', 'Hall', 'General', 'Materials']);
    const haul = free.lines.find((l) => l.description === 'Haul away')!;
    expect(free.sections.find((s) => s.id === haul.sectionId)?.title).toBe('General');
    // A section a person adds takes the free lines typed after it.
    await addQuoteSection({ ctx: await quoteCtx(world.ctx, quote.id), input: { quoteId: quote.id, title: 'Extras' } });
    const extra = await addQuoteLine({
      ctx: await quoteCtx(world.ctx, quote.id),
      input: { quoteId: quote.id, line: { description: 'Door stops', quantity: '4', unit: 'each', price: '6' } },
    });
    const stops = extra.lines.find((l) => l.description === 'Door stops')!;
    expect(extra.sections.find((s) => s.id === stops.sectionId)?.title).toBe('Extras');
    // Migration 0056 marks a quote made before it as the verbs mark one now: the rooms' sections only.
    const marks = () =>
      world.store.db
        .selectFrom('quote_sections')
        .select(['id', 'title', 'room'])
        .where('quote_id', '=', quote.id)
        .orderBy('position')
        .execute();
    const made = await marks();
    expect(made.filter((m) => m.room === 1).map((m) => m.title)).toEqual(['Kitchen', 'Hall']);
    await world.store.db.updateTable('quote_sections').set({ room: 0 }).where('quote_id', '=', quote.id).execute();
    await markRoomSections(world.store.db as unknown as Kysely<unknown>);
    expect(await marks()).toEqual(made);

    // The customer's plans cover every room a pack line was measured in.
    const tinsOnly = await createQuote({
      ctx: await leadCtx(world.ctx, leadId),
      input: { leadId, scanIds: [scanId], itemIds: [paint.id] },
    });
    expect(tinsOnly.lines).toHaveLength(1);
    await sendQuote({
      ctx: await quoteCtx(world.ctx, tinsOnly.id),
      input: { quoteId: tinsOnly.id, by: { userId: null, label: 'test' } },
    });
    const { plans } = await world.store.db
      .selectFrom('quotes')
      .select('plans')
      .where('id', '=', tinsOnly.id)
      .executeTakeFirstOrThrow();
    expect((JSON.parse(plans!) as { rooms: Array<{ name: string }> }).rooms.map((r) => r.name)).toEqual([
      'Kitchen',
      'Hall',
    ]);

    // No scan to measure in: a measured item is one line of quantity 1, to be typed.
    const other = await leadOf(world, ws, 'Grace Hopper');
    const bare = await createQuote({
      ctx: await leadCtx(world.ctx, other),
      input: { leadId: other, itemIds: [labour.id] },
    });
    expect(bare.lines.map((l) => [l.description, l.quantity, l.unit, l.source])).toEqual([
      ['Painting walls', 100, 'm2', null],
    ]);
  });

  it('refuses a scan not attached to the lead and a room the scan does not have', async () => {
    const ws = await quoteWorkspace(world, 'Refusals');
    const leadId = await leadOf(world, ws);
    const other = await leadOf(world, ws, 'Grace Hopper');
    const scanId = await scanOf(world, ws, other);
    await expect(
      createQuote({ ctx: await leadCtx(world.ctx, leadId), input: { leadId, scanIds: [scanId] } }),
    ).rejects.toMatchObject({
      code: 'scan_not_found',
    });
    await expect(
      createQuote({ ctx: await leadCtx(world.ctx, other), input: { leadId: other, scanIds: [scanId], rooms: [3] } }),
    ).rejects.toMatchObject({ code: 'room_not_found' });
    const elsewhere = await quoteWorkspace(world, 'Elsewhere');
    await expect(
      createQuote({ ctx: inWorkspace(world.ctx, elsewhere.workspaceId), input: { leadId } }),
    ).rejects.toMatchObject({ code: 'lead_not_found' });
  });

  it('adds price-list items to a draft: measured ones per picked room, others once; a sent quote refuses', async () => {
    const ws = await quoteWorkspace(world, 'Add items');
    const leadId = await leadOf(world, ws);
    const scanId = await scanOf(world, ws, leadId);
    const tiles = await item(ws.workspaceId, {
      name: 'Tiles',
      unit: 'm2',
      price: '35.00',
      measure: 'floor_area',
      waste: '10',
    });
    const callout = await item(ws.workspaceId, { name: 'Call-out', unit: 'fixed', price: '75', taxes: ['GST'] });
    const draft = await createQuote({ ctx: await leadCtx(world.ctx, leadId), input: { leadId } });
    expect(draft.lines).toEqual([]);
    const q = await addItemLines({
      ctx: await quoteCtx(world.ctx, draft.id),
      input: { quoteId: draft.id, itemIds: [tiles.id, callout.id], scanIds: [scanId], rooms: [2] },
    });
    // The hall: 1.5 × 5 = 7.5 m² × 1.1 = 8.25 m².
    expect(q.lines.map((l) => [l.description, l.source?.note ?? null, l.quantity, l.amount])).toEqual([
      ['Tiles', 'Hall: floor 7.5 m² + 10 % waste', 825, 28875],
      ['Call-out', null, 100, 7500],
    ]);
    expect(q.subtotal).toBe(28875 + 7500);
    await sendQuote({
      ctx: await quoteCtx(world.ctx, q.id),
      input: { quoteId: q.id, by: { userId: null, label: 'test' } },
    });
    await expect(
      addItemLines({ ctx: await quoteCtx(world.ctx, q.id), input: { quoteId: q.id, itemIds: [callout.id] } }),
    ).rejects.toMatchObject({ code: 'quote_not_editable' });
  });

  it('Send freezes the priced rooms: a scan deleted before it gives no plan; figures that cannot be read fail the send', async () => {
    const ws = await quoteWorkspace(world, 'Frozen plans');
    const leadId = await leadOf(world, ws);
    const tiles = await item(ws.workspaceId, { name: 'Tiles', unit: 'm2', price: '35', measure: 'floor_area' });
    const priced = async () => {
      const scanId = await scanOf(world, ws, leadId);
      const quote = await createQuote({
        ctx: await leadCtx(world.ctx, leadId),
        input: { leadId, scanIds: [scanId], itemIds: [tiles.id] },
      });
      return { scanId, quote };
    };
    const send = async (quoteId: string) =>
      sendQuote({ ctx: await quoteCtx(world.ctx, quoteId), input: { quoteId, by: { userId: null, label: 'test' } } });
    const plansOf = async (quoteId: string) =>
      JSON.parse(
        (await world.store.db.selectFrom('quotes').select('plans').where('id', '=', quoteId).executeTakeFirstOrThrow())
          .plans!,
      ) as { rooms: Array<{ name: string }> };

    // Figures that are there but unreadable are a fault, not a missing scan: the send fails and nothing is sent.
    const broken = await priced();
    await world.store.db
      .updateTable('scan_measurements')
      .set({ rooms: '{not json' })
      .where('scan_id', '=', broken.scanId)
      .execute();
    await expect(send(broken.quote.id)).rejects.toThrow(SyntaxError);
    const still = await world.store.db
      .selectFrom('quotes')
      .select(['status', 'number'])
      .where('id', '=', broken.quote.id)
      .executeTakeFirstOrThrow();
    expect(still).toEqual({ status: 'draft', number: null });

    // A scan deleted since its lines were priced: the quote goes out without that plan.
    const gone = await priced();
    await deleteScan({ ctx: inWorkspace(world.ctx, ws.workspaceId), input: { scanId: gone.scanId } });
    expect((await send(gone.quote.id)).quote.status).toBe('sent');
    expect((await plansOf(gone.quote.id)).rooms).toEqual([]);

    const kept = await priced();
    await send(kept.quote.id);
    expect((await plansOf(kept.quote.id)).rooms.map((r) => r.name)).toEqual(['Kitchen', 'Hall']);
  });
});
