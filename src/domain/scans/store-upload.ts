import type { Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';
import { nowIso, type VerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import { touchUploadKey } from '../keys/touch-upload-key.js';
import { JsonSyntaxError, scanRooms, type RoomSlice } from './json-room-slices.js';

/** At most this many rooms per upload (CONTRACT §4). */
export const MAX_ROOMS = 500;
/** Room names are for the Scans inbox list; a longer `name` is cut there (the raw bytes keep all of it). */
export const MAX_ROOM_NAME_LENGTH = 200;

export interface StoreUploadResult {
  /** null for a connection test (`rooms: []`): nothing is stored. */
  scanId: string | null;
  count: number;
}

export interface StoreUploadInput {
  workspaceId: string;
  /** The request body exactly as received. */
  body: Buffer;
  userAgent: string | undefined;
  /**
   * Runs inside the same write op (one transaction), after the upload's rows: the seam for work that must commit
   * or roll back with the upload (e.g. recording an Idempotency-Key answer).
   */
  afterStore?: (trx: Transaction<Schema>, result: StoreUploadResult) => Promise<void>;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;

/**
 * The name listed for room `index` (0-based): its string `name`, else "Room N" with N counted from 1, as a
 * person would number them. The listed name is made storable text on both databases (no NUL, no lone UTF-16
 * surrogate) and cut to MAX_ROOM_NAME_LENGTH code points; the room's raw bytes are never touched.
 */
export function roomDisplayName(name: string | undefined, index: number): string {
  if (name === undefined) return `Room ${index + 1}`;
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
 * Stores a scan upload for the workspace whose key was accepted (CONTRACT §4): the body's bytes unchanged, and
 * each room's own byte slice of it, in one write op; resolves after COMMIT. `rooms: []` is a connection test:
 * nothing is stored. The key's last-connected/last-used times are written afterwards, at most once a minute.
 */
export async function storeUpload({ ctx, input }: VerbArgs<StoreUploadInput>): Promise<StoreUploadResult> {
  const rooms = readUploadRooms(input.body);
  const now = nowIso(ctx);
  const userAgent = input.userAgent?.replaceAll('\u0000', '') || null;

  if (rooms.length === 0) {
    const result: StoreUploadResult = { scanId: null, count: 0 };
    if (input.afterStore) await ctx.store.writer.write((trx) => input.afterStore!(trx, result));
    await touchUploadKey({ ctx, input: { workspaceId: input.workspaceId, at: now, used: false } });
    return result;
  }

  const result = await ctx.store.writer.write(async (trx) => {
    const scanId = newId('scan');
    await trx
      .insertInto('scans')
      .values({
        id: scanId,
        workspace_id: input.workspaceId,
        received_at: now,
        room_count: rooms.length,
        byte_size: input.body.length,
        user_agent: userAgent,
        raw: input.body,
        idempotency_key: null,
      })
      .execute();
    // Chunks keep each INSERT well under both databases' bound-parameter limits.
    for (let from = 0; from < rooms.length; from += 100) {
      await trx
        .insertInto('scan_rooms')
        .values(
          rooms.slice(from, from + 100).map((room, i) => ({
            scan_id: scanId,
            idx: from + i,
            name: roomDisplayName(room.name, from + i),
            raw: input.body.subarray(room.start, room.end),
          })),
        )
        .execute();
    }
    const stored: StoreUploadResult = { scanId, count: rooms.length };
    await input.afterStore?.(trx, stored);
    return stored;
  });
  // After the commit, in a write of its own: see touchUploadKey.
  await touchUploadKey({ ctx, input: { workspaceId: input.workspaceId, at: now, used: true } });
  return result;
}
