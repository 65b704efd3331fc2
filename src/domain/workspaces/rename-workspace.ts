import type { VerbArgs } from '../context.js';
import { assertNameFree } from '../unique-name.js';
import { checkName } from './create-workspace.js';
import { findWorkspace } from './find-workspace.js';

export async function renameWorkspace({
  ctx,
  input,
}: VerbArgs<{ workspace: string; name: string }>): Promise<{ id: string; name: string }> {
  const name = checkName('workspace', input.name);
  const workspace = await findWorkspace({ ctx, input: { ref: input.workspace } });
  await ctx.store.writer.write(async (trx) => {
    await assertNameFree(trx, 'workspaces', { name, exceptId: workspace.id });
    await trx.updateTable('workspaces').set({ name }).where('id', '=', workspace.id).execute();
  });
  return { id: workspace.id, name };
}
