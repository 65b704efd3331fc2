import { recordAudit } from '../audit/record-audit.js';
import crypto from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';
import { newId } from '../ids.js';
import { nowIso, type WorkspaceVerbArgs } from '../context.js';
import { getPipeline } from '../pipelines/find-pipeline.js';
import { assertNameFree, checkName } from '../unique-name.js';
import { toSourceView, type LeadSourceView } from './source.js';

export async function createSource({
  ctx,
  input,
}: WorkspaceVerbArgs<{ pipelineId: string; name: string }>): Promise<LeadSourceView> {
  const name = checkName('lead source', input.name);
  const pipeline = await getPipeline({ ctx, input });
  const id = newId('src');
  // The intake token is a random UUID v4; the unique index on it is the real guard against a collision.
  const token = crypto.randomUUID();
  const now = nowIso(ctx);
  await ctx.store.writer.write(async (trx) => {
    await assertNameFree(trx, 'lead_sources', { name, workspaceId: pipeline.workspaceId });
    await insertSource(trx, { id, workspaceId: pipeline.workspaceId, pipelineId: pipeline.id, name, token, now });
    await recordAudit(trx, ctx, {
      action: 'source.created',
      workspaceId: pipeline.workspaceId,
      targetIds: [id, pipeline.id],
    });
  });
  return toSourceView(ctx.config.publicBaseUrl, {
    id,
    workspaceId: pipeline.workspaceId,
    pipelineId: pipeline.id,
    name,
    token,
    active: true,
    botCheck: null,
    spamRules: null,
    confirmSender: false,
  });
}

/** A new, active lead source without a bot check. */
export async function insertSource(
  trx: Transaction<Schema>,
  row: { id: string; workspaceId: string; pipelineId: string; name: string; token: string; now: string },
): Promise<void> {
  await trx
    .insertInto('lead_sources')
    .values({
      id: row.id,
      workspace_id: row.workspaceId,
      pipeline_id: row.pipelineId,
      name: row.name,
      token: row.token,
      active: 1,
      bot_check_provider: null,
      bot_check_secret_enc: null,
      bot_check_site_key: null,
      bot_check_min_score: null,
      created_at: row.now,
      updated_at: row.now,
    })
    .execute();
}
