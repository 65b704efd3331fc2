import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';

/**
 * Concurrent scan uploads for several workspaces commit in parallel write lanes on PostgreSQL. They used to update
 * the workspaces' upload_keys rows in opposite orders inside their batches and deadlock (40P01), which cost seconds
 * and 503s. Every one of them must be answered 200 and stored.
 */
describeEachBackend('concurrent scan uploads across workspaces', (backend) => {
  let world: TestWorld;
  let baseUrl: string;
  let workspaces: Seeded[];
  beforeAll(async () => {
    world = await createWorld(backend);
    baseUrl = await world.listen();
    workspaces = [await world.seed('Deadlock A'), await world.seed('Deadlock B'), await world.seed('Deadlock C')];
  });
  afterAll(async () => {
    await world.close();
  });

  it('answers 72 concurrent uploads over 3 workspaces with 200 and stores every one', async () => {
    const body = JSON.stringify({ rooms: [{ name: 'Kitchen', walls: [] }, { name: 'Hall' }] });
    const started = performance.now();
    const answers = await Promise.all(
      Array.from({ length: 72 }, (_, i) =>
        // Over real sockets: requests arrive spread over event-loop turns, so several batches are in flight.
        fetch(`${baseUrl}/api/scan/upload`, {
          method: 'POST',
          headers: { 'x-scan-key': workspaces[i % 3]!.uploadKey, 'content-type': 'application/json' },
          body,
        }).then(async (res) => ({ statusCode: res.status, text: await res.text() })),
      ),
    );
    const elapsed = performance.now() - started;
    expect(answers.map((a) => a.statusCode)).toEqual(answers.map(() => 200));
    for (const ws of workspaces) {
      const stored = await world.store.db
        .selectFrom('scans')
        .select('id')
        .where('workspace_id', '=', ws.workspaceId)
        .execute();
      expect(stored).toHaveLength(24);
    }
    // Not a speed goal (those live in `npm run bench`): a deadlock-and-retry cycle took many seconds here.
    expect(elapsed).toBeLessThan(5000);
  });
});
