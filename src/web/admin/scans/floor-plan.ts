import type { Plan, Point } from '../../../domain/scans/measure/index.js';
import { levelPlan, scaleBar, wallLabels } from '../../../domain/scans/plan-drawing.js';
import { formatLength, type Units } from '../../../domain/units.js';
import { html, type SafeHtml } from '../../html.js';

export { insidePolygon, levelPlan, scaleBar, wallLabels, type WallLabel } from '../../../domain/scans/plan-drawing.js';

/** Every number in the markup is ours, rounded; labels go through `html`, which escapes them. */
const n = (value: number) => (Math.round(value * 1000) / 1000).toString();

function bounds(points: Point[]) {
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  return { minX: Math.min(...xs), maxX: Math.max(...xs), minY: Math.min(...ys), maxY: Math.max(...ys) };
}

export function floorPlanSvg(scanned: Plan | null, units: Units, title: string): SafeHtml {
  if (!scanned)
    return html`<p class="muted small plan-none">No plan for this room: the scan has no floor outline or walls to
    draw.</p>`;
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
  return html`<svg class="floor-plan" role="img" viewBox="${viewBox}" preserveAspectRatio="xMidYMid meet"
    xmlns="http://www.w3.org/2000/svg" aria-label="${`Floor plan of ${title}`}">
<title>${`Floor plan of ${title}`}</title>
${
  plan.outline.length >= 3
    ? html`<polygon class="plan-floor" points="${plan.outline
        .map((p) => `${n(p[0])},${n(p[1])}`)
        .join(' ')}" fill="#f3f5f8" stroke="#9aa3af" stroke-width="${n(stroke)}"
          stroke-dasharray="${n(stroke * 3)} ${n(stroke * 2)}"/>`
    : ''
}
${plan.walls.map(
  (w) =>
    html`<line class="plan-wall" x1="${n(w.a[0])}" y1="${n(w.a[1])}" x2="${n(w.b[0])}" y2="${n(w.b[1])}"
      stroke="#111827" stroke-width="${n(stroke * 4)}" stroke-linecap="square"/>`,
)}
${plan.openings.map((o) => {
  if (o.kind === 'window') {
    return html`<line class="plan-window" x1="${n(o.a[0])}" y1="${n(o.a[1])}" x2="${n(o.b[0])}" y2="${n(o.b[1])}"
      stroke="#ffffff" stroke-width="${n(stroke * 4)}"/><line x1="${n(o.a[0])}" y1="${n(o.a[1])}" x2="${n(o.b[0])}"
        y2="${n(o.b[1])}" stroke="#111827" stroke-width="${n(stroke)}"
          stroke-dasharray="${n(stroke * 2)} ${n(stroke)}"/>`;
  }
  // A door: a gap in the wall and a quarter circle for its swing, hinged at one end, into the room.
  const dx = o.b[0] - o.a[0];
  const dy = o.b[1] - o.a[1];
  const inward = Math.sign((centre[0] - o.a[0]) * -dy + (centre[1] - o.a[1]) * dx) || 1;
  const tip: Point = [o.a[0] - dy * inward, o.a[1] + dx * inward];
  const sweep = inward > 0 ? 1 : 0;
  // The door's swing: digits, letters and spaces only, so html`` passes it through as it is.
  const swing =
    `M ${n(o.a[0])} ${n(o.a[1])} L ${n(tip[0])} ${n(tip[1])} ` +
    `A ${n(o.width)} ${n(o.width)} 0 0 ${sweep} ${n(o.b[0])} ${n(o.b[1])}`;
  return html`<line class="plan-${o.kind}" x1="${n(o.a[0])}" y1="${n(o.a[1])}" x2="${n(o.b[0])}" y2="${n(o.b[1])}"
    stroke="#ffffff" stroke-width="${n(stroke * 5)}"/>${
      o.kind === 'door' ? html`<path d="${swing}" fill="none" stroke="#4b5563" stroke-width="${n(stroke)}"/>` : ''
    }`;
})}
${wallLabels(plan, font).map(
  (label, i) =>
    html`<text class="plan-label" x="${n(label.x)}" y="${n(label.y)}" font-size="${n(font)}"
      text-anchor="${label.anchor}" dominant-baseline="middle" fill="#111827" paint-order="stroke" stroke="#ffffff"
        stroke-width="${n(stroke * 3)}">${formatLength(plan.walls[i]!.length, units)}</text>`,
)}
<g class="plan-scale"><line x1="${n(box.minX)}" y1="${n(barY)}" x2="${n(box.minX + bar.metres)}" y2="${n(barY)}"
  stroke="#111827" stroke-width="${n(stroke * 2)}"/><line x1="${n(box.minX)}" y1="${n(barY - font / 3)}"
    x2="${n(box.minX)}" y2="${n(barY + font / 3)}" stroke="#111827"
      stroke-width="${n(stroke)}"/><line x1="${n(box.minX + bar.metres)}" y1="${n(barY - font / 3)}"
        x2="${n(box.minX + bar.metres)}" y2="${n(barY + font / 3)}" stroke="#111827"
          stroke-width="${n(stroke)}"/><text x="${n(
            box.minX + bar.metres + font / 2,
          )}" y="${n(barY)}" font-size="${n(font)}" dominant-baseline="middle" fill="#111827">${bar.label}</text></g>
</svg>`;
}
