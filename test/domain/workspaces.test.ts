import { afterEach, beforeEach, expect, it } from 'vitest';
import { createPipeline } from '../../src/domain/pipelines/create-pipeline.js';
import { findPipeline } from '../../src/domain/pipelines/find-pipeline.js';
import { configureBotCheck } from '../../src/domain/sources/configure-bot-check.js';
import { createSource } from '../../src/domain/sources/create-source.js';
import { findSourceByToken, readBotCheckSecret, requireSource } from '../../src/domain/sources/find-source.js';
import { setSourceActive } from '../../src/domain/sources/set-source-active.js';
import { bootstrap } from '../../src/domain/bootstrap.js';
import { createWorkspace } from '../../src/domain/workspaces/create-workspace.js';
import { findWorkspace } from '../../src/domain/workspaces/find-workspace.js';
import { looksLikeId } from '../../src/domain/ids.js';
import { describeEachBackend } from '../helpers/backends.js';
import { errorCodeOf } from '../helpers/error-code.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';
import { inWorkspace } from '../../src/domain/context.js';

describeEachBackend('workspaces, pipelines and sources', (backend) => {
  let world: TestWorld;
  beforeEach(async () => {
    world = await createWorld(backend);
  });
  afterEach(async () => {
    await world.close();
  });

  it('creates a workspace with time-ordered prefixed ids and finds it by id or name, case-insensitively', async () => {
    const ctx = world.ctx;
    const a = await createWorkspace({ ctx, input: { name: '  Acme  ' } });
    const b = await createWorkspace({ ctx, input: { name: 'Beta' } });
    expect(looksLikeId('ws', a.id)).toBe(true);
    expect(a.id < b.id).toBe(true);
    expect(a.name).toBe('Acme');
    expect((await findWorkspace({ ctx, input: { ref: 'Acme' } })).id).toBe(a.id);
    expect((await findWorkspace({ ctx, input: { ref: b.id } })).name).toBe('Beta');
    expect(await errorCodeOf(findWorkspace({ ctx, input: { ref: 'Nope' } }))).toBe('workspace_not_found');
    expect((await findWorkspace({ ctx, input: { ref: 'aCME' } })).id).toBe(a.id);
    // Names are unique, case-insensitively (docs/cli.md).
    expect(await errorCodeOf(createWorkspace({ ctx, input: { name: 'ACME' } }))).toBe('name_taken');
    expect(await errorCodeOf(createWorkspace({ ctx, input: { name: '   ' } }))).toBe('invalid_request');
  });

  it('creates a source with a v4 token, URLs, and toggles it instantly', async () => {
    const ctx = world.ctx;
    const ws = await createWorkspace({ ctx, input: { name: 'Acme' } });
    const pl = await createPipeline({ ctx: inWorkspace(ctx, ws.id), input: { name: 'Sales' } });
    expect(pl.workspaceId).toBe(ws.id);
    const source = await createSource({ ctx: inWorkspace(ctx, ws.id), input: { pipelineId: pl.id, name: 'Web' } });
    expect(source.token).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(source.intakeUrl).toBe(`http://leadscan.test/api/intake/${source.token}`);
    expect(source.formUrl).toBe(`http://leadscan.test/f/${source.token}`);
    expect(source.active).toBe(true);

    await setSourceActive({ ctx, input: { sourceId: source.id, active: false } });
    expect((await findSourceByToken({ ctx, input: { token: source.token } }))?.active).toBe(false);
    await setSourceActive({ ctx, input: { sourceId: source.id, active: true } });
    expect((await findSourceByToken({ ctx, input: { token: source.token } }))?.active).toBe(true);

    // The CLI's lookup: a source by its id or its token, in any case.
    expect((await requireSource({ ctx, input: { ref: source.token.toUpperCase() } })).id).toBe(source.id);
    expect((await requireSource({ ctx, input: { ref: source.id } })).token).toBe(source.token);
    expect(await errorCodeOf(requireSource({ ctx, input: { ref: 'not-a-uuid' } }))).toBe('malformed_token');
    expect(await errorCodeOf(requireSource({ ctx, input: { ref: '00000000-0000-4000-8000-000000000000' } }))).toBe(
      'source_not_found',
    );
    expect(
      await errorCodeOf(
        setSourceActive({ ctx, input: { sourceId: 'src_00000000000000000000000000000000', active: false } }),
      ),
    ).toBe('source_not_found');
    expect(
      await errorCodeOf(createSource({ ctx: inWorkspace(ctx, ws.id), input: { pipelineId: 'pl_nope', name: 'x' } })),
    ).toBe('pipeline_not_found');
    // The CLI's lookup of a pipeline: by id or name, case-insensitively.
    expect((await findPipeline({ ctx: inWorkspace(ctx, ws.id), input: { ref: 'sALES' } })).id).toBe(pl.id);
    expect(await errorCodeOf(findPipeline({ ctx: inWorkspace(ctx, ws.id), input: { ref: 'Nope' } }))).toBe(
      'pipeline_not_found',
    );
  });

  it('keeps a pipeline of another workspace out of reach', async () => {
    const ctx = world.ctx;
    const a = await createWorkspace({ ctx, input: { name: 'A' } });
    const b = await createWorkspace({ ctx, input: { name: 'B' } });
    const plB = await createPipeline({ ctx: inWorkspace(ctx, b.id), input: { name: 'Sales' } });
    expect(
      await errorCodeOf(createSource({ ctx: inWorkspace(ctx, a.id), input: { pipelineId: plB.id, name: 'x' } })),
    ).toBe('pipeline_not_found');
  });

  it('stores a bot-check secret encrypted and turns it off again', async () => {
    const { ctx } = world;
    const seeded = await world.seed();
    const on = await configureBotCheck({
      ctx,
      input: {
        sourceId: seeded.source.id,
        settings: { provider: 'turnstile', secret: 'provider-secret-123', siteKey: 'site' },
      },
    });
    expect(on.botCheck).toEqual({ provider: 'turnstile', siteKey: 'site', minScore: null });
    const row = await world.store.db
      .selectFrom('lead_sources')
      .selectAll()
      .where('id', '=', seeded.source.id)
      .executeTakeFirstOrThrow();
    expect(row.bot_check_secret_enc).not.toContain('provider-secret-123');
    expect(await readBotCheckSecret({ ctx, input: { sourceId: seeded.source.id } })).toBe('provider-secret-123');
    expect(
      await errorCodeOf(
        configureBotCheck({
          ctx,
          input: { sourceId: seeded.source.id, settings: { provider: 'captchaX', secret: 's' } },
        }),
      ),
    ).toBe('invalid_request');
    expect(
      await errorCodeOf(
        configureBotCheck({
          ctx,
          input: { sourceId: seeded.source.id, settings: { provider: 'turnstile', secret: 's', minScore: 0.5 } },
        }),
      ),
    ).toBe('invalid_request');
    const off = await configureBotCheck({ ctx, input: { sourceId: seeded.source.id, settings: { off: true } } });
    expect(off.botCheck).toBe('off');
    expect((await findSourceByToken({ ctx, input: { token: seeded.source.token } }))?.botCheck).toBeNull();
  });

  it('bootstraps Default/Sales/Website form once, even when started concurrently', async () => {
    const results = await Promise.all([
      bootstrap({ ctx: world.ctx }),
      bootstrap({ ctx: world.ctx }),
      bootstrap({ ctx: world.ctx }),
    ]);
    expect(results.filter((r) => r.created)).toHaveLength(1);
    const workspaces = await world.store.db.selectFrom('workspaces').selectAll().execute();
    expect(workspaces.map((w) => w.name)).toEqual(['Default']);
    const pipelines = await world.store.db.selectFrom('pipelines').select('name').execute();
    expect(pipelines.map((p) => p.name)).toEqual(['Sales']);
    const sources = await world.store.db.selectFrom('lead_sources').select(['name', 'token']).execute();
    expect(sources.map((s) => s.name)).toEqual(['Website form']);
    const again = await bootstrap({ ctx: world.ctx });
    if (again.created) throw new Error('a second bootstrap must find the first');
    expect(again.sources.map((s) => [s.name, s.token])).toEqual([['Website form', sources[0]!.token]]);
  });
});
