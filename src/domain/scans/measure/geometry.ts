import type { Point } from './types.js';

/** Bounds on what is read from one room: hostile input costs bounded work and is refused, never thrown on. */
export const MAX_SURFACES = 2_000;
export const MAX_CORNERS = 10_000;
/** Ten kilometres: anything larger in a room is not a measurement. */
export const MAX_METRES = 10_000;

/** A finite number within the bounds, else undefined. */
export function num(value: unknown): number | undefined {
  return typeof value === 'number' && Number.isFinite(value) && Math.abs(value) <= MAX_METRES ? value : undefined;
}

/** A positive length within the bounds, else undefined. */
export function length(value: unknown): number | undefined {
  const n = num(value);
  return n !== undefined && n > 0 ? n : undefined;
}

/** A 4×4 column-major transform (16 finite numbers), as RoomPlan's simd_float4x4 encodes; else undefined. */
export function transformOf(value: unknown): number[] | undefined {
  if (!Array.isArray(value) || value.length !== 16) return undefined;
  const out: number[] = [];
  for (const v of value) {
    if (typeof v !== 'number' || !Number.isFinite(v) || Math.abs(v) > MAX_METRES) return undefined;
    out.push(v);
  }
  return out;
}

/** A point of the surface's own space carried into world space: M · (x, y, z, 1). */
export function apply(m: readonly number[], p: readonly [number, number, number]): [number, number, number] {
  const [x, y, z] = p;
  return [
    m[0]! * x + m[4]! * y + m[8]! * z + m[12]!,
    m[1]! * x + m[5]! * y + m[9]! * z + m[13]!,
    m[2]! * x + m[6]! * y + m[10]! * z + m[14]!,
  ];
}

/** RoomPlan's world is y-up: the floor plan is the x–z plane. */
export function onFloor(p: readonly [number, number, number]): Point {
  return [p[0], p[2]];
}

export function distance(a: Point, b: Point): number {
  return Math.hypot(b[0] - a[0], b[1] - a[1]);
}

/** Shoelace: the area of a simple polygon (absolute; a self-crossing outline gives its net area). */
export function polygonArea(points: readonly Point[]): number {
  let twice = 0;
  for (let i = 0; i < points.length; i += 1) {
    const [x1, y1] = points[i]!;
    const [x2, y2] = points[(i + 1) % points.length]!;
    twice += x1 * y2 - x2 * y1;
  }
  return Math.abs(twice) / 2;
}

export function polygonPerimeter(points: readonly Point[]): number {
  let total = 0;
  for (let i = 0; i < points.length; i += 1) total += distance(points[i]!, points[(i + 1) % points.length]!);
  return total;
}

/** Drops a closing corner that repeats the first (some exports close the ring, some do not). */
export function openRing(points: Point[]): Point[] {
  if (points.length > 1 && distance(points[0]!, points.at(-1)!) < 1e-9) return points.slice(0, -1);
  return points;
}
