import { recordAudit } from '../audit/record-audit.js';
import type { Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';
import { newId } from '../ids.js';
import { nowIso, type WorkspaceVerbArgs } from '../context.js';
import { getWorkspace } from '../workspaces/find-workspace.js';
import { assertNameFree, checkName } from '../unique-name.js';
import { insertDefaultStages } from './default-stages.js';

export interface Pipeline {
  id: string;
  workspaceId: string;
  name: string;
}

export async function createPipeline({ ctx, input }: WorkspaceVerbArgs<{ name: string }>): Promise<Pipeline> {
  const name = checkName('pipeline', input.name);
  const workspace = await getWorkspace({ ctx, input: { workspaceId: ctx.workspaceId } });
  const id = newId('pl');
  await ctx.store.writer.write(async (trx) => {
    await assertNameFree(trx, 'pipelines', { name, workspaceId: workspace.id });
    await insertPipeline(trx, { id, workspaceId: workspace.id, name, now: nowIso(ctx) });
    await recordAudit(trx, ctx, { action: 'pipeline.created', workspaceId: workspace.id, targetIds: [id] });
  });
  return { id, workspaceId: workspace.id, name };
}

export async function insertPipeline(
  trx: Transaction<Schema>,
  row: { id: string; workspaceId: string; name: string; now: string },
): Promise<void> {
  await trx
    .insertInto('pipelines')
    .values({ id: row.id, workspace_id: row.workspaceId, name: row.name, created_at: row.now })
    .execute();
  await insertDefaultStages(trx, { pipelineId: row.id, now: row.now });
}
