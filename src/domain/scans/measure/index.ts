import { measureFields } from './fields.js';
import { findCapturedRoom, measureRoomPlan } from './roomplan.js';
import { boundedPlan } from './plan-bounds.js';
import { roomLabelOf } from './room-label.js';
import { NOT_RECOGNIZED, type RoomMeasurement } from './types.js';

export type { Figure, Plan, Point, RoomMeasurement } from './types.js';
export { humaniseLabel, roomLabelOf } from './room-label.js';
export { boundedPlan, MAX_PLAN_CORNERS, MAX_PLAN_OPENINGS, MAX_PLAN_WALLS, planSurfaces } from './plan-bounds.js';

/**
 * The reader's version: stored figures from an older one are computed again (scan_measurements.version).
 * 2: plans kept within plan-bounds.ts (simplified past them), coordinates to the millimetre.
 * 3: the room's RoomPlan section label (`label`), which names a room that has no name of its own.
 */
export const MEASURE_VERSION = 3;

/**
 * Figures of one room, best effort: Apple RoomPlan's CapturedRoom (at the top level or one level down), else the
 * room's own explicit fields. Pure, bounded and total: hostile input gives "not recognized" with a reason, and the
 * upload it came from is never touched.
 */
export function measureRoom(value: unknown): RoomMeasurement {
  let label: string | null = null;
  try {
    label = roomLabelOf(value);
    const captured = findCapturedRoom(value);
    const fromRoomPlan = captured ? measureRoomPlan(captured) : undefined;
    const measured = fromRoomPlan?.recognized
      ? fromRoomPlan
      : (measureFields(value) ??
        fromRoomPlan ??
        NOT_RECOGNIZED('No measurements recognized: neither RoomPlan surfaces nor area, dimensions or an outline'));
    // The figures come from every surface; the plan kept for drawing is bounded.
    return { ...measured, plan: boundedPlan(measured.plan), label };
  } catch {
    return { ...NOT_RECOGNIZED('No measurements recognized: the room could not be read'), label };
  }
}

/** The same for a room's stored bytes (its slice of the upload). */
export function measureRoomBytes(bytes: Uint8Array): RoomMeasurement {
  let value: unknown;
  try {
    value = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  } catch {
    return NOT_RECOGNIZED('No measurements recognized: the room is not readable JSON');
  }
  return measureRoom(value);
}
