import type { HandedOverBytes } from '../../storage/hot-writes/scan.js';
import { keyDone } from '../idempotency/idempotency-store.js';
import type { ResultSlot } from '../idempotency/run-idempotent.js';
import { nowIso, type VerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import { touchUploadKey } from '../keys/touch-upload-key.js';
import { JsonSyntaxError, scanRooms, type RoomSlice } from './json-room-slices.js';

/** At most this many rooms per upload (docs/api.md). */
export const MAX_ROOMS = 500;
/** Room names are for the Scans inbox list; a longer `name` is cut there (the raw bytes keep all of it). */
export const MAX_ROOM_NAME_LENGTH = 200;

/** The domain result; an Idempotency-Key keeps it, and http/ answers `{ ok: true, count }`. */
export interface StoreUploadResult {
  kind: 'scan';
  /** null for a connection test (`rooms: []`): nothing is stored. */
  scanId: string | null;
  count: number;
}

export interface StoreUploadInput {
  workspaceId: string;
  /** The request body exactly as received; read here before it is written, never after (HandedOverBytes). */
  body: HandedOverBytes<Buffer>;
  userAgent: string | undefined;
  /**
   * An Idempotency-Key this upload answers: marked done with the result in the upload's own transaction, and kept
   * on the scan.
   */
  idempotency?: ResultSlot | null;
}

/** The name of a room that has none of its own: "Room N", N counted from 1 for room `index` (0-based). */
export function numberedRoomName(index: number): string {
  return `Room ${index + 1}`;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * The name listed for room `index` (0-based): its string `name`, else "Room N" with N counted from 1, as a
 * person would number them. The listed name is made storable text on both databases (no NUL, no lone UTF-16
 * surrogate) and cut to MAX_ROOM_NAME_LENGTH code points; the room's raw bytes are never touched.
 */
export function roomDisplayName(name: string | undefined, index: number): string {
  if (name === undefined) return numberedRoomName(index);
  const text = name.replaceAll('\u0000', '\uFFFD').replace(LONE_SURROGATE, '\uFFFD');
  const points = Array.from(text);
  return points.length > MAX_ROOM_NAME_LENGTH ? `${points.slice(0, MAX_ROOM_NAME_LENGTH - 1).join('')}…` : text;
}

/** The rooms of a body, or the AppError that refuses it. No database access. */
export function readUploadRooms(body: Buffer): RoomSlice[] {
  let scan;
  try {
    if (body.length === 0) throw new JsonSyntaxError(0, 'The body is empty');
    scan = scanRooms(body, MAX_ROOMS);
  } catch (error) {
    if (!(error instanceof JsonSyntaxError)) throw error;
    throw new AppError(
      'unreadable_body',
      `The body is not readable JSON (${error.message}); send a UTF-8 JSON object like {"rooms":[…]}`,
    );
  }
  if (scan.kind !== 'rooms') {
    throw new AppError(
      'invalid_rooms',
      scan.kind === 'not_object'
        ? 'The body must be a JSON object with a "rooms" array, e.g. {"rooms":[]}'
        : 'The body has no "rooms" array; send {"rooms":[…]} (an empty array tests the connection)',
    );
  }
  // Checked before the entries: a client sending too many rooms must split the upload whatever they hold.
  if (scan.count > MAX_ROOMS) {
    throw new AppError(
      'too_many_rooms',
      `The upload has ${scan.count} rooms; send at most ${MAX_ROOMS} per upload and split the rest into more uploads`,
    );
  }
  const bad = scan.rooms.findIndex((room) => !room.isObject);
  if (bad !== -1) {
    throw new AppError(
      'invalid_rooms',
      `rooms[${bad}] is not a JSON object; every entry of "rooms" must be a room object (rooms count from 0)`,
    );
  }
  return scan.rooms;
}

/**
 * Stores a scan upload for the workspace whose key was accepted (docs/api.md): the body's bytes unchanged, and
 * each room as its byte range of it, in one hot write; resolves after COMMIT. `rooms: []` is a connection test:
 * nothing is stored. The key's last-connected/last-used times are written afterwards, at most once a minute.
 */
export async function storeUpload({ ctx, input }: VerbArgs<StoreUploadInput>): Promise<StoreUploadResult> {
  const rooms = readUploadRooms(input.body);
  const now = nowIso(ctx);
  const userAgent = input.userAgent?.replaceAll('\u0000', '') || null;
  const { idempotency } = input;

  if (rooms.length === 0) {
    const result: StoreUploadResult = { kind: 'scan', scanId: null, count: 0 };
    // Nothing to store but the key's result (a rare, generic write).
    if (idempotency?.ref) await ctx.store.writer.write((trx) => idempotency.record(trx, result));
    await touchUploadKey({ ctx, input: { workspaceId: input.workspaceId, at: now, used: false } });
    return result;
  }

  const result: StoreUploadResult = { kind: 'scan', scanId: newId('scan'), count: rooms.length };
  const ref = idempotency?.ref ?? null;
  // Stored once: the body, and each room as its byte range of it (its listed name aside).
  await ctx.store.hot.write({
    kind: 'scan',
    scan: {
      id: result.scanId!,
      workspace_id: input.workspaceId,
      received_at: now,
      room_count: rooms.length,
      byte_size: input.body.length,
      user_agent: userAgent,
      raw: input.body,
      idempotency_key: ref?.key ?? null,
    },
    rooms: rooms.map((room, i) => ({ name: roomDisplayName(room.name, i), start: room.start, end: room.end })),
    done: ref ? keyDone(ref, result) : null,
  });
  // After the commit, in a write of its own: see touchUploadKey.
  await touchUploadKey({ ctx, input: { workspaceId: input.workspaceId, at: now, used: true } });
  return result;
}
