import { nowIso, type DomainContext, type VerbArgs } from '../context.js';
import { roomRange, scanInWorkspace, scanNotFound } from './scan-in-workspace.js';
import { MEASURE_VERSION, measureRoomBytes, type RoomMeasurement } from './measure/index.js';
import { numberedRoomName } from './store-upload.js';

/** What is kept for a scan: the reader's result per room (in metres) and the total floor area. */
export interface ScanFigures {
  scanId: string;
  version: number;
  computedAt: string;
  /** Square metres over the rooms that gave a floor area; null when none did. */
  floorArea: number | null;
  roomsRecognized: number;
  rooms: Array<{ index: number; name: string; measurement: RoomMeasurement }>;
}

/** Rooms are read one at a time with a turn of the event loop between them, so a big scan never blocks requests. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * Reads a scan's rooms into figures and keeps them beside the scan (the bytes are never changed). Derived data:
 * computing it twice (two instances, a page and the sweep at once) writes the same row twice, harmlessly. The
 * sweep's verb, across workspaces: its ids come from scansToMeasure (or scanFigures, which found the scan in its
 * workspace first), never from a person.
 */
export async function measureScan({ ctx, input }: VerbArgs<{ scanId: string }>): Promise<ScanFigures> {
  const { db } = ctx.store;
  const scan = await db.selectFrom('scans').select(['id', 'raw']).where('id', '=', input.scanId).executeTakeFirst();
  if (!scan) throw scanNotFound(input.scanId);
  const rooms = await db
    .selectFrom('scan_rooms')
    .select(['idx', 'name', 'raw', 'raw_start', 'raw_end', 'renamed'])
    .where('scan_id', '=', scan.id)
    .orderBy('idx')
    .execute();
  const body = Buffer.from(scan.raw);
  const measured: ScanFigures['rooms'] = [];
  // Rooms that only had a number ("Room 2") take their RoomPlan section label as their name; never a room that
  // named itself or that a person renamed (docs/admin-app.md, "Room names").
  const labelled: Array<{ idx: number; from: string; name: string }> = [];
  for (const room of rooms) {
    const range = roomRange(room);
    const bytes = range ? body.subarray(range.start, range.end) : Buffer.from(room.raw);
    const measurement = measureRoomBytes(bytes);
    const index = Number(room.idx);
    let name = room.name;
    if (measurement.label && Number(room.renamed ?? 0) === 0 && room.name === numberedRoomName(index)) {
      name = measurement.label;
      labelled.push({ idx: index, from: room.name, name });
    }
    measured.push({ index, name, measurement });
    await nextTurn();
  }
  const areas = measured.map((r) => r.measurement.floorArea?.value).filter((a): a is number => typeof a === 'number');
  const figures: ScanFigures = {
    scanId: scan.id,
    version: MEASURE_VERSION,
    computedAt: nowIso(ctx),
    floorArea: areas.length > 0 ? areas.reduce((sum, a) => sum + a, 0) : null,
    roomsRecognized: measured.filter((r) => r.measurement.recognized).length,
    rooms: measured,
  };
  const row = {
    version: figures.version,
    computed_at: figures.computedAt,
    floor_area: figures.floorArea,
    rooms_recognized: figures.roomsRecognized,
    rooms: JSON.stringify(figures.rooms),
  };
  await ctx.store.writer.write(async (trx) => {
    // The scan may have been deleted meanwhile: then there is nothing to keep figures for.
    const still = await trx.selectFrom('scans').select('id').where('id', '=', scan.id).executeTakeFirst();
    if (!still) return;
    await trx
      .insertInto('scan_measurements')
      .values({ scan_id: scan.id, ...row })
      .onConflict((oc) => oc.column('scan_id').doUpdateSet(row))
      .execute();
    // Guarded by what was read: a rename that came in meanwhile stays.
    for (const room of labelled) {
      await trx
        .updateTable('scan_rooms')
        .set({ name: room.name })
        .where('scan_id', '=', scan.id)
        .where('idx', '=', room.idx)
        .where('name', '=', room.from)
        .where('renamed', '=', 0)
        .execute();
    }
  });
  return figures;
}

/**
 * Pages that open a scan the sweep has not measured yet share one measurement: four people opening a big scan at
 * once cost one reading of its rooms, not four (docs/admin-app.md, "A scan's page").
 */
const measuring = new WeakMap<DomainContext, Map<string, Promise<ScanFigures>>>();

function measureOnce(ctx: DomainContext, scanId: string): Promise<ScanFigures> {
  let running = measuring.get(ctx);
  if (!running) measuring.set(ctx, (running = new Map()));
  const pending = running.get(scanId);
  if (pending) return pending;
  const started = measureScan({ ctx, input: { scanId } }).finally(() => running.delete(scanId));
  running.set(scanId, started);
  return started;
}

/**
 * The kept figures of a scan of the workspace, computed now when missing or made by an older reader. Another
 * workspace's scan is "not found" (scanInWorkspace).
 */
export async function scanFigures({
  ctx,
  input,
}: VerbArgs<{ workspaceId: string; scanId: string }>): Promise<ScanFigures> {
  const scan = await scanInWorkspace(ctx, input.workspaceId, input.scanId);
  const row = await ctx.store.db
    .selectFrom('scan_measurements')
    .select(['version', 'computed_at', 'floor_area', 'rooms_recognized', 'rooms'])
    .where('scan_id', '=', scan.id)
    .executeTakeFirst();
  const figures =
    !row || Number(row.version) < MEASURE_VERSION || row.rooms === null
      ? await measureOnce(ctx, scan.id)
      : {
          scanId: scan.id,
          version: Number(row.version),
          computedAt: row.computed_at!,
          floorArea: row.floor_area === null ? null : Number(row.floor_area),
          roomsRecognized: Number(row.rooms_recognized),
          rooms: JSON.parse(row.rooms) as ScanFigures['rooms'],
        };
  // The names as they are now (a rename after the figures were kept): the figures are derived, the names are not.
  const names = new Map(
    (await ctx.store.db.selectFrom('scan_rooms').select(['idx', 'name']).where('scan_id', '=', scan.id).execute()).map(
      (r) => [Number(r.idx), r.name],
    ),
  );
  return { ...figures, rooms: figures.rooms.map((r) => ({ ...r, name: names.get(r.index) ?? r.name })) };
}

/**
 * Scans without figures from the current reader, newest first: what the background sweep measures next. With
 * `since`, only scans received at or after it (an index range), for a sweep that has caught up with the rest.
 */
export async function scansToMeasure(ctx: DomainContext, limit: number, since?: string): Promise<string[]> {
  let query = ctx.store.db
    .selectFrom('scans')
    .leftJoin('scan_measurements', 'scan_measurements.scan_id', 'scans.id')
    .select('scans.id')
    .where((eb) =>
      eb.or([eb('scan_measurements.version', 'is', null), eb('scan_measurements.version', '<', MEASURE_VERSION)]),
    );
  if (since !== undefined) query = query.where('scans.received_at', '>=', since);
  const rows = await query.orderBy('scans.received_at', 'desc').limit(limit).execute();
  return rows.map((r) => r.id);
}
