import type { Plan, Point } from './measure/index.js';
import { METRES_PER_FOOT, type Units } from '../units.js';

/**
 * How a floor plan is laid out for drawing, the same on the scan's page, the customer's page and a PDF
 * (docs/documents.md, "The document model"): turned level, each wall's length written beside it, a round scale bar.
 */

/**
 * The scale bar: a round length, 1, 2 or 5 × a power of ten of the workspace's unit (1, 2, 5 m; 5, 10, 20 ft), the
 * one nearest a quarter of the plan's width. Labelled as a round figure ("2 m", "10 ft"), never "6′ 7″".
 */
export function scaleBar(planWidthMetres: number, units: Units): { metres: number; label: string } {
  const unit = units === 'metric' ? 1 : METRES_PER_FOOT;
  const target = planWidthMetres / 4 / unit;
  const power = 10 ** Math.floor(Math.log10(target));
  const length = [1, 2, 5, 10]
    .map((f) => f * power)
    .reduce((best, v) => (Math.abs(v - target) < Math.abs(best - target) ? v : best));
  const figure = Number(length.toPrecision(1)).toString();
  return { metres: length * unit, label: units === 'metric' ? `${figure} m` : `${figure} ft` };
}

const rotate = (p: Point, cos: number, sin: number): Point => [p[0] * cos - p[1] * sin, p[0] * sin + p[1] * cos];

/**
 * The plan turned so its longest wall lies level (a scan's axes are wherever the phone started, so a room drawn as
 * scanned often sits askew). Turning keeps every length; a plan without walls is drawn as it is.
 */
export function levelPlan(plan: Plan): Plan {
  const longest = plan.walls.reduce<Plan['walls'][number] | null>(
    (best, w) => (!best || w.length > best.length ? w : best),
    null,
  );
  if (!longest) return plan;
  const angle = Math.atan2(longest.b[1] - longest.a[1], longest.b[0] - longest.a[0]);
  if (angle === 0) return plan;
  const cos = Math.cos(-angle);
  const sin = Math.sin(-angle);
  const turn = (p: Point) => rotate(p, cos, sin);
  return {
    ...plan,
    outline: plan.outline.map(turn),
    walls: plan.walls.map((w) => ({ ...w, a: turn(w.a), b: turn(w.b) })),
    openings: plan.openings.map((o) => ({ ...o, a: turn(o.a), b: turn(o.b) })),
  };
}

/** Whether a point lies inside a polygon (even–odd rule). */
export function insidePolygon(p: Point, polygon: Point[]): boolean {
  let inside = false;
  for (let i = 0, j = polygon.length - 1; i < polygon.length; j = i++) {
    const [xi, yi] = polygon[i]!;
    const [xj, yj] = polygon[j]!;
    if (yi > p[1] !== yj > p[1] && p[0] < ((xj - xi) * (p[1] - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

export interface WallLabel {
  x: number;
  y: number;
  anchor: 'start' | 'middle' | 'end';
  /** The wall's middle, and which way (a unit normal) the label was pushed from it. */
  normal: Point;
}

/**
 * Where each wall's length is written: beside the wall's middle, on the side away from the room (outside the floor
 * outline, or away from the plan's centre when there is none), clear of the wall's stroke. A label beside an upright
 * wall starts (or ends) there, so its text runs away from the wall rather than across it.
 */
export function wallLabels(plan: Plan, font: number): WallLabel[] {
  const points = [...plan.outline, ...plan.walls.flatMap((w) => [w.a, w.b])];
  const centre: Point = points.length
    ? [points.reduce((s, p) => s + p[0], 0) / points.length, points.reduce((s, p) => s + p[1], 0) / points.length]
    : [0, 0];
  const probe = font * 0.25;
  return plan.walls.map((w) => {
    const mid: Point = [(w.a[0] + w.b[0]) / 2, (w.a[1] + w.b[1]) / 2];
    const len = Math.hypot(w.b[0] - w.a[0], w.b[1] - w.a[1]) || 1;
    let normal: Point = [-(w.b[1] - w.a[1]) / len, (w.b[0] - w.a[0]) / len];
    const ahead: Point = [mid[0] + normal[0] * probe, mid[1] + normal[1] * probe];
    const pointsIn =
      plan.outline.length >= 3
        ? insidePolygon(ahead, plan.outline)
        : (ahead[0] - centre[0]) ** 2 + (ahead[1] - centre[1]) ** 2 <
          (mid[0] - centre[0]) ** 2 + (mid[1] - centre[1]) ** 2;
    if (pointsIn) normal = [-normal[0], -normal[1]];
    const upright = Math.abs(normal[0]) > Math.abs(normal[1]);
    const gap = upright ? font * 0.6 : font * 0.9;
    return {
      x: mid[0] + normal[0] * gap,
      y: mid[1] + normal[1] * gap,
      anchor: upright ? (normal[0] > 0 ? 'start' : 'end') : 'middle',
      normal,
    };
  });
}
