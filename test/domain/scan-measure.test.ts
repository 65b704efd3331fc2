import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { measureRoom, measureRoomBytes } from '../../src/domain/scans/measure/index.js';
import { floorPlanSvg } from '../../src/web/admin/scans/floor-plan.js';
import { formatArea, formatLength, fromFeet, fromSquareFeet, toFeet, toSquareFeet } from '../../src/domain/units.js';
import { rectangularRoom } from '../fixtures/roomplan.js';

const close = (actual: number | undefined, expected: number, tolerance = 0.001) => {
  expect(actual).toBeDefined();
  expect(Math.abs(actual! - expected) / Math.max(expected, 1e-9)).toBeLessThanOrEqual(tolerance);
};

describe('room measurements from RoomPlan exports', () => {
  it('a rectangular room W × L × H, any yaw and position: area, perimeter, walls gross and net, to 0.1%', () => {
    fc.assert(
      fc.property(
        fc.double({ min: 1, max: 20, noNaN: true }),
        fc.double({ min: 1, max: 20, noNaN: true }),
        fc.double({ min: 2, max: 5, noNaN: true }),
        fc.double({ min: -Math.PI, max: Math.PI, noNaN: true }),
        fc.tuple(fc.double({ min: -50, max: 50, noNaN: true }), fc.double({ min: -50, max: 50, noNaN: true })),
        (width, length, height, yaw, at) => {
          const door = { wall: 0, offset: width / 2, width: 0.8, height: 2 };
          const window = { wall: 1, offset: length / 2, width: 0.6, height: 0.9 };
          const m = measureRoom(rectangularRoom({ width, length, height, yaw, at, doors: [door], windows: [window] }));
          expect(m.recognized).toBe(true);
          expect(m.format).toBe('roomplan');
          close(m.floorArea?.value, width * length);
          close(m.perimeter?.value, 2 * (width + length));
          close(m.ceilingHeight?.value, height);
          close(m.wallAreaGross?.value, 2 * (width + length) * height);
          close(m.wallAreaNet?.value, 2 * (width + length) * height - 0.8 * 2 - 0.6 * 0.9);
          close(m.skirting?.value, 2 * (width + length) - 0.8);
          close(m.volume?.value, width * length * height);
          expect([m.doors, m.windows, m.openings, m.wallsClose]).toEqual([1, 1, 0, true]);
          expect(m.plan?.walls).toHaveLength(4);
          expect(m.plan?.openings.map((o) => o.kind)).toEqual(['door', 'window']);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('an L-shaped floor outline gives its shoelace area, not the bounding box', () => {
    const room = rectangularRoom({ width: 6, length: 5, height: 2.5 });
    // An L: a 6 × 5 box with a 3 × 3 corner cut out (area 30 − 9 = 21, perimeter 6 + 2 + 3 + 3 + 3 + 5 = 22), in the floor’s own plane.
    room.floors[0]!.polygonCorners = [
      [-3, -2.5, 0],
      [3, -2.5, 0],
      [3, -0.5, 0],
      [0, -0.5, 0],
      [0, 2.5, 0],
      [-3, 2.5, 0],
    ];
    const m = measureRoom(room);
    close(m.floorArea?.value, 21);
    close(m.perimeter?.value, 22);
    expect(m.floorArea?.source).toBe('floor outline (polygonCorners)');
  });

  it('a multi-room scan that left out a shared wall: wall area is perimeter × height, and it says so', () => {
    const m = measureRoom(rectangularRoom({ width: 4, length: 3, height: 2.5, missingWalls: [2] }));
    expect(m.wallsClose).toBe(false);
    close(m.wallAreaGross?.value, 14 * 2.5);
    expect(m.wallAreaGross?.source).toMatch(/do not close/);
  });

  it('finds the CapturedRoom one level down, and a door on another room’s wall is not counted', () => {
    const room = rectangularRoom({
      width: 4,
      length: 4,
      height: 2.4,
      doors: [{ wall: 3, offset: 2, width: 0.9, height: 2.1 }],
    });
    room.doors.push({ ...room.doors[0]!, identifier: 'other', parentIdentifier: 'a wall of the next room' });
    const m = measureRoom({ name: 'Kitchen', capturedRoom: room });
    expect(m.recognized).toBe(true);
    expect(m.doors).toBe(1);
    close(m.floorArea?.value, 16);
  });

  it('hand-computed: a 4.2 × 3.1 m bedroom, 2.45 m high, one door and two windows', () => {
    const m = measureRoom(
      rectangularRoom({
        width: 4.2,
        length: 3.1,
        height: 2.45,
        yaw: 0.4,
        at: [1.5, -2],
        doors: [{ wall: 0, offset: 1, width: 0.82, height: 2.04 }],
        windows: [
          { wall: 1, offset: 1.5, width: 1.2, height: 1.1 },
          { wall: 2, offset: 2, width: 0.9, height: 1.1 },
        ],
      }),
    );
    // 4.2 × 3.1 = 13.02 m²; perimeter 14.6 m; walls 14.6 × 2.45 = 35.77 m²; openings 0.82 × 2.04 + 1.2 × 1.1 + 0.9 × 1.1 = 3.9828.
    close(m.floorArea?.value, 13.02);
    close(m.wallAreaGross?.value, 35.77);
    close(m.openingsArea?.value, 3.9828);
    close(m.wallAreaNet?.value, 35.77 - 3.9828);
    close(m.skirting?.value, 14.6 - 0.82);
    close(m.volume?.value, 13.02 * 2.45);
  });

  it('reads explicit fields in any unit: area, dimensions, an outline', () => {
    const fromFields = measureRoom({ name: 'Hall', dimensions: { length: 400, width: 250, height: 240 }, unit: 'cm' });
    close(fromFields.floorArea?.value, 10);
    close(fromFields.perimeter?.value, 13);
    close(fromFields.ceilingHeight?.value, 2.4);
    const outline = measureRoom({
      polygon: [
        { x: 0, y: 0 },
        { x: 10, y: 0 },
        { x: 10, y: 12 },
        { x: 0, y: 12 },
      ],
      units: 'ft',
      height: 8,
    });
    close(outline.floorArea?.value, 120 * 0.3048 ** 2);
    const area = measureRoom({ area: 18.5 });
    close(area.floorArea?.value, 18.5);
    expect(area.floorArea?.source).toBe('field area (m)');
    expect(area.perimeter).toBeNull();
  });

  it('hostile input never throws, stays bounded, and is "not recognized"', () => {
    const huge = {
      walls: Array.from({ length: 50_000 }, () => ({ dimensions: [1, 2, 0], transform: Array(16).fill(1) })),
      floors: [{ polygonCorners: Array.from({ length: 200_000 }, (_, i) => [i, 0, i]) }],
    };
    const started = Date.now();
    expect(() => measureRoom(huge)).not.toThrow();
    expect(Date.now() - started).toBeLessThan(2_000);
    for (const value of [
      null,
      7,
      'room',
      [],
      { walls: 'no' },
      { walls: [{ dimensions: [NaN, 'x', 1e12] }] },
      { area: -4 },
      { area: 1e9 },
      { units: 'parsecs', area: 3 },
    ]) {
      const m = measureRoom(value);
      expect(m.recognized).toBe(false);
      expect(m.reason).toBeTruthy();
      expect(m.floorArea).toBeNull();
    }
    expect(measureRoomBytes(Buffer.from('{"walls": [')).recognized).toBe(false);
    expect(measureRoomBytes(Buffer.from(`${'['.repeat(100_000)}${']'.repeat(100_000)}`)).recognized).toBe(false);
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), (value) => {
        const m = measureRoom(value);
        expect(typeof m.recognized).toBe('boolean');
        if (m.floorArea) expect(Number.isFinite(m.floorArea.value)).toBe(true);
      }),
      { numRuns: 500 },
    );
  });
});

describe('units and the floor plan', () => {
  it('conversions round-trip, and figures read the way a contractor writes them', () => {
    fc.assert(
      fc.property(fc.double({ min: 0, max: 10_000, noNaN: true }), (v) => {
        expect(fromFeet(toFeet(v))).toBeCloseTo(v, 9);
        expect(fromSquareFeet(toSquareFeet(v))).toBeCloseTo(v, 9);
      }),
    );
    expect(formatLength(3.42, 'metric')).toBe('3.42 m');
    expect(formatLength(3.4036, 'imperial')).toBe('11′ 2″');
    expect(formatArea(13.02, 'metric')).toBe('13.02 m²');
    expect(formatArea(13.02, 'imperial')).toBe('140 ft²');
  });

  it('draws walls, doors, windows, lengths and a scale bar, and escapes what it is given', () => {
    const m = measureRoom(
      rectangularRoom({
        width: 4,
        length: 3,
        height: 2.5,
        doors: [{ wall: 0, offset: 2, width: 0.9, height: 2 }],
        windows: [{ wall: 1, offset: 1.5, width: 1, height: 1 }],
      }),
    );
    const svg = floorPlanSvg(m.plan, 'metric', '<script>alert(1)</script>').toString();
    expect(svg).not.toContain('<script>');
    expect(svg).toContain('&lt;script&gt;');
    expect(svg.match(/class="plan-wall"/g)).toHaveLength(4);
    expect(svg).toContain('class="plan-door"');
    expect(svg).toContain('class="plan-window"');
    expect(svg).toContain('>4.00 m<');
    expect(svg).toContain('>3.00 m<');
    expect(svg).toContain('class="plan-scale"');
    expect(svg).not.toMatch(/NaN|Infinity|undefined/);
    // Balanced: every opened element is closed.
    const opened = (svg.match(/<(svg|g|title)\b/g) ?? []).length;
    const closed = (svg.match(/<\/(svg|g|title)>/g) ?? []).length;
    expect(opened).toBe(closed);
    expect(floorPlanSvg(null, 'metric', 'x').toString()).toContain('No plan for this room');
  });
});
