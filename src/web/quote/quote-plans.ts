import type { FrozenPlans } from '../../domain/quotes/frozen-plans.js';
import { boundedPlan } from '../../domain/scans/measure/index.js';
import type { SafeHtml } from '../html.js';
import { floorPlanSvg } from '../admin/scans/floor-plan.js';

export interface QuotePlan {
  name: string;
  svg: SafeHtml;
}

/**
 * The floor plan of each priced room as frozen at the revision's send (`sendQuote`), drawn by the scan page's drawing
 * in the units of that moment. The scan is never read here: one re-measured, detached or deleted since changes
 * nothing on the page. Bounded again on the way out, so whatever a row holds draws within the scan page's bounds.
 */
export function frozenRoomPlans(plans: FrozenPlans | null): QuotePlan[] {
  if (!plans) return [];
  return plans.rooms.map((r) => ({ name: r.name, svg: floorPlanSvg(boundedPlan(r.plan), plans.units, r.name) }));
}
