import { newId } from '../ids.js';
import { nowIso, type VerbArgs } from '../context.js';
import { findWorkspace } from '../workspaces/find-workspace.js';
import { checkName } from '../workspaces/create-workspace.js';

export interface Pipeline {
  id: string;
  workspaceId: string;
  name: string;
}

export async function createPipeline({
  ctx,
  input,
}: VerbArgs<{ workspace: string; name: string }>): Promise<Pipeline> {
  const name = checkName('pipeline', input.name);
  const workspace = await findWorkspace({ ctx, input: { ref: input.workspace } });
  const id = newId('pl');
  await ctx.store.writer.write((trx) =>
    trx.insertInto('pipelines').values({ id, workspace_id: workspace.id, name, created_at: nowIso(ctx) }).execute(),
  );
  return { id, workspaceId: workspace.id, name };
}
