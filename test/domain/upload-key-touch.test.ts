import { afterAll, beforeAll, expect, it } from 'vitest';
import { KEY_TOUCH_INTERVAL_MS } from '../../src/domain/keys/touch-upload-key.js';
import { storeUpload } from '../../src/domain/scans/store-upload.js';
import { describeEachBackend } from '../helpers/backends.js';
import { TestClock } from '../helpers/clock.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { handOver } from '../../src/storage/hot-writes/scan.js';

describeEachBackend('upload key last-connected / last-used times', (backend) => {
  let world: TestWorld;
  let ws: Seeded;
  const clock = new TestClock(Date.parse('2026-03-01T10:00:00.000Z'));
  beforeAll(async () => {
    world = await createWorld(backend, { clock });
    ws = await world.seed('Touch');
  });
  afterAll(async () => {
    await world.close();
  });

  const upload = (rooms: string) =>
    storeUpload({
      ctx: world.ctx,
      input: { workspaceId: ws.workspaceId, body: handOver(Buffer.from(`{"rooms":${rooms}}`)), userAgent: undefined },
    });
  const key = () =>
    world.store.db
      .selectFrom('upload_keys')
      .select(['last_used_at', 'last_connected_at'])
      .where('workspace_id', '=', ws.workspaceId)
      .executeTakeFirstOrThrow();

  it('are written at most once a minute per workspace, and again after it', async () => {
    await upload('[]');
    expect(await key()).toEqual({ last_connected_at: '2026-03-01T10:00:00.000Z', last_used_at: null });

    clock.advance(1000);
    await upload('[{"name":"A"}]');
    // The first upload: "used" has not been written yet this minute, "connected" is written with it.
    expect(await key()).toEqual({
      last_connected_at: '2026-03-01T10:00:01.000Z',
      last_used_at: '2026-03-01T10:00:01.000Z',
    });

    clock.advance(KEY_TOUCH_INTERVAL_MS - 2000);
    await upload('[{"name":"B"}]');
    await upload('[]');
    expect(await key()).toEqual({
      last_connected_at: '2026-03-01T10:00:01.000Z',
      last_used_at: '2026-03-01T10:00:01.000Z',
    });

    clock.advance(2000);
    await upload('[{"name":"C"}]');
    expect(await key()).toEqual({
      last_connected_at: '2026-03-01T10:01:01.000Z',
      last_used_at: '2026-03-01T10:01:01.000Z',
    });
  });
});
