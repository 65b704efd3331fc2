import crypto from 'node:crypto';
import type { AddressInfo } from 'node:net';
import { buildApp, type App } from '../../src/app.js';
import { loadConfig, type Config } from '../../src/config.js';
import { inWorkspace, type Clock, type DomainContext } from '../../src/domain/context.js';
import type { DocumentRenderer } from '../../src/domain/document-renderer.js';
import { createDomainContext } from '../../src/runtime.js';
import { createPipeline } from '../../src/domain/pipelines/create-pipeline.js';
import { createSource } from '../../src/domain/sources/create-source.js';
import type { LeadSourceView } from '../../src/domain/sources/source.js';
import { createWorkspace } from '../../src/domain/workspaces/create-workspace.js';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { createTestDatabase, type BackendName, type TestDatabase } from './backends.js';

export interface TestWorld {
  backend: BackendName;
  config: Config;
  store: Database;
  ctx: DomainContext;
  testDb: TestDatabase;
  appSecret: string;
  /** Builds (once) the in-process app; use `app.inject`. */
  app(): Promise<App>;
  /** Listens on a loopback port (once) and returns the base URL. */
  listen(): Promise<string>;
  /** A workspace with a pipeline and an active source, made through the domain verbs. */
  seed(name?: string): Promise<Seeded>;
  close(): Promise<void>;
}

export interface Seeded {
  workspaceId: string;
  uploadKey: string;
  pipelineId: string;
  source: LeadSourceView;
}

export interface WorldOptions {
  env?: Record<string, string>;
  clock?: Clock;
  /** The PDF renderer (by default the real worker pool; the failure-path tests pass one made to fail). */
  renderer?: DocumentRenderer;
}

/** A real database of the given backend, migrated, with config and a domain context; no mocks. */
export async function createWorld(backend: BackendName, options: WorldOptions = {}): Promise<TestWorld> {
  const testDb = await createTestDatabase(backend);
  const appSecret = crypto.randomBytes(32).toString('base64url');
  const config = loadConfig({
    DATABASE_URL: testDb.url,
    APP_SECRET: appSecret,
    LOG_LEVEL: 'silent',
    PUBLIC_BASE_URL: 'http://leadscan.test',
    // Suites post far more than a minute's quota from one loopback address; the rate-limit tests set their own.
    INTAKE_RATE_LIMIT: '0',
    SCAN_RATE_LIMIT: '0',
    // Load shedding off unless a test is about it (test/http/slow-clients.test.ts sets its own): suites run side by
    // side on two cores, where the event loop can lag past the 1 s threshold and answer an unrelated 503.
    LOAD_SHED_EVENT_LOOP_DELAY_MS: '0',
    // The write path under test (the hot writers unless LEADSCAN_WRITE_PATH=batcher: test/http/batcher-write-path.test.ts).
    ...(process.env.LEADSCAN_WRITE_PATH ? { LEADSCAN_WRITE_PATH: process.env.LEADSCAN_WRITE_PATH } : {}),
    ...options.env,
  });
  const store = openDatabase(config.database, { writePath: config.writePath });
  await store.migrate();
  const ctx = createDomainContext({
    config,
    store,
    appSecret,
    ...(options.clock ? { clock: options.clock } : {}),
    ...(options.renderer ? { renderer: options.renderer } : {}),
  });
  let app: App | undefined;
  let baseUrl: string | undefined;
  const world: TestWorld = {
    backend,
    config,
    store,
    ctx,
    testDb,
    appSecret,
    async app() {
      app ??= await buildApp(ctx, { logger: false });
      return app;
    },
    async listen() {
      if (baseUrl) return baseUrl;
      const instance = await world.app();
      await instance.listen({ host: '127.0.0.1', port: 0 });
      baseUrl = `http://127.0.0.1:${(instance.server.address() as AddressInfo).port}`;
      return baseUrl;
    },
    async seed(name = 'Acme') {
      const workspace = await createWorkspace({ ctx, input: { name } });
      const pipeline = await createPipeline({ ctx: inWorkspace(ctx, workspace.id), input: { name: 'Sales' } });
      const source = await createSource({
        ctx: inWorkspace(ctx, workspace.id),
        input: { pipelineId: pipeline.id, name: 'Website form' },
      });
      return { workspaceId: workspace.id, uploadKey: workspace.uploadKey, pipelineId: pipeline.id, source };
    },
    async close() {
      if (app) await app.close();
      await ctx.pdf?.close();
      await store.close();
      await testDb.drop();
    },
  };
  return world;
}
