import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachBackend } from '../helpers/backends.js';
import { cliJson, runCli } from '../helpers/cli.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { uploadBodyText } from '../fixtures/json-text-arbitrary.js';
import { generateScanExchange, toJsonText } from '../fixtures/scan-exchange.js';

/**
 * End to end: bytes posted over HTTP come back identical through the real CLI (`scans raw`, `scans room`), a
 * separate process reading the database. Few runs (each spawns processes); the bulk is in test/domain.
 */
describeEachBackend('scan upload round trip through the CLI', (backend) => {
  let world: TestWorld;
  let ws: Seeded;
  let base: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    world = await createWorld(backend);
    ws = await world.seed('Round trip');
    base = await world.listen();
    env = { DATABASE_URL: world.testDb.url, APP_SECRET: world.appSecret };
  });
  afterAll(async () => {
    await world.close();
  });

  async function upload(body: Buffer): Promise<{ count: number; scanId: string | undefined }> {
    const res = await fetch(`${base}/api/scan/upload`, {
      method: 'POST',
      headers: { 'x-scan-key': ws.uploadKey, 'content-type': 'application/json' },
      body,
    });
    expect(res.status).toBe(200);
    const { count } = (await res.json()) as { count: number };
    const latest = await world.store.db
      .selectFrom('scans')
      .select('id')
      .where('workspace_id', '=', ws.workspaceId)
      .orderBy('id', 'desc')
      .executeTakeFirst();
    return { count, scanId: latest?.id };
  }

  async function expectCliBytes(args: string[], expected: Buffer): Promise<void> {
    const result = await runCli(args, env);
    expect(result.code).toBe(0);
    expect(result.stdoutBytes.equals(expected)).toBe(true);
  }

  it('arbitrary JSON texts: the body and every room, byte for byte', async () => {
    await fc.assert(
      fc.asyncProperty(
        uploadBodyText({ valid: true, maxRooms: 2 }).filter(
          (t) => (JSON.parse(t) as { rooms: unknown[] }).rooms.length > 0,
        ),
        async (text) => {
          const body = Buffer.from(text);
          const { count, scanId } = await upload(body);
          await expectCliBytes(['scans', 'raw', scanId!], body);
          const rooms = (JSON.parse(text) as { rooms: unknown[] }).rooms;
          expect(count).toBe(rooms.length);
          for (let i = 0; i < rooms.length; i++) {
            const room = await runCli(['scans', 'room', scanId!, String(i)], env);
            expect(room.code).toBe(0);
            expect(body.indexOf(room.stdoutBytes)).toBeGreaterThanOrEqual(0);
            expect(JSON.stringify(JSON.parse(room.stdout))).toBe(JSON.stringify(rooms[i]));
          }
        },
      ),
      { numRuns: 4 },
    );
  }, 300_000);

  it('a RoomPlan-style export with a multi-MB room, written with odd spellings, comes back exactly', async () => {
    const value = generateScanExchange({ seed: 2024, rooms: 3, meshBytes: (i) => (i === 1 ? 3_000_000 : 0) });
    const text = toJsonText(value, { style: 'varied', seed: 5 });
    const body = Buffer.from(`\n${text.replace('"rooms"', '"r\\u006foms"')}\n`);
    const { count, scanId } = await upload(body);
    expect(count).toBe(3);
    await expectCliBytes(['scans', 'raw', scanId!], body);
    const big = await runCli(['scans', 'room', scanId!, '1'], env);
    expect(big.stdoutBytes.length).toBeGreaterThan(3_000_000);
    expect(body.indexOf(big.stdoutBytes)).toBeGreaterThan(0);
    // Compared as canonical JSON: the odd spellings include -0, which toEqual tells apart from 0.
    expect(JSON.stringify(JSON.parse(big.stdout))).toBe(JSON.stringify(value.rooms[1]));
    const listed = await cliJson<Array<{ id: string; count: number; rooms: Array<{ index: number; name: string }> }>>(
      ['scans', 'list', '--workspace', ws.workspaceId],
      env,
    );
    expect(listed.find((scan) => scan.id === scanId)).toMatchObject({
      id: scanId,
      count: 3,
      rooms: value.rooms.map((r, index) => ({ index, name: r.name })),
    });
  }, 120_000);
});
