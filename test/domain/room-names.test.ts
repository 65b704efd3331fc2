import { leadCtx, quoteCtx } from '../helpers/contexts.js';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { inWorkspace } from '../../src/domain/context.js';
import { addPriceListItem } from '../../src/domain/price-list/add-price-list-item.js';
import { createQuote } from '../../src/domain/quotes/create-quote.js';
import { roomsOfLeadScans } from '../../src/domain/quotes/lead-rooms.js';
import { sendQuote } from '../../src/domain/quotes/send-quote.js';
import { attachScan } from '../../src/domain/scans/attach-scan.js';
import { listScans } from '../../src/domain/scans/list-scans.js';
import { humaniseLabel, roomLabelOf } from '../../src/domain/scans/measure/index.js';
import { measureScan, scanFigures } from '../../src/domain/scans/measure-scan.js';
import { readScanRaw } from '../../src/domain/scans/read-scan-bytes.js';
import { renameRoom } from '../../src/domain/scans/rename-room.js';
import { rectangularRoom } from '../fixtures/roomplan.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { leadOf, quoteWorkspace } from './quotes/quote-fixtures.js';
import { cliJson, runCli } from '../helpers/cli.js';
import { contentDisposition } from '../../src/web/admin/attachment.js';
import { measurementsFileName } from '../../src/web/admin/scans/scans-area.js';
import type { ScanView } from '../../src/domain/scans/list-scans.js';

it('humanises RoomPlan section labels and ignores what says nothing', () => {
  expect(humaniseLabel('diningRoom')).toBe('Dining room');
  expect(humaniseLabel('livingRoom')).toBe('Living room');
  expect(humaniseLabel('bedroom')).toBe('Bedroom');
  expect(humaniseLabel('laundry_room')).toBe('Laundry room');
  expect(humaniseLabel('unidentified')).toBeNull();
  expect(humaniseLabel('<script>')).toBeNull();
  expect(humaniseLabel('x'.repeat(41))).toBeNull();
  // At the top level or one level down (where the CapturedRoom sits); distinct labels joined, in order.
  expect(roomLabelOf({ sections: [{ label: 'kitchen' }, { label: 'diningRoom' }, { label: 'kitchen' }] })).toBe(
    'Kitchen & Dining room',
  );
  expect(roomLabelOf({ capturedRoom: { sections: [{ label: { bathroom: {} } }] } })).toBe('Bathroom');
  expect(roomLabelOf({ sections: [{ label: 'unidentified' }, { label: 7 }] })).toBeNull();
  expect(roomLabelOf({ sections: 'diningRoom' })).toBeNull();
});

it("names a measurements file after the lead and the scan's day in the workspace's zone, safely for any name", () => {
  const scan = (lead: ScanView['lead']) => ({ receivedAt: '2026-11-28T03:30:00.000Z', lead }) as ScanView;
  const lead = { id: 'lead_1', name: 'Émile Gagné', email: null, phone: null };
  expect(measurementsFileName(scan(lead), 'America/Toronto')).toBe('Émile Gagné measurements 2026-11-27');
  expect(measurementsFileName(scan({ ...lead, name: 'a/b:"c"' }), 'UTC')).toBe('a b c measurements 2026-11-28');
  expect(measurementsFileName(scan({ ...lead, name: null, email: 'ada@example.com' }), 'UTC')).toBe(
    'ada@example.com measurements 2026-11-28',
  );
  expect(measurementsFileName(scan(null), 'UTC')).toBe('Scan measurements 2026-11-28');
  expect(contentDisposition('Scan measurements 2026-11-28.csv')).toBe(
    'attachment; filename="Scan measurements 2026-11-28.csv"',
  );
  expect(contentDisposition('Émile Gagné measurements 2026-11-27.csv')).toBe(
    `attachment; filename="Emile Gagne measurements 2026-11-27.csv"; filename*=UTF-8''%C3%89mile%20Gagn%C3%A9%20measurements%202026-11-27.csv`,
  );
});

/**
 * Rooms named from their own fields, renamed by a person beside the stored bytes, and the name everywhere the room
 * shows (docs/admin-app.md, "Room names").
 */
describeEachBackend('room names', (backend) => {
  let world: TestWorld;
  let ws: Seeded;
  let leadId: string;
  let scanId: string;
  let body: Buffer;

  beforeAll(async () => {
    world = await createWorld(backend);
    ws = await quoteWorkspace(world, 'Names');
    leadId = await leadOf(world, ws);
    const rooms = [
      // Its own name wins over its label.
      { name: 'Kitchen', ...rectangularRoom({ width: 4, length: 3, height: 2.5 }) },
      // RoomPlan as exported: no name, the CapturedRoom one level down with its sections.
      {
        capturedRoom: {
          ...rectangularRoom({ width: 5, length: 4, height: 2.5, at: [6, 0] }),
          // As Swift's Codable writes RoomPlan's label enum.
          sections: [{ label: { diningRoom: {} }, center: [0, 0, 0], story: 0 }],
        },
      },
      // Nothing to go by (its only section says "unidentified"): a number.
      {
        ...rectangularRoom({ width: 2, length: 2, height: 2.5, at: [12, 0] }),
        sections: [{ label: { unidentified: {} }, center: [0, 0, 0], story: 0 }],
      },
    ];
    const text = JSON.stringify({ rooms });
    body = Buffer.from(text);
    const app = await world.app();
    const res = await app.inject({
      method: 'POST',
      url: '/api/scan/upload',
      headers: { 'x-scan-key': ws.uploadKey, 'content-type': 'application/json' },
      payload: text,
    });
    expect(res.statusCode).toBe(200);
    scanId = (await listScans({ ctx: inWorkspace(world.ctx, ws.workspaceId), input: {} }))[0]!.id;
    await attachScan({ ctx: inWorkspace(world.ctx, ws.workspaceId), input: { scanId, leadId } });
  });
  afterAll(async () => {
    await world.close();
  });

  const listed = async () =>
    (await listScans({ ctx: inWorkspace(world.ctx, ws.workspaceId), input: {} }))[0]!.rooms.map((r) => r.name);
  const ctxOf = () => inWorkspace(world.ctx, ws.workspaceId);

  it('names rooms from their own fields once measured; a person renames one; bytes never change', async () => {
    expect(await listed()).toEqual(['Kitchen', 'Room 2', 'Room 3']);
    await measureScan({ ctx: world.ctx, input: { scanId } });
    expect(await listed()).toEqual(['Kitchen', 'Dining room', 'Room 3']);

    const renamed = await renameRoom({ ctx: ctxOf(), input: { scanId, room: 3, name: '  Hallway  ' } });
    expect(renamed).toEqual({ scanId, room: 3, name: 'Hallway' });
    await renameRoom({ ctx: ctxOf(), input: { scanId, room: 2, name: 'Salle à manger' } });
    // Measured again (a newer reader, a page): a person's names stay.
    await measureScan({ ctx: world.ctx, input: { scanId } });
    expect(await listed()).toEqual(['Kitchen', 'Salle à manger', 'Hallway']);
    const figures = await scanFigures({ ctx: world.ctx, input: { workspaceId: ws.workspaceId, scanId } });
    expect(figures.rooms.map((r) => r.name)).toEqual(['Kitchen', 'Salle à manger', 'Hallway']);
    const picker = await roomsOfLeadScans({ ctx: world.ctx, input: { workspaceId: ws.workspaceId, leadId } });
    expect(picker[0]!.rooms).toEqual([
      { index: 1, name: 'Kitchen' },
      { index: 2, name: 'Salle à manger' },
      { index: 3, name: 'Hallway' },
    ]);
    // The stored bytes are the upload's, byte for byte.
    expect(
      Buffer.compare(await readScanRaw({ ctx: inWorkspace(world.ctx, ws.workspaceId), input: { scanId } }), body),
    ).toBe(0);
    const audit = await world.store.db
      .selectFrom('audit_log')
      .select(['action', 'details'])
      .where('action', '=', 'scan.room_renamed')
      .execute();
    expect(audit.map((a) => JSON.parse(a.details) as unknown)).toEqual(
      expect.arrayContaining([{ room: 3 }, { room: 2 }]),
    );
  });

  it('leadscan scans rename-room SCAN ROOM --name N, ROOM from 1', async () => {
    const env = { DATABASE_URL: world.testDb.url, APP_SECRET: world.appSecret };
    expect(await cliJson(['scans', 'rename-room', scanId, '1', '--name', 'Cuisine'], env)).toEqual({
      scanId,
      room: 1,
      name: 'Cuisine',
    });
    const zero = await runCli(['scans', 'rename-room', scanId, '0', '--name', 'X'], env);
    expect(zero.code).toBe(1);
    expect(zero.stderr).toMatch(/at least 1/);
    expect(await listed()).toEqual(['Cuisine', 'Salle à manger', 'Hallway']);
    await renameRoom({ ctx: ctxOf(), input: { scanId, room: 1, name: 'Kitchen' } });
  });

  it('refuses a blank, too long or multi-line name, a room that is not there and a scan of another workspace', async () => {
    const rename = (room: number, name: string, ctx = ctxOf()) => renameRoom({ ctx, input: { scanId, room, name } });
    await expect(rename(1, '   ')).rejects.toMatchObject({
      code: 'invalid_fields',
      fieldErrors: [expect.objectContaining({ field: 'name', code: 'required' })],
    });
    await expect(rename(1, 'x'.repeat(81))).rejects.toMatchObject({
      fieldErrors: [expect.objectContaining({ field: 'name', code: 'too_long', max: 80 })],
    });
    await expect(rename(1, 'Two\nlines')).rejects.toMatchObject({
      fieldErrors: [expect.objectContaining({ field: 'name', code: 'invalid' })],
    });
    await expect(rename(4, 'Attic')).rejects.toMatchObject({ code: 'room_not_found' });
    await expect(rename(0, 'Attic')).rejects.toMatchObject({ code: 'room_not_found' });
    const other = await world.seed('Elsewhere');
    await expect(rename(1, 'Attic', inWorkspace(world.ctx, other.workspaceId))).rejects.toMatchObject({
      code: 'scan_not_found',
    });
    expect(await listed()).toEqual(['Kitchen', 'Salle à manger', 'Hallway']);
  });

  it("new quote lines and a send's frozen plans take the names; a sent quote keeps the name it had", async () => {
    const floor = await addPriceListItem({
      ctx: world.ctx,
      input: {
        workspaceId: ws.workspaceId,
        role: 'owner',
        item: { name: 'Floor sanding', unit: 'm2', price: '20.00', measure: 'floor_area' },
      },
    });
    const quote = await createQuote({
      ctx: await leadCtx(world.ctx, leadId),
      input: { leadId, scanIds: [scanId], rooms: [2, 3], itemIds: [floor.id] },
    });
    // How each quantity was measured names the room as it is called now (the staff's note of the line).
    expect(quote.lines.map((l) => (l.source as { note?: string } | null)?.note)).toEqual([
      expect.stringMatching(/^Salle à manger: floor /),
      expect.stringMatching(/^Hallway: floor /),
    ]);
    await sendQuote({
      ctx: await quoteCtx(world.ctx, quote.id),
      input: { quoteId: quote.id, by: { userId: null, label: 'test' } },
    });
    await renameRoom({ ctx: ctxOf(), input: { scanId, room: 3, name: 'Entrance' } });
    const plans = JSON.parse(
      (await world.store.db.selectFrom('quotes').select('plans').where('id', '=', quote.id).executeTakeFirstOrThrow())
        .plans!,
    ) as { rooms: Array<{ name: string }> };
    expect(plans.rooms.map((r) => r.name)).toEqual(['Salle à manger', 'Hallway']);
    expect(await listed()).toEqual(['Kitchen', 'Salle à manger', 'Entrance']);
  });
});
