import type { Kysely, Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';
import type { DomainContext } from '../context.js';
import { isAppError } from '../errors.js';
import { scanFigures, type ScanFigures } from '../scans/measure-scan.js';
import { boundedPlan, type Plan } from '../scans/measure/index.js';
import type { Units } from '../units.js';
import type { LineSource } from './quote-view.js';

/** At most this many plans on one customer's page (each bounded like the scan page's, plan-bounds.ts). */
export const MAX_QUOTE_PLANS = 12;

/** The plans a sent revision shows, frozen at its send (`quotes.plans`), in the units of the workspace then. */
export interface FrozenPlans {
  units: Units;
  rooms: Array<{ scanId: string; room: number; name: string; plan: Plan }>;
}

/**
 * The rooms the lines were measured from (their `source`, every room of a pack line's `source.rooms`), in line order,
 * each once, at most MAX_QUOTE_PLANS.
 */
export function pricedRooms(
  lines: ReadonlyArray<{ source: LineSource | null }>,
): Array<{ scanId: string; room: number }> {
  const rooms: Array<{ scanId: string; room: number }> = [];
  for (const { source } of lines) {
    if (!source) continue;
    for (const { scanId, room } of source.rooms ?? [source]) {
      if (!rooms.some((r) => r.scanId === scanId && r.room === room)) rooms.push({ scanId, room });
    }
  }
  return rooms.slice(0, MAX_QUOTE_PLANS);
}

/**
 * The figures of the scans a draft's lines were measured from, read before the send's transaction: measuring a scan
 * the sweep has not reached writes its figures in a transaction of its own, which must not nest in the send's. A scan
 * deleted since the line was made maps to null (its room gets no plan, and the quote does not depend on it); any other
 * failure fails the send.
 */
export async function figuresForSend(
  ctx: DomainContext,
  ref: { workspaceId: string; quoteId: string },
): Promise<Map<string, ScanFigures | null>> {
  const sources = await ctx.store.db
    .selectFrom('quote_lines')
    .innerJoin('quotes', 'quotes.id', 'quote_lines.quote_id')
    .select(['quote_lines.source', 'quotes.workspace_id'])
    .where('quote_lines.quote_id', '=', ref.quoteId)
    .where('quotes.workspace_id', '=', ref.workspaceId)
    .where('quote_lines.source', 'is not', null)
    .execute();
  const rooms = pricedRooms(sources.map((s) => ({ source: JSON.parse(s.source!) as LineSource })));
  const figures = new Map<string, ScanFigures | null>();
  for (const scanId of new Set(rooms.map((r) => r.scanId))) {
    const workspaceId = sources[0]!.workspace_id;
    figures.set(
      scanId,
      await scanFigures({ ctx, input: { workspaceId, scanId } }).catch((error: unknown) => {
        if (isAppError(error) && error.code === 'scan_not_found') return null;
        throw error;
      }),
    );
  }
  return figures;
}

/**
 * What the send freezes into the revision: the plan of each priced room still in a scan of the workspace, bounded
 * for drawing. A room without an outline or walls, or whose scan was deleted meanwhile, gives no plan.
 */
export async function freezePlans(
  trx: Kysely<Schema> | Transaction<Schema>,
  input: {
    workspaceId: string;
    lines: ReadonlyArray<{ source: LineSource | null }>;
    units: Units;
    figures: Map<string, ScanFigures | null>;
  },
): Promise<FrozenPlans> {
  const rooms = pricedRooms(input.lines);
  const scanIds = [...new Set(rooms.map((r) => r.scanId))];
  const present =
    scanIds.length === 0
      ? new Set<string>()
      : new Set(
          (
            await trx
              .selectFrom('scans')
              .select('id')
              .where('workspace_id', '=', input.workspaceId)
              .where('id', 'in', scanIds)
              .execute()
          ).map((s) => s.id),
        );
  const frozen: FrozenPlans = { units: input.units, rooms: [] };
  for (const { scanId, room } of rooms) {
    if (!present.has(scanId)) continue;
    const found = input.figures.get(scanId)?.rooms.find((r) => r.index + 1 === room);
    const plan = found?.measurement.recognized ? boundedPlan(found.measurement.plan) : null;
    if (found && plan) frozen.rooms.push({ scanId, room, name: found.name, plan });
  }
  return frozen;
}

/** A revision's frozen plans as kept; null for a draft (or a revision sent before plans were frozen). */
export function frozenPlansOf(column: string | null): FrozenPlans | null {
  return column === null ? null : (JSON.parse(column) as FrozenPlans);
}
