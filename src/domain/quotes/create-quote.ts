import { recordAudit } from '../audit/record-audit.js';
import { nowIso, type WorkspaceVerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import { parseDeposit } from '../money.js';
import { findLeadRow } from '../leads/find-lead.js';
import { getPriceListItem, listPriceList } from '../price-list/list-price-list.js';
import { getWorkspaceSettings } from '../settings/workspace-settings.js';
import { measuredLines, sameRooms, type RoomPick } from './measured-lines.js';
import { insertLines, freshDraft } from './quote-rows.js';
import { quoteStates } from './quote-states.js';
import { GENERAL_TITLE, insertSections } from './quote-sections.js';
import { placeMaterials } from './materials-section.js';
import { addDays, storeTotals, todayIn, type QuoteView } from './quote-view.js';
import type { Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';
import type { NewLine } from './measured-lines.js';

/**
 * A new draft quote for a lead (members and owners): the customer's name, email, phone and address from the lead,
 * the workspace's currency and taxes frozen on it, terms and validity from Settings. With scans (attached to the
 * lead), one line per chosen room × measured item, priced from the price list (all its measured items when no items
 * are given with `scanIds`; only those given with `picks`); other items given add one line each. Nothing reaches the
 * customer until it is sent.
 */
export async function createQuote({
  ctx,
  input,
}: WorkspaceVerbArgs<{
  leadId: string;
  scanIds?: string[];
  /** Room indices in the scans, from 1; all rooms when empty. */
  rooms?: number[];
  /** Instead of `scanIds` and `rooms`: rooms picked per scan (the builder's New quote). */
  picks?: RoomPick[];
  /** Price-list item ids. */
  itemIds?: string[];
  /** Who made it (null on the CLI). */
  userId?: string | null;
  /** The deposit it asks (`30%`, `500.00` or `none`); the workspace's default when not given. */
  deposit?: string;
}>): Promise<QuoteView> {
  const lead = await findLeadRow(ctx.store.db, { workspaceId: ctx.workspaceId, id: input.leadId });
  const workspaceId = lead.workspace_id;
  const settings = await getWorkspaceSettings({ ctx, input: { workspaceId } });
  const scanIds = input.scanIds ?? [];
  const rooms = input.rooms ?? [];
  if (rooms.length > 0 && scanIds.length === 0)
    throw new AppError('invalid_fields', 'Rooms are picked from a scan: give the scan too', [
      { field: 'rooms', code: 'invalid', message: 'Pick a scan first' },
    ]);
  const picks = input.picks ?? sameRooms(scanIds, rooms);
  let items = await Promise.all((input.itemIds ?? []).map((itemId) => getPriceListItem({ ctx, input: { itemId } })));
  // The CLI's `quotes create --scan S` without `--item` prices every measured item; the builder's picker names its
  // items.
  if (items.length === 0 && !input.picks && scanIds.length > 0) {
    items = (await listPriceList({ ctx, input: { workspaceId } })).filter((i) => i.measure !== null);
  }
  const deposit = input.deposit === undefined ? settings.deposit : parseDeposit(input.deposit, settings.currency);
  const taxRates = settings.taxes.map((t) => ({ name: t.name, rate: t.rate }));
  const lines = await measuredLines(ctx, {
    workspaceId,
    leadId: lead.id,
    picks,
    items,
    taxNames: taxRates.map((t) => t.name),
    locale: settings.locale,
  });
  const id = newId('quo');
  const at = nowIso(ctx);
  return ctx.store.writer.write(async (trx) => {
    await trx
      .insertInto('quotes')
      .values({
        id,
        workspace_id: workspaceId,
        lead_id: lead.id,
        chain_id: id,
        number: null,
        revision: 1,
        status: 'draft',
        customer_name: lead.name,
        customer_email: lead.email,
        customer_phone: lead.phone,
        customer_address: lead.address,
        title: null,
        note: null,
        terms: settings.quoteTerms,
        valid_until: addDays(todayIn(settings.timeZone, ctx.clock.now()), settings.quoteValidDays),
        currency: settings.currency,
        tax_rates: JSON.stringify(taxRates),
        subtotal: 0,
        total: 0,
        deposit_percent: deposit?.percent ?? null,
        deposit_amount: deposit?.fixed ?? null,
        show_measurements: 0,
        ...freshDraft(at, input.userId),
      })
      .execute();
    const placed = await roomSections(trx, id, lines);
    // A pack item over the rooms is bought for the whole job: its line goes in the Materials section, after the rest.
    await insertLines(trx, id, await placeMaterials(trx, id, placed));
    const quote = await storeTotals(ctx, trx, id, at, quoteStates.moveFrom('edit'));
    await recordAudit(trx, ctx, {
      action: 'quote.created',
      workspaceId,
      targetIds: [id, lead.id],
      details: { lines: lines.length, total: quote.total },
    });
    return quote;
  });
}

/**
 * A new quote's sections (docs/quotes.md, "Sections and alternatives"): priced from rooms, one section per room headed
 * with the room's name, in the order the rooms were priced, then a **General** section for the lines of no room (items
 * not measured) when there are any; the Materials section comes after them (`placeMaterials`). Without a room, one
 * section without a heading. Answers the lines, each with its section.
 */
async function roomSections(trx: Transaction<Schema>, quoteId: string, lines: readonly NewLine[]): Promise<NewLine[]> {
  const keyOf = (line: NewLine) => (line.room ? `${line.room.scanId}#${line.room.index}` : null);
  const rooms = new Map<string, string>();
  for (const line of lines) if (line.room && !rooms.has(keyOf(line)!)) rooms.set(keyOf(line)!, line.room.name);
  const general = rooms.size === 0 || lines.some((line) => !line.room && !line.materials);
  const ids = await insertSections(trx, quoteId, [
    ...[...rooms.values()].map((title) => ({ title, room: true })),
    ...(general ? [{ title: rooms.size === 0 ? null : GENERAL_TITLE }] : []),
  ]);
  const sectionOf = new Map([...rooms.keys()].map((key, i) => [key, ids[i]!]));
  const generalId = general ? ids[ids.length - 1] : undefined;
  return lines.map((line) =>
    line.materials ? line : { ...line, sectionId: line.room ? sectionOf.get(keyOf(line)!)! : generalId! },
  );
}
