import type { DocumentPlan, PlanPoint, PlanShape } from '../document-model.js';
import { boundedPlan } from '../scans/measure/index.js';
import { levelPlan, scaleBar, wallLabels } from '../scans/plan-drawing.js';
import { formatLength } from '../units.js';
import type { FrozenPlans } from './frozen-plans.js';

/** Points along a door's swing: a quarter circle about its hinge `a`, from its open leaf `tip` to its far jamb `b`. */
function swing(a: PlanPoint, tip: PlanPoint, b: PlanPoint): PlanPoint[] {
  const radius = Math.hypot(b[0] - a[0], b[1] - a[1]);
  const from = Math.atan2(tip[1] - a[1], tip[0] - a[0]);
  let to = Math.atan2(b[1] - a[1], b[0] - a[0]);
  // The short way round (a quarter turn).
  while (to - from > Math.PI) to -= 2 * Math.PI;
  while (from - to > Math.PI) to += 2 * Math.PI;
  const steps = 10;
  const arc: PlanPoint[] = [a, tip];
  for (let i = 1; i <= steps; i += 1) {
    const angle = from + ((to - from) * i) / steps;
    arc.push([a[0] + Math.cos(angle) * radius, a[1] + Math.sin(angle) * radius]);
  }
  return arc;
}

/**
 * A revision's frozen plans as the document's neutral vector data (docs/documents.md, "The document model"): the same
 * levelled plan, strokes and wall labels as the customer's page draws (web/admin/scans/floor-plan.ts), in metres, with
 * the lengths written in the units frozen at the send. Bounded again, like the page, whatever the row holds.
 */
export function documentPlans(plans: FrozenPlans | null): DocumentPlan[] {
  if (!plans) return [];
  return plans.rooms.flatMap((room) => {
    const bounded = boundedPlan(room.plan);
    if (!bounded) return [];
    const plan = levelPlan(bounded);
    const shapes: PlanShape[] = [];
    if (plan.outline.length >= 3) shapes.push({ kind: 'floor', points: plan.outline, closed: true });
    for (const w of plan.walls) shapes.push({ kind: 'wall', points: [w.a, w.b], closed: false });
    const all = [...plan.outline, ...plan.walls.flatMap((w) => [w.a, w.b])];
    const centre: PlanPoint = all.length
      ? [all.reduce((s, p) => s + p[0], 0) / all.length, all.reduce((s, p) => s + p[1], 0) / all.length]
      : [0, 0];
    for (const o of plan.openings) {
      shapes.push({ kind: 'gap', points: [o.a, o.b], closed: false });
      if (o.kind === 'window') shapes.push({ kind: 'window', points: [o.a, o.b], closed: false });
      if (o.kind === 'door') {
        const dx = o.b[0] - o.a[0];
        const dy = o.b[1] - o.a[1];
        const inward = Math.sign((centre[0] - o.a[0]) * -dy + (centre[1] - o.a[1]) * dx) || 1;
        const tip: PlanPoint = [o.a[0] - dy * inward, o.a[1] + dx * inward];
        shapes.push({ kind: 'swing', points: swing(o.a, tip, o.b), closed: false });
      }
    }
    const points = [
      ...plan.outline,
      ...plan.walls.flatMap((w) => [w.a, w.b]),
      ...plan.openings.flatMap((o) => [o.a, o.b]),
    ];
    const xs = points.map((p) => p[0]);
    const ys = points.map((p) => p[1]);
    const size = points.length
      ? Math.max(Math.max(...xs) - Math.min(...xs), Math.max(...ys) - Math.min(...ys), 0.5)
      : 1;
    const labels = wallLabels(plan, size / 16).map((label, i) => {
      const w = plan.walls[i]!;
      return {
        at: [(w.a[0] + w.b[0]) / 2, (w.a[1] + w.b[1]) / 2] as PlanPoint,
        normal: label.normal,
        anchor: label.anchor,
        text: formatLength(w.length, plans.units),
      };
    });
    return [{ name: room.name, shapes, labels, scale: scaleBar(size, plans.units) }];
  });
}
