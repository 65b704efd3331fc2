import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { updateSpamRules } from '../../src/domain/sources/update-spam-rules.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { storedRows } from './intake-helpers.js';
import { inWorkspace } from '../../src/domain/context.js';

/** The poster of a post the spam rules catch gets the answer of an accepted post: status, headers, body shape. */
describeEachBackend('intake answer for a post caught by spam rules', (backend) => {
  let world: TestWorld;
  let app: FastifyInstance;
  let seeded: Seeded;
  beforeAll(async () => {
    world = await createWorld(backend);
    seeded = await world.seed();
    app = await world.app();
    await updateSpamRules({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { sourceId: seeded.source.id, add: { blockedWords: ['casino'], allowedSites: ['www.roofer.example'] } },
    });
  });
  afterAll(async () => {
    await world.close();
  });

  const post = (payload: Record<string, string>, origin: string) =>
    app.inject({ method: 'POST', url: `/api/intake/${seeded.source.token}`, headers: { origin }, payload });
  /** The answer with the id's characters blanked: two answers equal byte for byte but for the random id. */
  const shape = (res: Awaited<ReturnType<typeof post>>) => ({
    status: res.statusCode,
    headers: Object.keys(res.headers)
      .filter((h) => h !== 'date' && h !== 'x-request-id')
      .sort(),
    contentType: res.headers['content-type'],
    length: res.headers['content-length'],
    body: res.body.replace(/lead_[0-9a-f]{32}/, 'lead_' + '0'.repeat(32)),
  });

  it('is 200 {ok:true,id} for a blocked word and for a site not allowed, as for an accepted post', async () => {
    const accepted = await post({ name: 'Real person' }, 'https://www.roofer.example');
    const blocked = await post({ name: 'Casino bonus' }, 'https://www.roofer.example');
    const elsewhere = await post({ name: 'Other person' }, 'https://elsewhere.example');
    expect(JSON.parse(accepted.body)).toMatchObject({ ok: true });
    expect(shape(blocked)).toEqual(shape(accepted));
    expect(shape(elsewhere)).toEqual(shape(accepted));
    const rows = await storedRows(world, seeded.source.id);
    expect(rows.leads.map((l) => l.name)).toEqual(['Real person']);
    expect(rows.quarantine.map((q) => [q.reason, q.detail])).toEqual([
      ['blocked_rule', 'word casino'],
      ['site_not_allowed', 'elsewhere.example'],
    ]);
    // CORS stays open: the refused site gets the same CORS answer as the allowed one.
    expect(elsewhere.headers['access-control-allow-origin']).toBe(accepted.headers['access-control-allow-origin']);
  });
});
