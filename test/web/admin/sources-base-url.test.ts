import { afterEach, expect, it } from 'vitest';
import { createSession } from '../../../src/domain/auth/sessions.js';
import { createUser } from '../../../src/domain/users/create-user.js';
import { describeEachBackend } from '../../helpers/backends.js';
import { createWorld, type TestWorld } from '../../helpers/test-app.js';

describeEachBackend('Sources: the PUBLIC_BASE_URL warning and the embed snippet', (backend) => {
  let world: TestWorld;
  afterEach(async () => {
    await world.close();
  });

  async function pages(env: Record<string, string>) {
    world = await createWorld(backend, { env });
    const seeded = await world.seed('Harbor Renovations');
    const owner = await createUser({
      ctx: world.ctx,
      input: { email: 'o@harbor.example', workspaceId: seeded.workspaceId, role: 'owner', displayName: 'O' },
    });
    const { sessionId } = await createSession({ ctx: world.ctx, input: { userId: owner.userId } });
    const app = await world.app();
    const get = async (url: string) =>
      (await app.inject({ method: 'GET', url, headers: { cookie: `leadscan_session=${sessionId}` } })).body;
    return {
      list: await get(`/w/${seeded.workspaceId}/sources`),
      source: await get(`/w/${seeded.workspaceId}/sources/${seeded.source.id}`),
    };
  }

  it('warns on the Sources screen and the source page while PUBLIC_BASE_URL is unset, and not once it is set', async () => {
    const unset = await pages({ PUBLIC_BASE_URL: '' });
    expect(unset.list).toContain('id="base-url-warning"');
    expect(unset.source).toContain('id="base-url-warning"');
    expect(unset.source).toContain('PUBLIC_BASE_URL is not set');
    await world.close();
    const set = await pages({ PUBLIC_BASE_URL: 'https://leads.harbor.example' });
    expect(set.list).not.toContain('base-url-warning');
    expect(set.source).not.toContain('base-url-warning');
    // The snippet: the frame, the form's origin for the messages, the default heading is the workspace's name.
    expect(set.source).toContain('&lt;iframe id=&quot;leadscan-form-');
    expect(set.source).toContain('origin = &quot;https://leads.harbor.example&quot;');
    expect(set.source).toContain('Default: Harbor Renovations');
  });
});
