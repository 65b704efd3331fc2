/** A figure read from a room, in metres (m, m², m³), with where it came from, for a person to check. */
export interface Figure {
  value: number;
  source: string;
}

export type Point = readonly [x: number, y: number];

/** What the floor plan draws, in metres on the floor's plane (north not assumed). */
export interface Plan {
  outline: Point[];
  walls: Array<{ a: Point; b: Point; length: number }>;
  openings: Array<{ kind: 'door' | 'window' | 'opening'; a: Point; b: Point; width: number }>;
  /** Set when the scan had more than a plan draws (plan-bounds.ts): how many walls, openings and corners it had. */
  simplified?: { walls: number; openings: number; corners: number };
}

/** The figures of one room. A figure that cannot be derived is null, never 0. */
export interface RoomMeasurement {
  recognized: boolean;
  /** Why nothing was read, for a room that was not recognized. */
  reason?: string;
  format: 'roomplan' | 'fields' | null;
  floorArea: Figure | null;
  perimeter: Figure | null;
  ceilingHeight: Figure | null;
  wallAreaGross: Figure | null;
  openingsArea: Figure | null;
  wallAreaNet: Figure | null;
  skirting: Figure | null;
  volume: Figure | null;
  doors: number | null;
  windows: number | null;
  openings: number | null;
  /** False when the scanned walls do not go all the way round the floor (multi-room scans leave shared walls out). */
  wallsClose: boolean | null;
  plan: Plan | null;
  /** The room's RoomPlan section label, humanised ("Dining room"); null or absent when it has none. */
  label?: string | null;
}

export const NOT_RECOGNIZED = (reason: string): RoomMeasurement => ({
  recognized: false,
  reason,
  format: null,
  floorArea: null,
  perimeter: null,
  ceilingHeight: null,
  wallAreaGross: null,
  openingsArea: null,
  wallAreaNet: null,
  skirting: null,
  volume: null,
  doors: null,
  windows: null,
  openings: null,
  wallsClose: null,
  plan: null,
});
