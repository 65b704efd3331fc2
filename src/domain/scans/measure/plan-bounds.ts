import type { Plan, Point } from './types.js';

/**
 * What a room's plan keeps for drawing (docs/admin-app.md, "A scan's page"). A real room has a few dozen walls,
 * doors and windows at most; an upload may carry thousands (inside every limit), and each one drawn and labelled
 * costs the page's size and the server's time. Past these bounds the plan is simplified (the longest walls, the
 * widest openings, the outline's corners evenly thinned) and says by how much. The figures are always computed
 * from every surface; only the drawing is simplified.
 */
export const MAX_PLAN_WALLS = 64;
export const MAX_PLAN_OPENINGS = 32;
export const MAX_PLAN_CORNERS = 128;

/** A millimetre is as fine as a plan draws; rounding keeps the stored figures small. */
const mm = (value: number) => Math.round(value * 1000) / 1000;
const point = (p: Point): Point => [mm(p[0]), mm(p[1])];

/** The `keep` largest of `items` by `size`, in their own order. */
function largest<T>(items: T[], keep: number, size: (item: T) => number): T[] {
  if (items.length <= keep) return items;
  const chosen = new Set(
    items
      .map((item, i) => ({ i, s: size(item) }))
      .sort((a, b) => b.s - a.s)
      .slice(0, keep)
      .map((x) => x.i),
  );
  return items.filter((_, i) => chosen.has(i));
}

/** Every n-th corner so that at most `keep` remain (the outline's shape, coarser). */
function thinned(points: Point[], keep: number): Point[] {
  if (points.length <= keep) return points;
  const step = points.length / keep;
  return Array.from({ length: keep }, (_, i) => points[Math.floor(i * step)]!);
}

/** The plan within the bounds, coordinates to the millimetre; `simplified` holds the counts before, when it was cut. */
export function boundedPlan(plan: Plan | null): Plan | null {
  if (!plan) return null;
  const cut =
    plan.walls.length > MAX_PLAN_WALLS ||
    plan.openings.length > MAX_PLAN_OPENINGS ||
    plan.outline.length > MAX_PLAN_CORNERS;
  return {
    outline: thinned(plan.outline, MAX_PLAN_CORNERS).map(point),
    walls: largest(plan.walls, MAX_PLAN_WALLS, (w) => w.length).map((w) => ({
      a: point(w.a),
      b: point(w.b),
      length: w.length,
    })),
    openings: largest(plan.openings, MAX_PLAN_OPENINGS, (o) => o.width).map((o) => ({
      kind: o.kind,
      a: point(o.a),
      b: point(o.b),
      width: o.width,
    })),
    ...(cut
      ? {
          simplified: plan.simplified ?? {
            walls: plan.walls.length,
            openings: plan.openings.length,
            corners: plan.outline.length,
          },
        }
      : plan.simplified
        ? { simplified: plan.simplified }
        : {}),
  };
}

/** Walls, openings and corners a plan draws: at most MAX_PLAN_WALLS + MAX_PLAN_OPENINGS + MAX_PLAN_CORNERS. */
export function planSurfaces(plan: Plan | null): number {
  return plan ? plan.walls.length + plan.openings.length + plan.outline.length : 0;
}
