import { describe, expect, it } from 'vitest';
import type { Plan, Point } from '../../../src/domain/scans/measure/index.js';
import {
  floorPlanSvg,
  insidePolygon,
  levelPlan,
  scaleBar,
  wallLabels,
} from '../../../src/web/admin/scans/floor-plan.js';

/** An L-shaped room, 6 m by 4 m, scanned turned 30° (the phone's start, not the room, set the axes). */
function turnedRoom(degrees: number): Plan {
  const corners: Point[] = [
    [0, 0],
    [6, 0],
    [6, 2],
    [3, 2],
    [3, 4],
    [0, 4],
  ];
  const t = (degrees * Math.PI) / 180;
  const turn = ([x, y]: Point): Point => [
    x * Math.cos(t) - y * Math.sin(t) + 10,
    x * Math.sin(t) + y * Math.cos(t) - 5,
  ];
  const outline = corners.map(turn);
  const walls = outline.map((a, i) => {
    const b = outline[(i + 1) % outline.length]!;
    return { a, b, length: Math.hypot(b[0] - a[0], b[1] - a[1]) };
  });
  return { outline, walls, openings: [{ kind: 'door', a: turn([1, 0]), b: turn([1.8, 0]), width: 0.8 }] };
}

const angleOf = (w: Plan['walls'][number]) => Math.atan2(w.b[1] - w.a[1], w.b[0] - w.a[0]);

describe('a floor plan as drawn', () => {
  it('is turned so its longest wall lies level, keeping every length', () => {
    const scanned = turnedRoom(30);
    expect(Math.abs(angleOf(scanned.walls[0]!))).toBeGreaterThan(0.5);
    const level = levelPlan(scanned);
    const longest = level.walls.reduce((a, b) => (b.length > a.length ? b : a));
    expect(angleOf(longest)).toBeCloseTo(0, 9);
    for (const [i, w] of level.walls.entries())
      expect(Math.hypot(w.b[0] - w.a[0], w.b[1] - w.a[1])).toBeCloseTo(scanned.walls[i]!.length, 9);
    // The drawing itself is the turned plan: its first wall (the longest) runs level.
    const svg = floorPlanSvg(scanned, 'metric', 'L').toString();
    const first = /<line class="plan-wall" x1="([-\d.]+)" y1="([-\d.]+)" x2="([-\d.]+)" y2="([-\d.]+)"/.exec(svg)!;
    expect(Number(first[2])).toBeCloseTo(Number(first[4]), 2);
  });

  it('labels every wall, each label outside the room', () => {
    for (const degrees of [0, 30, 90, 200]) {
      const plan = levelPlan(turnedRoom(degrees));
      const labels = wallLabels(plan, 0.4);
      expect(labels).toHaveLength(plan.walls.length);
      for (const label of labels) expect(insidePolygon([label.x, label.y], plan.outline)).toBe(false);
      const svg = floorPlanSvg(turnedRoom(degrees), 'metric', 'L').toString();
      expect(svg.match(/class="plan-label"/g)).toHaveLength(plan.walls.length);
    }
  });

  it('draws its scale bar at a round length: 1, 2, 5 m or 5, 10 ft', () => {
    expect(scaleBar(4, 'metric')).toEqual({ metres: 1, label: '1 m' });
    expect(scaleBar(8, 'metric')).toEqual({ metres: 2, label: '2 m' });
    expect(scaleBar(20, 'metric')).toEqual({ metres: 5, label: '5 m' });
    expect(scaleBar(6, 'imperial')).toEqual({ metres: 5 * 0.3048, label: '5 ft' });
    expect(scaleBar(12, 'imperial')).toEqual({ metres: 10 * 0.3048, label: '10 ft' });
    const svg = floorPlanSvg(turnedRoom(30), 'imperial', 'L').toString();
    expect(svg).toMatch(/<g class="plan-scale">.*>5 ft<\/text><\/g>/s);
  });
});
