import { length, MAX_CORNERS, num, openRing, polygonArea, polygonPerimeter } from './geometry.js';
import type { Figure, Point, RoomMeasurement } from './types.js';

/** Metres per unit a room object may name in `unit` or `units` (metres when it names none). */
const UNIT_METRES: Record<string, number> = {
  m: 1,
  meter: 1,
  meters: 1,
  metre: 1,
  metres: 1,
  cm: 0.01,
  mm: 0.001,
  ft: 0.3048,
  feet: 0.3048,
  in: 0.0254,
  inch: 0.0254,
  inches: 0.0254,
};

type Json = Record<string, unknown>;
const isObject = (value: unknown): value is Json =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function outlineOf(value: unknown, scale: number): Point[] | undefined {
  if (!Array.isArray(value) || value.length < 3 || value.length > MAX_CORNERS) return undefined;
  const points: Point[] = [];
  for (const p of value) {
    const x = Array.isArray(p) ? num(p[0]) : isObject(p) ? num(p.x) : undefined;
    const y = Array.isArray(p) ? num(p[1]) : isObject(p) ? num(p.y) : undefined;
    if (x === undefined || y === undefined) return undefined;
    points.push([x * scale, y * scale]);
  }
  return openRing(points);
}

function dimensionsOf(value: unknown): { length?: number; width?: number; height?: number } {
  if (Array.isArray(value)) return { length: length(value[0]), width: length(value[1]), height: length(value[2]) };
  if (!isObject(value)) return {};
  return {
    length: length(value.length ?? value.x),
    width: length(value.width ?? value.y),
    height: length(value.height ?? value.z),
  };
}

/**
 * A room object that states its own figures: `area`/`floorArea`, `perimeter`, `height`/`ceilingHeight`,
 * `width`/`length`, `dimensions` ({length, width, height}, {x, y, z} or [x, y, z]), a floor outline
 * (`polygon`/`corners`/`floorPolygon`/`points` as [[x, y], …] or [{x, y}, …]) and `unit`/`units`.
 */
export function measureFields(room: unknown): RoomMeasurement | undefined {
  if (!isObject(room)) return undefined;
  const unitName = typeof room.unit === 'string' ? room.unit : typeof room.units === 'string' ? room.units : 'm';
  const scale = UNIT_METRES[unitName.trim().toLowerCase()];
  if (scale === undefined) return undefined;
  const unit = unitName.trim();
  const dims = dimensionsOf(room.dimensions);
  const w = length(room.width) ?? dims.width;
  const l = length(room.length) ?? dims.length;
  const h = length(room.ceilingHeight) ?? length(room.height) ?? dims.height;
  const outline = outlineOf(room.floorPolygon ?? room.polygon ?? room.corners ?? room.points, scale);
  const given = (key: string, value: number | undefined, square = 1): Figure | null =>
    value === undefined ? null : { value: value * scale ** square, source: `field ${key} (${unit})` };

  const explicitArea = given(
    room.floorArea !== undefined ? 'floorArea' : 'area',
    length(room.floorArea) ?? length(room.area),
    2,
  );
  const floorArea =
    explicitArea ??
    (outline && polygonArea(outline) > 0
      ? { value: polygonArea(outline), source: 'floor outline (field polygon)' }
      : null) ??
    (w && l ? { value: w * l * scale * scale, source: 'width × length' } : null);
  const perimeter =
    given('perimeter', length(room.perimeter)) ??
    (outline ? { value: polygonPerimeter(outline), source: 'floor outline (field polygon)' } : null) ??
    (w && l ? { value: 2 * (w + l) * scale, source: '2 × (width + length)' } : null);
  const ceilingHeight =
    h === undefined
      ? null
      : { value: h * scale, source: `field ${length(room.ceilingHeight) ? 'ceilingHeight' : 'height'} (${unit})` };
  if (!floorArea && !perimeter && !ceilingHeight) return undefined;
  const wallAreaGross =
    perimeter && ceilingHeight
      ? { value: perimeter.value * ceilingHeight.value, source: 'perimeter × ceiling height' }
      : null;
  return {
    recognized: true,
    format: 'fields',
    floorArea,
    perimeter,
    ceilingHeight,
    wallAreaGross,
    // Nothing is said about doors or windows: net figures equal the gross ones, and the counts are unknown.
    openingsArea: null,
    wallAreaNet: wallAreaGross
      ? { value: wallAreaGross.value, source: `${wallAreaGross.source} (no openings given)` }
      : null,
    skirting: perimeter ? { value: perimeter.value, source: `${perimeter.source} (no doors given)` } : null,
    volume:
      floorArea && ceilingHeight
        ? { value: floorArea.value * ceilingHeight.value, source: 'floor area × ceiling height' }
        : null,
    doors: null,
    windows: null,
    openings: null,
    wallsClose: null,
    plan: outline ? { outline, walls: [], openings: [] } : null,
  };
}
