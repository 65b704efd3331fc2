import {
  apply,
  length,
  MAX_CORNERS,
  MAX_SURFACES,
  num,
  onFloor,
  openRing,
  polygonArea,
  polygonPerimeter,
  transformOf,
} from './geometry.js';
import type { Figure, Plan, Point, RoomMeasurement } from './types.js';

/**
 * Apple RoomPlan's `CapturedRoom` as its JSON encoding writes it (what iPhone scanning apps export). Each surface
 * has `dimensions` [x, y, z] in metres (a wall: length, height, thickness; a floor: its bounding box, not its
 * size), a `transform` (16 floats, column-major: columns 0–2 the local axes, elements 12–14 the centre) and, for a
 * floor, `polygonCorners` in its own plane. Doors, windows and openings name their wall by `parentIdentifier`. A
 * multi-room scan leaves out walls already captured with the neighbouring room, so the walls may not close.
 */

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);
const SURFACE_KEYS = ['walls', 'doors', 'windows', 'openings', 'floors'] as const;

/** The CapturedRoom in a room object: the object itself, or one level down under any key. */
export function findCapturedRoom(value: unknown): Json | undefined {
  const looksLike = (v: unknown): v is Json =>
    isObject(v) &&
    (Array.isArray(v.walls) || Array.isArray(v.floors)) &&
    SURFACE_KEYS.some((k) => Array.isArray(v[k]) && (v[k] as unknown[]).length > 0);
  if (looksLike(value)) return value;
  if (!isObject(value)) return undefined;
  let looked = 0;
  for (const key in value) {
    if (++looked > 64) break;
    if (looksLike(value[key])) return value[key];
  }
  return undefined;
}

interface Surface {
  id: string | undefined;
  parent: string | undefined;
  dims: [number, number, number] | undefined;
  transform: number[] | undefined;
  corners: Array<[number, number, number]>;
}

function surfacesOf(
  room: Json,
  key: (typeof SURFACE_KEYS)[number],
  budget: { surfaces: number; corners: number },
): Surface[] {
  const list = room[key];
  if (!Array.isArray(list)) return [];
  const out: Surface[] = [];
  for (const item of list) {
    if (budget.surfaces-- <= 0) break;
    if (!isObject(item)) continue;
    const d = item.dimensions;
    const dims =
      Array.isArray(d) && d.length >= 2 && d.slice(0, 3).every((v) => num(v) !== undefined)
        ? ([num(d[0])!, num(d[1])!, num(d[2]) ?? 0] as [number, number, number])
        : undefined;
    const corners: Array<[number, number, number]> = [];
    if (Array.isArray(item.polygonCorners)) {
      for (const c of item.polygonCorners) {
        if (budget.corners-- <= 0) break;
        if (Array.isArray(c) && c.length >= 2 && num(c[0]) !== undefined && num(c[1]) !== undefined)
          corners.push([c[0] as number, c[1] as number, num(c[2]) ?? 0]);
      }
    }
    out.push({
      id: typeof item.identifier === 'string' ? item.identifier : undefined,
      parent: typeof item.parentIdentifier === 'string' ? item.parentIdentifier : undefined,
      dims,
      transform: transformOf(item.transform),
      corners,
    });
  }
  return out;
}

/** Corners carried into world space and laid flat: the axis that varies least (the vertical one) is dropped. */
function flatten(points: Array<[number, number, number]>): Point[] {
  const spread = [0, 1, 2].map((axis) => {
    const values = points.map((p) => p[axis]!);
    return Math.max(...values) - Math.min(...values);
  });
  if (spread[1]! <= spread[0]! && spread[1]! <= spread[2]!) return points.map((p) => onFloor(p));
  if (spread[2]! <= spread[0]!) return points.map((p) => [p[0], p[1]] as const);
  return points.map((p) => [p[1], p[2]] as const);
}

const figure = (value: number, source: string): Figure => ({ value, source });
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** A segment of `width` centred where the surface's transform puts it, along its local x axis, on the floor plan. */
function segmentOf(s: Surface, width: number): { a: Point; b: Point } | undefined {
  if (!s.transform) return undefined;
  return { a: onFloor(apply(s.transform, [-width / 2, 0, 0])), b: onFloor(apply(s.transform, [width / 2, 0, 0])) };
}

export function measureRoomPlan(room: Json): RoomMeasurement | undefined {
  const budget = { surfaces: MAX_SURFACES, corners: MAX_CORNERS };
  const walls = surfacesOf(room, 'walls', budget).filter((w) => w.dims && length(w.dims[0]) && length(w.dims[1]));
  const floors = surfacesOf(room, 'floors', budget);
  const kinds = {
    door: surfacesOf(room, 'doors', budget),
    window: surfacesOf(room, 'windows', budget),
    opening: surfacesOf(room, 'openings', budget),
  };
  if (walls.length === 0 && floors.length === 0) return undefined;

  const plan: Plan = { outline: [], walls: [], openings: [] };
  let floorArea: Figure | null = null;
  let perimeter: Figure | null = null;
  const floor =
    floors.find((f) => f.corners.length >= 3) ?? floors.find((f) => f.dims && length(f.dims[0]) && length(f.dims[1]));
  if (floor && floor.corners.length >= 3) {
    const outline = openRing(flatten(floor.corners.map((c) => (floor.transform ? apply(floor.transform, c) : c))));
    const area = polygonArea(outline);
    if (area > 0) {
      plan.outline = outline;
      floorArea = figure(area, 'floor outline (polygonCorners)');
      perimeter = figure(polygonPerimeter(outline), 'floor outline (polygonCorners)');
    }
  }
  if (!floorArea && floor?.dims && length(floor.dims[0]) && length(floor.dims[1])) {
    const [x, y] = floor.dims;
    floorArea = figure(x * y, 'floor bounding box (dimensions): the room may be smaller');
    perimeter = figure(2 * (x + y), 'floor bounding box (dimensions)');
    if (floor.transform)
      plan.outline = [
        [-x / 2, -y / 2],
        [x / 2, -y / 2],
        [x / 2, y / 2],
        [-x / 2, y / 2],
      ].map(([a, b]) => onFloor(apply(floor.transform!, [a!, b!, 0])));
  }

  const wallLength = walls.reduce((sum, w) => sum + w.dims![0], 0);
  for (const w of walls) {
    const segment = segmentOf(w, w.dims![0]);
    if (segment) plan.walls.push({ ...segment, length: w.dims![0] });
  }
  if (!perimeter && walls.length > 0) perimeter = figure(wallLength, 'sum of wall lengths (no floor outline)');
  const height = walls.length > 0 ? median(walls.map((w) => w.dims![1])) : undefined;
  const ceilingHeight = height ? figure(height, 'wall height') : null;
  // The walls go round the floor when their lengths add up to its perimeter (corners overlap a little either way).
  const wallsClose =
    perimeter && walls.length > 0 ? wallLength >= perimeter.value * 0.95 : walls.length > 0 ? true : null;

  let wallAreaGross: Figure | null = null;
  if (walls.length > 0 && wallsClose)
    wallAreaGross = figure(
      walls.reduce((sum, w) => sum + w.dims![0] * w.dims![1], 0),
      'walls (length × height)',
    );
  else if (perimeter && height)
    wallAreaGross = figure(
      perimeter.value * height,
      "perimeter × ceiling height (the scan's walls do not close around the floor)",
    );

  const wallIds = new Set(walls.map((w) => w.id).filter(Boolean));
  let openingsArea = 0;
  let skirtingGaps = 0;
  const counts = { door: 0, window: 0, opening: 0 };
  for (const kind of ['door', 'window', 'opening'] as const) {
    for (const s of kinds[kind]) {
      // Only what sits on this room's walls; without a parent named, it is taken as this room's.
      if (s.parent !== undefined && wallIds.size > 0 && !wallIds.has(s.parent)) continue;
      const width = s.dims ? length(s.dims[0]) : undefined;
      const tall = s.dims ? length(s.dims[1]) : undefined;
      counts[kind] += 1;
      if (width && tall) openingsArea += width * tall;
      if (width && kind !== 'window') skirtingGaps += width;
      const segment = width ? segmentOf(s, width) : undefined;
      if (segment && width) plan.openings.push({ kind, ...segment, width });
    }
  }
  const openingsFigure = figure(openingsArea, 'doors, windows and openings on the walls (width × height)');
  const wallAreaNet = wallAreaGross
    ? figure(
        Math.max(0, wallAreaGross.value - openingsArea),
        `${wallAreaGross.source}, less doors, windows and openings`,
      )
    : null;
  const skirting = perimeter
    ? figure(Math.max(0, perimeter.value - skirtingGaps), 'perimeter less the widths of doors and openings')
    : null;
  const volume = floorArea && height ? figure(floorArea.value * height, 'floor area × ceiling height') : null;
  const recognized = Boolean(floorArea || perimeter || ceilingHeight);
  return {
    recognized,
    ...(recognized ? {} : { reason: 'RoomPlan surfaces without usable dimensions' }),
    format: 'roomplan',
    floorArea,
    perimeter,
    ceilingHeight,
    wallAreaGross,
    openingsArea: openingsFigure,
    wallAreaNet,
    skirting,
    volume,
    doors: counts.door,
    windows: counts.window,
    openings: counts.opening,
    wallsClose,
    plan: plan.outline.length > 0 || plan.walls.length > 0 ? plan : null,
  };
}
