import { expect } from 'vitest';
import { attachScan } from '../../../src/domain/scans/attach-scan.js';
import { updateWorkspaceSettings } from '../../../src/domain/settings/update-workspace-settings.js';
import { rectangularRoom } from '../../fixtures/roomplan.js';
import type { Seeded, TestWorld } from '../../helpers/test-app.js';
import { inWorkspace } from '../../../src/domain/context.js';

/** A workspace with GST 5 % and QST 9.975 % (on by default) and an Eco tax (off by default). */
export async function quoteWorkspace(
  world: TestWorld,
  name: string,
  settings: { units?: 'metric' | 'imperial'; currency?: string; timeZone?: string } = {},
): Promise<Seeded> {
  const seeded = await world.seed(name);
  await updateWorkspaceSettings({
    ctx: world.ctx,
    input: {
      workspaceId: seeded.workspaceId,
      units: settings.units ?? 'metric',
      currency: settings.currency ?? 'CAD',
      ...(settings.timeZone ? { timeZone: settings.timeZone } : {}),
      taxes: [
        { name: 'GST', rate: '5' },
        { name: 'QST', rate: '9.975' },
        { name: 'Eco', rate: '1', onByDefault: false },
      ],
      quoteTerms: 'Half up front.',
    },
  });
  return seeded;
}

/** A lead through intake. */
export async function leadOf(world: TestWorld, seeded: Seeded, name = 'Ada Lovelace'): Promise<string> {
  const app = await world.app();
  const res = await app.inject({
    method: 'POST',
    url: `/api/intake/${seeded.source.token}`,
    payload: {
      name,
      email: `${name.split(' ')[0]!.toLowerCase()}@example.com`,
      phone: '+1 514 555 0199',
      address: '12 Elm St',
    },
  });
  expect(res.statusCode).toBe(200);
  return res.json<{ id: string }>().id;
}

/**
 * A RoomPlan-shaped upload attached to the lead: a 4.2 m × 3.1 m kitchen, 2.45 m high, with one 0.82 × 2.04 door and
 * one 1.2 × 1.1 window (floor 13.02 m², perimeter 14.6 m, walls 35.77 m² gross, 32.7772 m² net), and a 1.5 × 5 hall.
 */
export async function scanOf(world: TestWorld, seeded: Seeded, leadId: string): Promise<string> {
  const rooms = [
    {
      name: 'Kitchen',
      ...rectangularRoom({
        width: 4.2,
        length: 3.1,
        height: 2.45,
        doors: [{ wall: 0, offset: 1, width: 0.82, height: 2.04 }],
        windows: [{ wall: 1, offset: 1, width: 1.2, height: 1.1 }],
      }),
    },
    { name: 'Hall', ...rectangularRoom({ width: 1.5, length: 5, height: 2.45, at: [6, 0] }) },
  ];
  const app = await world.app();
  const res = await app.inject({
    method: 'POST',
    url: '/api/scan/upload',
    headers: { 'x-scan-key': seeded.uploadKey, 'content-type': 'application/json' },
    payload: JSON.stringify({ rooms }),
  });
  expect(res.statusCode).toBe(200);
  const { id } = await world.store.db
    .selectFrom('scans')
    .select('id')
    .where('workspace_id', '=', seeded.workspaceId)
    .orderBy('id', 'desc')
    .executeTakeFirstOrThrow();
  await attachScan({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { scanId: id, leadId } });
  return id;
}
