import type { Figure, RoomMeasurement } from './measure/index.js';
import { formatArea, formatLength, formatVolume, toFeet, toSquareFeet, type Units } from '../units.js';
import type { ScanFigures } from './measure-scan.js';
import { csvNumber, type CsvCell, type CsvNumber } from '../csv-cells.js';

/** The columns of a scan's measurements, in the order the page, the CSV and the CLI show them. */
export const MEASUREMENT_COLUMNS = [
  ['floorArea', 'Floor area', 'area'],
  ['perimeter', 'Perimeter', 'length'],
  ['ceilingHeight', 'Height', 'length'],
  ['wallAreaGross', 'Wall area', 'area'],
  ['wallAreaNet', 'Net wall area', 'area'],
  ['openingsArea', 'Openings', 'area'],
  ['skirting', 'Skirting', 'length'],
  ['volume', 'Volume', 'volume'],
] as const satisfies ReadonlyArray<readonly [keyof RoomMeasurement, string, 'area' | 'length' | 'volume']>;

export type MeasurementKey = (typeof MEASUREMENT_COLUMNS)[number][0];

/** A figure as a person reads it, in the workspace's units; a dash when there is none. */
export function figureText(figure: Figure | null, kind: 'area' | 'length' | 'volume', units: Units): string {
  if (!figure) return '—';
  return kind === 'area'
    ? formatArea(figure.value, units)
    : kind === 'length'
      ? formatLength(figure.value, units)
      : formatVolume(figure.value, units);
}

/** A figure as a number for a spreadsheet, in the workspace's units, rounded as the page rounds it. */
export function figureNumber(
  figure: Figure | null,
  kind: 'area' | 'length' | 'volume',
  units: Units,
): CsvNumber | null {
  if (!figure) return null;
  const v = figure.value;
  if (units === 'metric') return kind === 'volume' ? csvNumber(v, 1) : csvNumber(v, 2);
  if (kind === 'area') return csvNumber(Math.round(toSquareFeet(v)));
  if (kind === 'volume') return csvNumber(Math.round(v / 0.3048 ** 3));
  return csvNumber(toFeet(v), 2);
}

const UNIT_OF = {
  metric: { area: 'm2', length: 'm', volume: 'm3' },
  imperial: { area: 'ft2', length: 'ft', volume: 'ft3' },
} as const;

/** The header row of the measurements CSV: each column names its unit. */
export function measurementHeaders(units: Units): string[] {
  return [
    'room',
    'name',
    'recognized',
    ...MEASUREMENT_COLUMNS.map(([key, , kind]) => `${key}_${UNIT_OF[units][kind]}`),
    'doors',
    'windows',
    'openings',
    'note',
  ];
}

/** What a person should know about a room's figures: not recognized, or walls that do not close. */
export function roomNote(m: RoomMeasurement): string {
  if (!m.recognized) return m.reason ?? 'No measurements recognized';
  if (m.wallsClose === false)
    return (
      "The scan's walls do not close around the floor (a room scanned with its neighbour): wall area is " +
      'perimeter × height.'
    );
  if (m.floorArea?.source.startsWith('floor bounding box'))
    return 'Floor area from the bounding box: the room may be smaller.';
  return '';
}

/**
 * One row a room, the same numbers as the page: numbers as numbers, the rest as text. The CSV writes them with the
 * one cell rule (csv-cells.ts: a room's name comes from the upload, so it is guarded); the CLI prints them as text.
 */
export function measurementRows(figures: ScanFigures, units: Units): CsvCell[][] {
  return figures.rooms.map((room) => [
    room.index + 1,
    room.name,
    room.measurement.recognized ? 'yes' : 'no',
    ...MEASUREMENT_COLUMNS.map(([key, , kind]) => figureNumber(room.measurement[key], kind, units)),
    room.measurement.doors,
    room.measurement.windows,
    room.measurement.openings,
    roomNote(room.measurement),
  ]);
}
