import { afterAll, beforeAll, expect, it } from 'vitest';
import { setSourceActive } from '../../src/domain/sources/set-source-active.js';
import { describeEachBackend } from '../helpers/backends.js';
import { cliJson } from '../helpers/cli.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';

/**
 * The intake keeps active sources in a process cache and re-checks the source in the INSERT itself, so a
 * deactivation takes effect on the very next post, whether it comes from this process or from the CLI in another.
 */
describeEachBackend('deactivating a source refuses the very next intake post', (backend) => {
  let world: TestWorld;
  let baseUrl: string;
  beforeAll(async () => {
    world = await createWorld(backend);
    baseUrl = await world.listen();
  });
  afterAll(async () => {
    await world.close();
  });

  const post = (token: string, name: string) =>
    fetch(`${baseUrl}/api/intake/${token}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ name }),
    }).then(async (res) => ({ status: res.status, body: (await res.json()) as { code?: string } }));
  const leadNames = async (sourceId: string) =>
    (
      await world.store.db
        .selectFrom('leads')
        .select('name')
        .where('source_id', '=', sourceId)
        .orderBy('received_at')
        .execute()
    ).map((r) => r.name);

  it('through the CLI, in another process', async () => {
    const { source } = await world.seed('CLI');
    // Warm: the source is now in the running server's cache.
    expect((await post(source.token, 'first')).status).toBe(200);
    expect((await post(source.token, 'second')).status).toBe(200);
    await cliJson(['source', 'deactivate', source.token], {
      DATABASE_URL: world.testDb.url,
      APP_SECRET: world.appSecret,
    });
    const refused = await post(source.token, 'after');
    expect(refused.status).toBe(404);
    expect(refused.body.code).toBe('intake_unavailable');
    expect(await leadNames(source.id)).toEqual(['first', 'second']);
    // Reactivated: accepted again at once.
    await cliJson(['source', 'activate', source.token], {
      DATABASE_URL: world.testDb.url,
      APP_SECRET: world.appSecret,
    });
    expect((await post(source.token, 'again')).status).toBe(200);
  });

  it('in-process, through the domain verb', async () => {
    const { source } = await world.seed('In process');
    expect((await post(source.token, 'first')).status).toBe(200);
    await setSourceActive({ ctx: world.ctx, input: { sourceId: source.id, active: false } });
    const refused = await post(source.token, 'after');
    expect(refused.status).toBe(404);
    expect(refused.body.code).toBe('intake_unavailable');
    expect(await leadNames(source.id)).toEqual(['first']);
  });
});
