import type { Plan, Point } from '../../../domain/scans/measure/index.js';
import { formatLength, METRES_PER_FOOT, type Units } from '../../../domain/units.js';
import { html, type SafeHtml } from '../../html.js';

/** Every number in the markup is ours, rounded; labels go through `html`, which escapes them. */
const n = (value: number) => (Math.round(value * 1000) / 1000).toString();

function bounds(points: Point[]) {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  return { minX: Math.min(...xs), maxX: Math.max(...xs), minY: Math.min(...ys), maxY: Math.max(...ys) };
}

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

export function floorPlanSvg(scanned: Plan | null, units: Units, title: string): SafeHtml {
  if (!scanned)
    return html`<p class="muted small plan-none">No plan for this room: the scan has no floor outline or walls to draw.</p>`;
  const plan = levelPlan(scanned);
  const points: Point[] = [
    ...plan.outline,
    ...plan.walls.flatMap((w) => [w.a, w.b]),
    ...plan.openings.flatMap((o) => [o.a, o.b]),
  ];
  const box = bounds(points);
  const width = Math.max(box.maxX - box.minX, 0.5);
  const height = Math.max(box.maxY - box.minY, 0.5);
  const margin = Math.max(width, height) * 0.3 + 0.3;
  const bar = scaleBar(Math.max(width, height), units);
  const font = Math.max(width, height) / 16;
  const stroke = Math.max(width, height) / 150;
  const viewBox = [box.minX - margin, box.minY - margin, width + 2 * margin, height + 2 * margin + font * 2.5]
    .map(n)
    .join(' ');
  const centre: Point = [(box.minX + box.maxX) / 2, (box.minY + box.maxY) / 2];
  const barY = box.maxY + margin * 0.6 + font;
  return html`<svg class="floor-plan" role="img" viewBox="${viewBox}" preserveAspectRatio="xMidYMid meet" xmlns="http://www.w3.org/2000/svg" aria-label="${`Floor plan of ${title}`}">
<title>${`Floor plan of ${title}`}</title>
${plan.outline.length >= 3 ? html`<polygon class="plan-floor" points="${plan.outline.map((p) => `${n(p[0])},${n(p[1])}`).join(' ')}" fill="#f3f5f8" stroke="#9aa3af" stroke-width="${n(stroke)}" stroke-dasharray="${n(stroke * 3)} ${n(stroke * 2)}"/>` : ''}
${plan.walls.map(
  (w) =>
    html`<line class="plan-wall" x1="${n(w.a[0])}" y1="${n(w.a[1])}" x2="${n(w.b[0])}" y2="${n(w.b[1])}" stroke="#111827" stroke-width="${n(stroke * 4)}" stroke-linecap="square"/>`,
)}
${plan.openings.map((o) => {
  if (o.kind === 'window') {
    return html`<line class="plan-window" x1="${n(o.a[0])}" y1="${n(o.a[1])}" x2="${n(o.b[0])}" y2="${n(o.b[1])}" stroke="#ffffff" stroke-width="${n(stroke * 4)}"/><line x1="${n(o.a[0])}" y1="${n(o.a[1])}" x2="${n(o.b[0])}" y2="${n(o.b[1])}" stroke="#111827" stroke-width="${n(stroke)}" stroke-dasharray="${n(stroke * 2)} ${n(stroke)}"/>`;
  }
  // A door: a gap in the wall and a quarter circle for its swing, hinged at one end, into the room.
  const dx = o.b[0] - o.a[0];
  const dy = o.b[1] - o.a[1];
  const inward = Math.sign((centre[0] - o.a[0]) * -dy + (centre[1] - o.a[1]) * dx) || 1;
  const tip: Point = [o.a[0] - dy * inward, o.a[1] + dx * inward];
  const sweep = inward > 0 ? 1 : 0;
  return html`<line class="plan-${o.kind}" x1="${n(o.a[0])}" y1="${n(o.a[1])}" x2="${n(o.b[0])}" y2="${n(o.b[1])}" stroke="#ffffff" stroke-width="${n(stroke * 5)}"/>${o.kind === 'door' ? html`<path d="M ${n(o.a[0])} ${n(o.a[1])} L ${n(tip[0])} ${n(tip[1])} A ${n(o.width)} ${n(o.width)} 0 0 ${sweep} ${n(o.b[0])} ${n(o.b[1])}" fill="none" stroke="#4b5563" stroke-width="${n(stroke)}"/>` : ''}`;
})}
${wallLabels(plan, font).map(
  (label, i) =>
    html`<text class="plan-label" x="${n(label.x)}" y="${n(label.y)}" font-size="${n(font)}" text-anchor="${label.anchor}" dominant-baseline="middle" fill="#111827" paint-order="stroke" stroke="#ffffff" stroke-width="${n(stroke * 3)}">${formatLength(plan.walls[i]!.length, units)}</text>`,
)}
<g class="plan-scale"><line x1="${n(box.minX)}" y1="${n(barY)}" x2="${n(box.minX + bar.metres)}" y2="${n(barY)}" stroke="#111827" stroke-width="${n(stroke * 2)}"/><line x1="${n(box.minX)}" y1="${n(barY - font / 3)}" x2="${n(box.minX)}" y2="${n(barY + font / 3)}" stroke="#111827" stroke-width="${n(stroke)}"/><line x1="${n(box.minX + bar.metres)}" y1="${n(barY - font / 3)}" x2="${n(box.minX + bar.metres)}" y2="${n(barY + font / 3)}" stroke="#111827" stroke-width="${n(stroke)}"/><text x="${n(box.minX + bar.metres + font / 2)}" y="${n(barY)}" font-size="${n(font)}" dominant-baseline="middle" fill="#111827">${bar.label}</text></g>
</svg>`;
}
