import crypto from 'node:crypto';
import { newId } from '../ids.js';
import { nowIso, type VerbArgs } from '../context.js';
import { findWorkspace } from '../workspaces/find-workspace.js';
import { checkName } from '../workspaces/create-workspace.js';
import { findPipeline } from '../pipelines/find-pipeline.js';
import { toSourceView, type LeadSourceView } from './source.js';

export async function createSource({
  ctx,
  input,
}: VerbArgs<{ workspace: string; pipeline: string; name: string }>): Promise<LeadSourceView> {
  const name = checkName('lead source', input.name);
  const workspace = await findWorkspace({ ctx, input: { ref: input.workspace } });
  const pipeline = await findPipeline({ ctx, input: { workspaceId: workspace.id, ref: input.pipeline } });
  const id = newId('src');
  // The intake token is a random UUID v4; the unique index on it is the real guard against a collision.
  const token = crypto.randomUUID();
  const now = nowIso(ctx);
  await ctx.store.writer.write((trx) =>
    trx
      .insertInto('lead_sources')
      .values({
        id,
        workspace_id: workspace.id,
        pipeline_id: pipeline.id,
        name,
        token,
        active: 1,
        bot_check_provider: null,
        bot_check_secret_enc: null,
        bot_check_site_key: null,
        bot_check_min_score: null,
        created_at: now,
        updated_at: now,
      })
      .execute(),
  );
  return toSourceView(ctx.config.publicBaseUrl, {
    id,
    workspaceId: workspace.id,
    pipelineId: pipeline.id,
    name,
    token,
    active: true,
    botCheck: null,
  });
}
