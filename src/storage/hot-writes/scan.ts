/** The scan-upload statements of the hot writes: the scan row and its rooms. */
import type { ScanTable } from '../schema.js';
import { emptyBytes, insertRows, valuesRows, type Field, type Markers } from './sql-parts.js';

declare const handedOver: unique symbol;

/**
 * A scan body given to the hot writer, which may take its memory: on SQLite a body of 64 KiB or more that is the
 * whole of its ArrayBuffer is moved to the writer thread, not copied, and every view of it is empty from the write
 * on. Made only by `handOver`, the holder's word that it reads the bytes before the write and never after: read
 * `byteLength` first.
 */
export type HandedOverBytes<Bytes extends Uint8Array = Uint8Array> = Bytes & { readonly [handedOver]: true };

/** Marks `bytes` as given to the hot writer (see HandedOverBytes). */
export function handOver<Bytes extends Uint8Array>(bytes: Bytes): HandedOverBytes<Bytes> {
  return bytes as HandedOverBytes<Bytes>;
}

/** A scan as uploaded; `raw` may be moved to the SQLite writer thread (HandedOverBytes). */
export type ScanRow = Omit<ScanTable, 'raw'> & { raw: HandedOverBytes };

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

const ROOM_FIELDS = [
  ['scan_id', 'text'],
  ['idx', 'int'],
  ['name', 'text'],
  ['raw_start', 'int'],
  ['raw_end', 'int'],
] as const satisfies readonly Field[];

/**
 * Rooms (one on SQLite, any number on PostgreSQL; see insertRows). A room's bytes are its range of the scan's body
 * (migration 0005): its own `raw` stays empty. Parameters: roomParams (SQLite), roomsParams (PostgreSQL).
 */
export function roomInsert(m: Markers): string {
  const [scanId, idx, name, rawStart, rawEnd] = ROOM_FIELDS;
  return insertRows(m, 'scan_rooms', [
    scanId,
    idx,
    name,
    ['raw', { constant: emptyBytes(m.dialect) }],
    rawStart,
    rawEnd,
  ]);
}

/** One room's parameters, in ROOM_FIELDS order: the scan it belongs to, its place in the scan's list, its range. */
export function roomParams(scanId: string, room: RoomRow, idx: number): unknown[] {
  return [scanId, idx, room.name, room.start, room.end];
}

/** The rooms of `scans`, one array per field in ROOM_FIELDS order (PostgreSQL). */
export function roomsParams(scans: ReadonlyArray<{ scanId: string; rooms: readonly RoomRow[] }>): unknown[] {
  const rows = scans.flatMap(({ scanId, rooms }) => rooms.map((room, idx) => roomParams(scanId, room, idx)));
  return ROOM_FIELDS.map((_, i) => rows.map((row) => row[i]));
}
