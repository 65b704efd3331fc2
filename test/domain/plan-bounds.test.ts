import { describe, expect, it } from 'vitest';
import { measureRoom, MAX_PLAN_CORNERS, MAX_PLAN_WALLS } from '../../src/domain/scans/measure/index.js';
import { boundedPlan } from '../../src/domain/scans/measure/plan-bounds.js';
import { polygonRoom, rectangularRoom } from '../fixtures/roomplan.js';

describe("a room's plan is kept within bounds for drawing; its figures count every surface", () => {
  it('600 walls: the plan keeps the 64 longest and 128 corners and says how many there were; the figures use all 600', () => {
    const m = measureRoom(polygonRoom({ walls: 600, radius: 3, height: 2.5 }));
    expect(m.plan?.walls).toHaveLength(MAX_PLAN_WALLS);
    expect(m.plan?.outline).toHaveLength(MAX_PLAN_CORNERS);
    expect(m.plan?.simplified).toEqual({ walls: 600, openings: 0, corners: 600 });
    // π r² for r = 3, from all 600 corners, not the 128 drawn.
    expect(m.floorArea?.value).toBeCloseTo(Math.PI * 9, 1);
    // Bounding again changes nothing and keeps the counts from before the first cut.
    expect(boundedPlan(m.plan)).toEqual(m.plan);
  });

  it('a real room is kept whole, with no note', () => {
    const m = measureRoom(
      rectangularRoom({ width: 4, length: 3, height: 2.5, doors: [{ wall: 0, offset: 1, width: 0.8, height: 2 }] }),
    );
    expect(m.plan?.walls).toHaveLength(4);
    expect(m.plan?.openings).toHaveLength(1);
    expect(m.plan?.simplified).toBeUndefined();
  });
});
