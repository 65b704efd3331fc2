import type { DocumentPlan, PlanPoint } from '../domain/document-model.js';

/** A room's plan drawn into a box as vectors, the same strokes as the customer's page draws (docs/documents.md). */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

const LABEL_SIZE = 6.5;
/** Room kept around the plan for the wall labels and under it for the scale bar, in points. */
const PAD = 22;
const BAR_ROOM = 16;

export function drawPlan(
  doc: PDFKit.PDFDocument,
  plan: DocumentPlan,
  box: Box,
  label: (text: string, at: PlanPoint, anchor: 'start' | 'middle' | 'end', size: number) => void,
): void {
  const points = plan.shapes.flatMap((s) => s.points);
  if (points.length === 0) return;
  const xs = points.map((p) => p[0]);
  const ys = points.map((p) => p[1]);
  const minX = Math.min(...xs);
  const minY = Math.min(...ys);
  const spanX = Math.max(Math.max(...xs) - minX, 0.5);
  const spanY = Math.max(Math.max(...ys) - minY, 0.5);
  const availW = box.w - 2 * PAD;
  const availH = box.h - 2 * PAD - BAR_ROOM;
  const scale = Math.min(availW / spanX, availH / spanY);
  const offX = box.x + PAD + (availW - spanX * scale) / 2;
  const offY = box.y + PAD + (availH - spanY * scale) / 2;
  const at = (p: PlanPoint): PlanPoint => [offX + (p[0] - minX) * scale, offY + (p[1] - minY) * scale];
  const path = (pts: PlanPoint[], closed: boolean) => {
    const [first, ...rest] = pts.map(at);
    if (!first) return;
    doc.moveTo(first[0], first[1]);
    for (const p of rest) doc.lineTo(p[0], p[1]);
    if (closed) doc.closePath();
  };
  doc.save();
  for (const shape of plan.shapes) {
    path(shape.points, shape.closed);
    switch (shape.kind) {
      case 'floor':
        doc.lineWidth(0.6).dash(2, { space: 1.5 }).fillAndStroke('#f3f5f8', '#9aa3af').undash();
        break;
      case 'wall':
        doc.lineWidth(2.2).lineCap('square').strokeColor('#111827').stroke();
        break;
      case 'gap':
        doc.lineWidth(3.2).lineCap('butt').strokeColor('#ffffff').stroke();
        break;
      case 'window':
        doc.lineWidth(0.7).dash(1.6, { space: 0.8 }).strokeColor('#111827').stroke().undash();
        break;
      case 'swing':
        doc.lineWidth(0.5).strokeColor('#4b5563').stroke();
        break;
    }
  }
  doc.restore();
  for (const l of plan.labels) {
    const p = at(l.at);
    const upright = Math.abs(l.normal[0]) > Math.abs(l.normal[1]);
    const gap = upright ? 4 : 6;
    label(l.text, [p[0] + l.normal[0] * gap, p[1] + l.normal[1] * gap], l.anchor, LABEL_SIZE);
  }
  // The scale bar under the drawing, at its left.
  const barY = box.y + box.h - BAR_ROOM + 2;
  const barX = box.x + PAD;
  const barW = Math.min(plan.scale.metres * scale, box.w - 2 * PAD - 30);
  doc.save();
  doc
    .moveTo(barX, barY)
    .lineTo(barX + barW, barY)
    .moveTo(barX, barY - 2.5)
    .lineTo(barX, barY + 2.5)
    .moveTo(barX + barW, barY - 2.5)
    .lineTo(barX + barW, barY + 2.5)
    .lineWidth(0.8)
    .strokeColor('#111827')
    .stroke();
  doc.restore();
  label(plan.scale.label, [barX + barW + 4, barY], 'start', LABEL_SIZE);
}
