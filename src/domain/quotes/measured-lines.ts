import type { DomainContext } from '../context.js';
import { AppError } from '../errors.js';
import {
  KIND_OF_MEASURE,
  UNIT_LABELS,
  hundredthsText,
  type Measure,
  type PriceListItem,
  type Unit,
} from '../price-list/price-list-item.js';
import type { RoomMeasurement } from '../scans/measure/index.js';
import { scanFigures } from '../scans/measure-scan.js';
import { METRES_PER_FOOT, toFeet, toSquareFeet } from '../units.js';
import { formatQuantity, hundredthsOf, rateText } from '../money.js';
import type { LineSource } from './quote-view.js';

/** Rooms picked from one scan of the lead: indices from 1, every room when empty. */
export interface RoomPick {
  scanId: string;
  rooms: readonly number[];
}

/** The same rooms picked from each scan (the CLI's `--scan`… `--room`…). */
export const sameRooms = (scanIds: readonly string[], rooms: readonly number[]): RoomPick[] =>
  scanIds.map((scanId) => ({ scanId, rooms }));

/** A line to insert: money already in the smallest unit, quantity in hundredths. */
export interface NewLine {
  description: string;
  quantity: number;
  unit: string;
  unitPrice: number;
  taxes: string[];
  optional: boolean;
  chosen: boolean;
  source: LineSource | null;
  /** The section it goes into, when the verb names one (else the caller's, or the last). */
  sectionId?: string;
  /** Bought for the whole job (a pack item over the picked rooms): the verbs put it in the Materials section. */
  materials?: boolean;
  /** Priced from one room: the room (its scan, index from 1 and name), whose section a new quote puts it in. */
  room?: { scanId: string; index: number; name: string };
}

const FIGURE_OF: Record<Measure, (m: RoomMeasurement) => number | null> = {
  floor_area: (m) => m.floorArea?.value ?? null,
  ceiling_area: (m) => m.floorArea?.value ?? null,
  wall_area_net: (m) => m.wallAreaNet?.value ?? null,
  wall_area_gross: (m) => m.wallAreaGross?.value ?? null,
  perimeter: (m) => m.perimeter?.value ?? null,
  skirting: (m) => m.skirting?.value ?? null,
  volume: (m) => m.volume?.value ?? null,
  doors: (m) => m.doors,
  windows: (m) => m.windows,
};

const MEASURE_WORDS: Record<Measure, string> = {
  floor_area: 'floor',
  ceiling_area: 'ceiling',
  wall_area_net: 'walls (net)',
  wall_area_gross: 'walls',
  perimeter: 'perimeter',
  skirting: 'skirting',
  volume: 'volume',
  doors: 'doors',
  windows: 'windows',
};

/** A room's figure (stored in metres, m², m³) in the item's unit, at full precision. */
export function inUnit(value: number, unit: Unit): number {
  switch (unit) {
    case 'ft':
      return toFeet(value);
    case 'ft2':
      return toSquareFeet(value);
    case 'ft3':
      return value / METRES_PER_FOOT ** 3;
    default:
      return value;
  }
}

/**
 * The quantity of a measured item: round2(figure × (1 + waste) × coats), or with a pack, the whole packs that cover
 * it: ceil(figure × (1 + waste) × coats ÷ coverage). The product is read to 12 significant digits first, so a float
 * a hair above a whole number of packs (3.0000000000000004) is 3 packs, not 4.
 */
export function measuredQuantity(
  measured: number,
  item: Pick<PriceListItem, 'waste' | 'coats' | 'pack'>,
): { quantity: number; packs: number | null } {
  const needed = (measured * (100_000 + item.waste) * item.coats) / 10_000_000;
  if (item.pack === null) return { quantity: hundredthsOf(needed), packs: null };
  const packs = Math.ceil(Number(((needed * 100) / item.pack).toPrecision(12)));
  return { quantity: packs * 100, packs };
}

/** "Kitchen: floor 23.16 m² + 10 % waste × 2 coats = 5 packs of 10 m²". */
export function sourceText(
  roomName: string,
  measure: Measure,
  measured: number,
  unit: Unit,
  item: Pick<PriceListItem, 'waste' | 'coats' | 'pack'>,
  packs: number | null,
  locale: string,
): string {
  const count = KIND_OF_MEASURE[measure] === 'count';
  const figure = count ? String(measured) : `${formatQuantity(hundredthsOf(measured), locale)} ${UNIT_LABELS[unit]}`;
  const parts = [`${roomName}: ${MEASURE_WORDS[measure]} ${figure}`];
  if (item.waste > 0) parts.push(`+ ${rateText(item.waste)} % waste`);
  if (item.coats !== 100) parts.push(`× ${hundredthsText(item.coats)} coats`);
  if (packs !== null)
    parts.push(`= ${packs} ${packs === 1 ? 'pack' : 'packs'} of ${hundredthsText(item.pack!)} ${UNIT_LABELS[unit]}`);
  return parts.join(' ');
}

/**
 * A pack item's note over several rooms: "Walls (net): Kitchen 32.78 m² + Hall 31.85 m² = 64.63 m² × 2 coats = 13 packs
 * of 10 m²" (each figure in the item's unit, never the pack's).
 */
export function packNote(
  rooms: ReadonlyArray<{ name: string; measured: number }>,
  measure: Measure,
  unit: Unit,
  item: Pick<PriceListItem, 'waste' | 'coats' | 'pack'>,
  packs: number,
  locale: string,
): string {
  if (rooms.length === 1) return sourceText(rooms[0]!.name, measure, rooms[0]!.measured, unit, item, packs, locale);
  const count = KIND_OF_MEASURE[measure] === 'count';
  const figure = (value: number) =>
    count ? String(value) : `${formatQuantity(hundredthsOf(value), locale)} ${UNIT_LABELS[unit]}`;
  const words = MEASURE_WORDS[measure];
  const sum = rooms.reduce((total, room) => total + room.measured, 0);
  const parts = [
    `${words.charAt(0).toUpperCase()}${words.slice(1)}: ` +
      `${rooms.map((r) => `${r.name} ${figure(r.measured)}`).join(' + ')} = ${figure(sum)}`,
  ];
  if (item.waste > 0) parts.push(`+ ${rateText(item.waste)} % waste`);
  if (item.coats !== 100) parts.push(`× ${hundredthsText(item.coats)} coats`);
  parts.push(`= ${packs} ${packs === 1 ? 'pack' : 'packs'} of ${hundredthsText(item.pack!)} ${UNIT_LABELS[unit]}`);
  return parts.join(' ');
}

/**
 * What the customer reads on a line priced from an item: its name, and its customer description on the next line
 * when it has one (docs/quotes.md, "What the customer reads"). How the quantity was measured never goes here: it is
 * the line's `source.note`.
 */
export function itemDescription(item: Pick<PriceListItem, 'name' | 'customerDescription'>): string {
  return item.customerDescription ? `${item.name}\n${item.customerDescription}` : item.name;
}

/**
 * The lines of price-list items priced from the picked rooms (docs/quotes.md, "Lines from scans"):
 * - an item sold by the unit (no pack): one line per chosen room (rooms in scan order, items in the order given),
 *   its quantity from that room's figure; labour and the like stay per room;
 * - an item sold in packs (a tin covers 10 m²): one line for the whole job, its packs rounded up once over the need
 *   summed across the rooms (229 m² of walls is 3 tins of 100 m², not 2 + 2), naming the rooms in `source.rooms`,
 *   marked `materials` for the Materials section;
 * - an item not measured (or a measured one when no room is picked at all): one line, quantity 1.
 * Each line's description is what the customer reads (`itemDescription`); how its quantity was measured is its
 * `source.note`. A room without the item's figure (a scan with no walls for a wall item) gives nothing. The scans must
 * be attached to the lead (`scan_not_found` otherwise); each scan's `rooms` are indices from 1, all rooms when empty.
 * Called before the write that stores the lines: reading a scan's figures may store them (a write of its own).
 */
export async function measuredLines(
  ctx: DomainContext,
  input: {
    workspaceId: string;
    leadId: string;
    picks: readonly RoomPick[];
    items: readonly PriceListItem[];
    taxNames: readonly string[];
    locale: string;
  },
): Promise<NewLine[]> {
  const lines: NewLine[] = [];
  const carried = (item: PriceListItem) => item.taxes.filter((t) => input.taxNames.includes(t));
  const measuredItems = input.items.filter((i) => i.measure !== null);
  const sourceOf = (item: PriceListItem, measured: number) => ({
    measure: item.measure!,
    measured,
    waste: Number(rateText(item.waste)),
    coats: item.coats / 100,
    pack: item.pack === null ? null : item.pack / 100,
  });
  // A pack item's rooms, gathered over every pick, priced once below.
  const packRooms = new Map<PriceListItem, NonNullable<LineSource['rooms']>>();
  for (const { scanId, rooms: picked } of input.picks) {
    const scan = await ctx.store.db
      .selectFrom('scans')
      .select(['id', 'lead_id'])
      .where('id', '=', scanId)
      .where('workspace_id', '=', input.workspaceId)
      .executeTakeFirst();
    if (!scan || scan.lead_id !== input.leadId)
      throw new AppError(
        'scan_not_found',
        `No scan ${scanId} attached to this lead; attach it first (\`leadscan scans attach\`)`,
      );
    const figures = await scanFigures({ ctx, input: { workspaceId: input.workspaceId, scanId } });
    for (const wanted of picked) {
      if (!figures.rooms.some((r) => r.index + 1 === wanted))
        throw new AppError(
          'room_not_found',
          `Scan ${scanId} has no room ${wanted} (rooms count from 1; it has ${figures.rooms.length})`,
        );
    }
    const rooms = figures.rooms.filter((r) => picked.length === 0 || picked.includes(r.index + 1));
    for (const room of rooms) {
      for (const item of measuredItems) {
        const measure = item.measure!;
        const figure = FIGURE_OF[measure](room.measurement);
        if (figure === null) continue;
        const measured = inUnit(figure, item.unit);
        if (item.pack !== null) {
          const gathered = packRooms.get(item) ?? [];
          gathered.push({ scanId, room: room.index + 1, name: room.name, measured });
          packRooms.set(item, gathered);
          continue;
        }
        const { quantity } = measuredQuantity(measured, item);
        lines.push({
          description: itemDescription(item),
          quantity,
          unit: item.unit,
          unitPrice: item.unitPrice,
          taxes: carried(item),
          optional: false,
          chosen: true,
          source: {
            scanId,
            room: room.index + 1,
            ...sourceOf(item, measured),
            note: sourceText(room.name, measure, measured, item.unit, item, null, input.locale),
          },
          room: { scanId, index: room.index + 1, name: room.name },
        });
      }
    }
  }
  for (const item of measuredItems) {
    const rooms = packRooms.get(item);
    if (!rooms) continue;
    const measured = rooms.reduce((sum, room) => sum + room.measured, 0);
    const { quantity, packs } = measuredQuantity(measured, item);
    lines.push({
      description: itemDescription(item),
      quantity,
      unit: 'each',
      unitPrice: item.unitPrice,
      taxes: carried(item),
      optional: false,
      chosen: true,
      source: {
        scanId: rooms[0]!.scanId,
        room: rooms[0]!.room,
        ...sourceOf(item, measured),
        note: packNote(rooms, item.measure!, item.unit, item, packs!, input.locale),
        rooms,
      },
      materials: true,
    });
  }
  // Items not measured, and measured ones with no room picked at all (no scan to measure in), once, quantity 1.
  const once = input.picks.length === 0 ? input.items : input.items.filter((i) => i.measure === null);
  for (const item of once) {
    lines.push({
      description: itemDescription(item),
      quantity: 100,
      unit: item.unit,
      unitPrice: item.unitPrice,
      taxes: carried(item),
      optional: false,
      chosen: true,
      source: null,
    });
  }
  return lines;
}
