import { recordAudit } from '../audit/record-audit.js';
import type { WorkspaceVerbArgs } from '../context.js';
import { assertNameFree, checkName } from '../unique-name.js';
import { noWorkspaceWithId } from './find-workspace.js';

export async function renameWorkspace({
  ctx,
  input,
}: WorkspaceVerbArgs<{ name: string }>): Promise<{ id: string; name: string }> {
  const name = checkName('workspace', input.name);
  await ctx.store.writer.write(async (trx) => {
    await assertNameFree(trx, 'workspaces', { name, exceptId: ctx.workspaceId });
    const renamed = await trx
      .updateTable('workspaces')
      .set({ name })
      .where('id', '=', ctx.workspaceId)
      .executeTakeFirst();
    if (Number(renamed.numUpdatedRows) === 0) throw noWorkspaceWithId(ctx.workspaceId);
    await recordAudit(trx, ctx, {
      action: 'settings.changed',
      workspaceId: ctx.workspaceId,
      details: { name: true },
    });
  });
  return { id: ctx.workspaceId, name };
}
