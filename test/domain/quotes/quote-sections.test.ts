import { leadCtx, quoteCtx } from '../../helpers/contexts.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { inWorkspace, type WorkspaceContext } from '../../../src/domain/context.js';
import { addPriceListItem } from '../../../src/domain/price-list/add-price-list-item.js';
import { addQuoteSection } from '../../../src/domain/quotes/add-quote-section.js';
import { createQuote } from '../../../src/domain/quotes/create-quote.js';
import { moveLineToSection } from '../../../src/domain/quotes/move-line-to-section.js';
import { moveQuoteSection } from '../../../src/domain/quotes/move-quote-section.js';
import { offerChoice } from '../../../src/domain/quotes/offer-choice.js';
import type { QuoteView } from '../../../src/domain/quotes/quote-view.js';
import { removeQuoteSection } from '../../../src/domain/quotes/remove-quote-section.js';
import { renameQuoteSection } from '../../../src/domain/quotes/rename-quote-section.js';
import { sendQuote } from '../../../src/domain/quotes/send-quote.js';
import { setQuoteDeposit } from '../../../src/domain/quotes/set-quote-deposit.js';
import { undoChoice } from '../../../src/domain/quotes/undo-choice.js';
import { attachScan } from '../../../src/domain/scans/attach-scan.js';
import { describeEachBackend } from '../../helpers/backends.js';
import { createWorld, type Seeded, type TestWorld } from '../../helpers/test-app.js';
import { rectangularRoom } from '../../fixtures/roomplan.js';
import { leadOf, quoteWorkspace } from './quote-fixtures.js';

/** Each section's heading with its lines' descriptions, in order. */
const layout = (quote: QuoteView) =>
  quote.sections.map((s) => [s.title, quote.lines.filter((l) => l.sectionId === s.id).map((l) => l.description)]);
const idOf = (quote: QuoteView, title: string) => quote.sections.find((s) => s.title === title)!.id;

describeEachBackend('sections and alternatives', (backend) => {
  let world: TestWorld;
  let ws: Seeded;
  let ctx: WorkspaceContext;
  let leadId: string;
  let itemIds: string[];
  let scanId: string;

  beforeAll(async () => {
    world = await createWorld(backend);
    ws = await quoteWorkspace(world, 'Sections');
    ctx = inWorkspace(world.ctx, ws.workspaceId);
    leadId = await leadOf(world, ws);
    // A RoomPlan export of three rooms without names: each CapturedRoom's section label names it.
    const labelled = (label: string, room: ReturnType<typeof rectangularRoom>) => ({
      capturedRoom: { ...room, sections: [{ label: { [label]: {} }, center: [0, 0, 0], story: 0 }] },
    });
    const rooms = [
      labelled('livingRoom', rectangularRoom({ width: 4, length: 5, height: 2.5 })),
      labelled('kitchen', rectangularRoom({ width: 3, length: 3, height: 2.5, at: [6, 0] })),
      labelled('bedroom', rectangularRoom({ width: 2, length: 4, height: 2.5, at: [12, 0] })),
    ];
    const app = await world.app();
    const res = await app.inject({
      method: 'POST',
      url: '/api/scan/upload',
      headers: { 'x-scan-key': ws.uploadKey, 'content-type': 'application/json' },
      payload: JSON.stringify({ rooms }),
    });
    expect(res.statusCode).toBe(200);
    ({ id: scanId } = await world.store.db
      .selectFrom('scans')
      .select('id')
      .where('workspace_id', '=', ws.workspaceId)
      .executeTakeFirstOrThrow());
    await attachScan({ ctx, input: { scanId, leadId } });
    const add = (item: Parameters<typeof addPriceListItem>[0]['input']['item']) =>
      addPriceListItem({ ctx: world.ctx, input: { workspaceId: ws.workspaceId, role: 'owner', item } });
    const flooring = await add({ name: 'Flooring', unit: 'm2', price: '30', measure: 'floor_area', taxes: ['GST'] });
    const callout = await add({ name: 'Call-out', unit: 'fixed', price: '75', taxes: ['GST'] });
    itemIds = [flooring.id, callout.id];
  });
  afterAll(async () => {
    await world.close();
  });

  const fresh = async () =>
    createQuote({ ctx: await leadCtx(world.ctx, leadId), input: { leadId, scanIds: [scanId], itemIds } });

  it('a quote from a scan of three rooms has a section a room, headed with its name, and General', async () => {
    const quote = await fresh();
    expect(layout(quote)).toEqual([
      ['Living room', ['Flooring']],
      ['Kitchen', ['Flooring']],
      ['Bedroom', ['Flooring']],
      ['General', ['Call-out']],
    ]);
    // Floors 20, 9 and 8 m² at $30; the call-out $75.
    expect(quote.sections.map((s) => s.subtotal)).toEqual([60000, 27000, 24000, 7500]);
    expect(quote.sections.every((s) => s.choice === null && s.chosen && !s.recommended)).toBe(true);
    expect(quote.subtotal).toBe(118500);
  });

  it('adds, renames, moves and removes sections, and moves lines between them', async () => {
    let quote = await fresh();
    quote = await addQuoteSection({ ctx, input: { quoteId: quote.id, title: '  Extras ' } });
    expect(quote.sections.map((s) => s.title)).toEqual(['Living room', 'Kitchen', 'Bedroom', 'General', 'Extras']);
    quote = await renameQuoteSection({
      ctx,
      input: { quoteId: quote.id, sectionId: idOf(quote, 'Extras'), title: 'Options' },
    });
    await expect(
      renameQuoteSection({
        ctx,
        input: { quoteId: quote.id, sectionId: idOf(quote, 'Options'), title: 'x'.repeat(201) },
      }),
    ).rejects.toMatchObject({ code: 'invalid_fields', fieldErrors: [{ field: 'title', code: 'too_long' }] });
    await expect(
      renameQuoteSection({ ctx, input: { quoteId: quote.id, sectionId: 'qsc_nope', title: 'A' } }),
    ).rejects.toMatchObject({ code: 'quote_section_not_found' });

    const options = idOf(quote, 'Options');
    quote = await moveQuoteSection({ ctx, input: { quoteId: quote.id, sectionId: options, to: 1 } });
    expect(quote.sections.map((s) => s.title)).toEqual(['Options', 'Living room', 'Kitchen', 'Bedroom', 'General']);
    quote = await moveQuoteSection({ ctx, input: { quoteId: quote.id, sectionId: options, to: 'up' } });
    expect(quote.sections[0]!.id).toBe(options);
    quote = await moveQuoteSection({ ctx, input: { quoteId: quote.id, sectionId: options, to: 'down' } });
    expect(quote.sections.map((s) => s.title)).toEqual(['Living room', 'Options', 'Kitchen', 'Bedroom', 'General']);
    quote = await moveQuoteSection({ ctx, input: { quoteId: quote.id, sectionId: options, to: 99 } });
    expect(quote.sections.at(-1)!.id).toBe(options);
    await expect(
      moveQuoteSection({ ctx, input: { quoteId: quote.id, sectionId: options, to: 0 } }),
    ).rejects.toMatchObject({ code: 'invalid_fields' });

    const callout = quote.lines.find((l) => l.description === 'Call-out')!.id;
    quote = await moveLineToSection({ ctx, input: { quoteId: quote.id, lineId: callout, sectionId: options } });
    expect(layout(quote).slice(-2)).toEqual([
      ['General', []],
      ['Options', ['Call-out']],
    ]);
    expect(quote.sections.at(-1)!.subtotal).toBe(7500);
    await expect(
      moveLineToSection({ ctx, input: { quoteId: quote.id, lineId: 'qln_nope', sectionId: options } }),
    ).rejects.toMatchObject({ code: 'quote_line_not_found' });
    await expect(
      moveLineToSection({ ctx, input: { quoteId: quote.id, lineId: callout, sectionId: 'qsc_nope' } }),
    ).rejects.toMatchObject({ code: 'quote_section_not_found' });

    // Removing a section keeps its lines: they go to the nearest ordinary section above, after its own lines.
    quote = await removeQuoteSection({ ctx, input: { quoteId: quote.id, sectionId: idOf(quote, 'Kitchen') } });
    expect(layout(quote)).toEqual([
      ['Living room', ['Flooring', 'Flooring']],
      ['Bedroom', ['Flooring']],
      ['General', []],
      ['Options', ['Call-out']],
    ]);
    expect(quote.subtotal).toBe(118500);
    // The first section has none above: its lines go to the nearest below.
    quote = await removeQuoteSection({ ctx, input: { quoteId: quote.id, sectionId: idOf(quote, 'Living room') } });
    expect(layout(quote)[0]).toEqual(['Bedroom', ['Flooring', 'Flooring', 'Flooring']]);
    for (const title of ['General', 'Options']) {
      quote = await removeQuoteSection({ ctx, input: { quoteId: quote.id, sectionId: idOf(quote, title) } });
    }
    expect(layout(quote)).toEqual([['Bedroom', ['Flooring', 'Flooring', 'Flooring', 'Call-out']]]);
    await expect(
      removeQuoteSection({ ctx, input: { quoteId: quote.id, sectionId: idOf(quote, 'Bedroom') } }),
    ).rejects.toMatchObject({ code: 'last_section' });
  });

  it('offers two to four sections as one choice, counts only the chosen one, and undoes it', async () => {
    let quote = await fresh();
    const [living, kitchen, bedroom, general] = quote.sections.map((s) => s.id) as [string, string, string, string];
    quote = await offerChoice({
      ctx,
      input: { quoteId: quote.id, sectionIds: [kitchen, bedroom], recommendedId: kitchen },
    });
    const pick = (id: string) => quote.sections.find((s) => s.id === id)!;
    expect(pick(kitchen)).toMatchObject({ choice: 'c1', recommended: true, chosen: true, subtotal: 27000 });
    expect(pick(bedroom)).toMatchObject({ choice: 'c1', recommended: false, chosen: false, subtotal: 24000 });
    expect(pick(living)).toMatchObject({ choice: null, chosen: true });
    // Counted: living room 600 + kitchen 270 + call-out 75 = $945; GST 5 % = $47.25.
    expect(quote).toMatchObject({ subtotal: 94500, total: 99225 });

    // Refusals: one section, five, a recommendation outside them, a section of no quote.
    for (const input of [
      { sectionIds: [kitchen], recommendedId: kitchen },
      { sectionIds: [living, kitchen, bedroom, general, 'qsc_x'], recommendedId: kitchen },
      { sectionIds: [living, kitchen], recommendedId: bedroom },
    ]) {
      await expect(offerChoice({ ctx, input: { quoteId: quote.id, ...input } })).rejects.toMatchObject({
        code: 'invalid_fields',
      });
    }
    await expect(
      offerChoice({ ctx, input: { quoteId: quote.id, sectionIds: [living, 'qsc_x'], recommendedId: living } }),
    ).rejects.toMatchObject({ code: 'quote_section_not_found' });

    // Offered again with the bedroom recommended: a new choice of three; the old one is gone.
    quote = await offerChoice({
      ctx,
      input: { quoteId: quote.id, sectionIds: [living, kitchen, bedroom], recommendedId: bedroom },
    });
    expect(quote.sections.map((s) => [s.choice, s.recommended, s.chosen])).toEqual([
      ['c2', false, false],
      ['c2', false, false],
      ['c2', true, true],
      [null, false, true],
    ]);
    expect(quote.subtotal).toBe(24000 + 7500);
    // Removing the chosen alternative leaves a choice of two: the first is then recommended and chosen.
    quote = await removeQuoteSection({ ctx, input: { quoteId: quote.id, sectionId: bedroom } });
    expect(quote.sections.map((s) => [s.title, s.choice, s.recommended, s.chosen])).toEqual([
      ['Living room', 'c2', true, true],
      ['Kitchen', 'c2', false, false],
      ['General', null, false, true],
    ]);
    // The bedroom's lines went to the nearest ordinary section (General, below: the ones above are alternatives).
    expect(layout(quote)[2]).toEqual(['General', ['Call-out', 'Flooring']]);
    // An alternative left alone is an ordinary section again.
    quote = await removeQuoteSection({ ctx, input: { quoteId: quote.id, sectionId: kitchen } });
    expect(quote.sections.map((s) => [s.title, s.choice, s.chosen])).toEqual([
      ['Living room', null, true],
      ['General', null, true],
    ]);

    quote = await fresh();
    const ids = quote.sections.map((s) => s.id);
    quote = await offerChoice({
      ctx,
      input: { quoteId: quote.id, sectionIds: ids.slice(0, 2), recommendedId: ids[1]! },
    });
    quote = await offerChoice({
      ctx,
      input: { quoteId: quote.id, sectionIds: ids.slice(2, 4), recommendedId: ids[2]! },
    });
    expect(quote.sections.map((s) => s.choice)).toEqual(['c1', 'c1', 'c2', 'c2']);
    expect(quote.subtotal).toBe(27000 + 24000);
    quote = await undoChoice({ ctx, input: { quoteId: quote.id, sectionIds: [ids[3]!] } });
    expect(quote.sections.map((s) => s.choice)).toEqual(['c1', 'c1', null, null]);
    quote = await undoChoice({ ctx, input: { quoteId: quote.id } });
    expect(quote.sections.every((s) => s.choice === null && s.chosen)).toBe(true);
    expect(quote.subtotal).toBe(118500);
  });

  it('sets the deposit on a draft, computed from what counts', async () => {
    let quote = await fresh();
    expect(quote.deposit).toBeNull();
    const [, kitchen, bedroom] = quote.sections.map((s) => s.id) as [string, string, string];
    quote = await offerChoice({
      ctx,
      input: { quoteId: quote.id, sectionIds: [kitchen, bedroom], recommendedId: kitchen },
    });
    quote = await setQuoteDeposit({ ctx, input: { quoteId: quote.id, deposit: '30%' } });
    // 30 % of $992.25 = $297.675 → $297.68 (half away from zero).
    expect(quote.deposit).toEqual({ percent: 30000, fixed: null, amount: 29768 });
    quote = await setQuoteDeposit({ ctx, input: { quoteId: quote.id, deposit: '500.00' } });
    expect(quote.deposit).toEqual({ percent: null, fixed: 50000, amount: 50000 });
    await expect(setQuoteDeposit({ ctx, input: { quoteId: quote.id, deposit: '150%' } })).rejects.toMatchObject({
      code: 'invalid_fields',
    });
    quote = await setQuoteDeposit({ ctx, input: { quoteId: quote.id, deposit: 'none' } });
    expect(quote.deposit).toBeNull();
  });

  it('changes only drafts of the context’s workspace', async () => {
    const quote = await fresh();
    const other = await quoteWorkspace(world, 'Elsewhere');
    const stranger = inWorkspace(world.ctx, other.workspaceId);
    const section = quote.sections[0]!.id;
    await expect(addQuoteSection({ ctx: stranger, input: { quoteId: quote.id, title: 'A' } })).rejects.toMatchObject({
      code: 'quote_not_found',
    });
    await sendQuote({
      ctx: await quoteCtx(world.ctx, quote.id),
      input: { quoteId: quote.id, by: { userId: null, label: 'test' } },
    });
    const refusals = [
      () => addQuoteSection({ ctx, input: { quoteId: quote.id, title: 'A' } }),
      () => renameQuoteSection({ ctx, input: { quoteId: quote.id, sectionId: section, title: 'A' } }),
      () => moveQuoteSection({ ctx, input: { quoteId: quote.id, sectionId: section, to: 'down' } }),
      () => removeQuoteSection({ ctx, input: { quoteId: quote.id, sectionId: section } }),
      () => moveLineToSection({ ctx, input: { quoteId: quote.id, lineId: quote.lines[3]!.id, sectionId: section } }),
      () =>
        offerChoice({
          ctx,
          input: { quoteId: quote.id, sectionIds: [section, quote.sections[1]!.id], recommendedId: section },
        }),
      () => undoChoice({ ctx, input: { quoteId: quote.id } }),
      () => setQuoteDeposit({ ctx, input: { quoteId: quote.id, deposit: '30%' } }),
    ];
    for (const refusal of refusals) await expect(refusal()).rejects.toMatchObject({ code: 'quote_not_editable' });
  });
});
