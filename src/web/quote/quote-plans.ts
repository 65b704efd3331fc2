import type { DomainContext } from '../../domain/context.js';
import type { QuoteView } from '../../domain/quotes/quote-view.js';
import { scanFigures } from '../../domain/scans/measure-scan.js';
import { boundedPlan } from '../../domain/scans/measure/index.js';
import type { Units } from '../../domain/units.js';
import type { SafeHtml } from '../html.js';
import { floorPlanSvg } from '../admin/scans/floor-plan.js';

/** At most this many plans on one customer's page (each bounded like the scan page's, plan-bounds.ts). */
export const MAX_QUOTE_PLANS = 12;

export interface QuotePlan {
  name: string;
  svg: SafeHtml;
}

/**
 * The floor plan of each priced room: the rooms the quote's lines were measured from (line sources), in line order,
 * drawn by the scan page's drawing within the same bounds. A scan deleted since, or a room without an outline or
 * walls, gives no plan; the quote itself never depends on them.
 */
export async function pricedRoomPlans(ctx: DomainContext, quote: QuoteView, units: Units): Promise<QuotePlan[]> {
  const rooms: Array<{ scanId: string; room: number }> = [];
  for (const line of quote.lines) {
    const source = line.source;
    if (!source || rooms.some((r) => r.scanId === source.scanId && r.room === source.room)) continue;
    rooms.push({ scanId: source.scanId, room: source.room });
  }
  const plans: QuotePlan[] = [];
  const figuresOf = new Map<string, Awaited<ReturnType<typeof scanFigures>> | null>();
  for (const { scanId, room } of rooms.slice(0, MAX_QUOTE_PLANS)) {
    if (!figuresOf.has(scanId)) {
      figuresOf.set(scanId, await scanFigures({ ctx, input: { workspaceId: quote.workspaceId, scanId } }).catch(() => null));
    }
    const found = figuresOf.get(scanId)?.rooms.find((r) => r.index + 1 === room);
    if (!found?.measurement.recognized || !found.measurement.plan) continue;
    plans.push({ name: found.name, svg: floorPlanSvg(boundedPlan(found.measurement.plan), units, found.name) });
  }
  return plans;
}
