import type { ScanFigures } from '../../../domain/scans/measure-scan.js';
import {
  boundedPlan,
  MAX_PLAN_CORNERS,
  MAX_PLAN_OPENINGS,
  MAX_PLAN_WALLS,
  planSurfaces,
} from '../../../domain/scans/measure/index.js';

/**
 * A scan's page is bounded whatever the upload holds (docs/admin-app.md, "A scan's page"): its rooms come 50 a page
 * (the totals still add up every room), each plan draws at most a bounded number of surfaces (plan-bounds.ts), and
 * at most 20 rooms that were not read show their JSON. A 500-room upload of 600 walls a room once made a 79 MB
 * page in 8–11 s on the main thread; now a page is a few hundred kilobytes.
 */
export const ROOMS_PER_PAGE = 50;
/** Rooms of a page that were not read show their JSON, this many at most, each cut at 20 KB. */
export const UNRECOGNIZED_SHOWN = 20;
/** What one plan draws at most: walls, openings and outline corners. */
export const MAX_PLAN_SURFACES = MAX_PLAN_WALLS + MAX_PLAN_OPENINGS + MAX_PLAN_CORNERS;

export interface ScanPageRooms {
  /** The rooms of this page, in scan order. */
  rooms: ScanFigures['rooms'];
  page: number;
  pages: number;
  /** The work this render does: rooms in the table, plans drawn, surfaces drawn in them. */
  work: { roomsShown: number; plansDrawn: number; surfacesDrawn: number };
}

/** The rooms one render of the page shows: page `page` (from 1; past the last, the last). */
export function scanPageRooms(figures: ScanFigures, page: number): ScanPageRooms {
  const pages = Math.max(1, Math.ceil(figures.rooms.length / ROOMS_PER_PAGE));
  const current = Math.min(Math.max(1, Math.floor(page) || 1), pages);
  // The plans as drawn: bounded again here, so figures kept by any reader draw within the bounds.
  const rooms = figures.rooms
    .slice((current - 1) * ROOMS_PER_PAGE, current * ROOMS_PER_PAGE)
    .map((room) => ({ ...room, measurement: { ...room.measurement, plan: boundedPlan(room.measurement.plan) } }));
  const drawn = rooms.filter((r) => r.measurement.recognized && r.measurement.plan);
  return {
    rooms,
    page: current,
    pages,
    work: {
      roomsShown: rooms.length,
      plansDrawn: drawn.length,
      surfacesDrawn: drawn.reduce((n, r) => n + planSurfaces(r.measurement.plan), 0),
    },
  };
}
