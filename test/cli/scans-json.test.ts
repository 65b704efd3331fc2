import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachBackend } from '../helpers/backends.js';
import { cliJson, runCli } from '../helpers/cli.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';

describeEachBackend('scans raw / room with and without --json', (backend) => {
  let world: TestWorld;
  beforeAll(async () => {
    world = await createWorld(backend);
  });
  afterAll(async () => {
    await world.close();
  });

  it('prints the exact bytes, or with --json one document holding their base64 and byte length', async () => {
    const { uploadKey, workspaceId } = await world.seed();
    const app = await world.app();
    const body = Buffer.from('{"rooms":[{"name":"Küche","w":1.10},\n {"name":"Bad"}], "x":"\\u00e9"}', 'utf8');
    const res = await app.inject({
      method: 'POST',
      url: '/api/scan/upload',
      headers: { 'x-scan-key': uploadKey, 'content-type': 'application/json' },
      payload: body,
    });
    expect(res.statusCode).toBe(200);
    const env = { DATABASE_URL: world.testDb.url, APP_SECRET: world.appSecret };
    const [scan] = await cliJson<Array<{ id: string }>>(['scans', 'list', '--workspace', workspaceId], env);

    const raw = await runCli(['scans', 'raw', scan!.id], env);
    expect(raw.stdoutBytes.equals(body)).toBe(true);
    const rawJson = await cliJson<{ byteSize: number; base64: string }>(['scans', 'raw', scan!.id], env);
    expect(rawJson).toEqual({ byteSize: body.length, base64: body.toString('base64') });

    const room = await runCli(['scans', 'room', scan!.id, '0'], env);
    const roomJson = await cliJson<{ byteSize: number; base64: string }>(['scans', 'room', scan!.id, '0'], env);
    expect(Buffer.from(roomJson.base64, 'base64').equals(room.stdoutBytes)).toBe(true);
    expect(room.stdout).toBe('{"name":"Küche","w":1.10}');
    expect(roomJson.byteSize).toBe(room.stdoutBytes.length);
  }, 60_000);
});
