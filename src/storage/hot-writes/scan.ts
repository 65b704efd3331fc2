/** The scan-upload statements of the hot writes: the scan row and its rooms. */
import type { Dialect } from '../dialect.js';
import type { ScanTable } from '../schema.js';
import { columns, emptyBytes, rowsOf, valuesRows, type Field, type Markers } from './sql-parts.js';

/** A scan as uploaded; `raw` is any byte view (the SQLite writer thread receives it transferred). */
export type ScanRow = Omit<ScanTable, 'raw'> & { raw: Uint8Array };

/** A room: its listed name and its byte range [start, end) of the scan's raw body. */
export interface RoomRow {
  name: string;
  start: number;
  end: number;
}

const SCAN_COLUMNS = [
  'id',
  'workspace_id',
  'received_at',
  'room_count',
  'byte_size',
  'user_agent',
  'raw',
  'idempotency_key',
] as const satisfies ReadonlyArray<keyof ScanRow>;

/**
 * `count` scans (1 on SQLite), as VALUES: each body goes as a binary parameter, its bytes as they are (an array
 * parameter would carry it as hex text, twice the size). Parameters: scanInsertParams of each scan in turn.
 */
export function scanInsert(m: Markers, count: number): string {
  return `insert into scans (${SCAN_COLUMNS.join(', ')}) values ${valuesRows(m, SCAN_COLUMNS.length, count)}`;
}

/** One scan's parameters; the body as a Buffer over the same memory. */
export function scanInsertParams(scan: ScanRow): unknown[] {
  const raw = scan.raw;
  const withBuffer = { ...scan, raw: Buffer.from(raw.buffer, raw.byteOffset, raw.byteLength) };
  return SCAN_COLUMNS.map((c) => withBuffer[c]);
}

/** A room as inserted: the scan it belongs to and its place in the scan's list. */
export interface RoomOf {
  scan_id: string;
  idx: number;
  name: string;
  raw_start: number;
  raw_end: number;
}

const ROOM_FIELDS = [
  ['scan_id', 'text'],
  ['idx', 'int'],
  ['name', 'text'],
  ['raw_start', 'int'],
  ['raw_end', 'int'],
] as const satisfies ReadonlyArray<Field<keyof RoomOf>>;

/** A scan's rooms, in order. */
export function roomsOf(scanId: string, rooms: readonly RoomRow[]): RoomOf[] {
  return rooms.map((room, idx) => ({ scan_id: scanId, idx, name: room.name, raw_start: room.start, raw_end: room.end }));
}

/**
 * Rooms (one on SQLite, any number on PostgreSQL; see rowsOf). A room's bytes are its range of the scan's body
 * (migration 0005): its own `raw` stays empty. Parameters: roomInsertParams.
 */
export function roomInsert(m: Markers): string {
  return (
    'insert into scan_rooms (scan_id, idx, name, raw, raw_start, raw_end) ' +
    `select r.scan_id, r.idx, r.name, ${emptyBytes(m.dialect)}, r.raw_start, r.raw_end from ${rowsOf(m, 'r', ROOM_FIELDS)}`
  );
}

/** Parameters of roomInsert: the one room's values (SQLite), or one array per field (PostgreSQL). */
export function roomInsertParams(dialect: Dialect, rooms: readonly RoomOf[]): unknown[] {
  const names = ROOM_FIELDS.map(([name]) => name);
  if (dialect === 'sqlite') return names.map((name) => rooms[0]![name]);
  return columns(rooms, names);
}
