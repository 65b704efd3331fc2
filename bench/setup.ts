/**
 * What the SQLite benches start from: a scratch directory, a migrated database with one workspace, pipeline and
 * source made through the domain verbs, and leads in the shape the writer thread's INSERT takes.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadConfig, type Config } from '../src/config.js';
import { createPipeline } from '../src/domain/pipelines/create-pipeline.js';
import { createSource } from '../src/domain/sources/create-source.js';
import { createWorkspace } from '../src/domain/workspaces/create-workspace.js';
import { createDomainContext } from '../src/runtime.js';
import { openDatabase } from '../src/storage/database.js';
import type { LeadInsertValues } from '../src/storage/hot-writes/lead.js';
import { leadRow } from '../test/helpers/hot-rows.js';
import { inWorkspace } from '../src/domain/context.js';

export interface BenchDatabase {
  file: string;
  config: Config;
  appSecret: string;
  workspaceId: string;
  pipelineId: string;
  sourceId: string;
  /** The source's intake token (`/api/intake/<token>`). */
  token: string;
}

/** A fresh directory under the OS temp dir; the bench removes it when done. */
export function benchDir(name: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), `leadscan-${name}-`));
}

/**
 * `file` migrated, with a workspace "Bench", its pipeline "Sales" and a source "Form". The store is closed again, so
 * the bench may open the file its own way (a raw better-sqlite3 connection, or the app). `env` adds to the config.
 */
export async function seedBenchDatabase(file: string, env: Record<string, string> = {}): Promise<BenchDatabase> {
  const appSecret = crypto.randomBytes(32).toString('base64url');
  const config = loadConfig({ DATABASE_URL: file, APP_SECRET: appSecret, LOG_LEVEL: 'silent', ...env });
  const store = openDatabase(config.database);
  await store.migrate();
  const ctx = createDomainContext({ config, store, appSecret });
  const workspace = await createWorkspace({ ctx, input: { name: 'Bench' } });
  const pipeline = await createPipeline({ ctx: inWorkspace(ctx, workspace.id), input: { name: 'Sales' } });
  const source = await createSource({
    ctx: inWorkspace(ctx, workspace.id),
    input: { pipelineId: pipeline.id, name: 'Form' },
  });
  await store.close();
  return {
    file,
    config,
    appSecret,
    workspaceId: workspace.id,
    pipelineId: pipeline.id,
    sourceId: source.id,
    token: source.token,
  };
}

/**
 * A lead for the writer thread's INSERT (leadInsertParams): the intake's row (test/helpers/hot-rows.ts, so the
 * benches and the tests share one shape) into `target`'s source and pipeline, with the bench's own values over it.
 */
export function benchLead(
  target: Pick<BenchDatabase, 'sourceId' | 'pipelineId'>,
  fields: Partial<LeadInsertValues>,
): LeadInsertValues {
  return { ...leadRow({ id: target.sourceId, pipeline_id: target.pipelineId }, null), restored_from: null, ...fields };
}
