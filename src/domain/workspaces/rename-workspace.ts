import { recordAudit } from '../audit/record-audit.js';
import type { VerbArgs } from '../context.js';
import { assertNameFree, checkName } from '../unique-name.js';
import { noWorkspaceWithId } from './find-workspace.js';

export async function renameWorkspace({
  ctx,
  input,
}: VerbArgs<{ workspaceId: string; name: string }>): Promise<{ id: string; name: string }> {
  const name = checkName('workspace', input.name);
  await ctx.store.writer.write(async (trx) => {
    await assertNameFree(trx, 'workspaces', { name, exceptId: input.workspaceId });
    const renamed = await trx
      .updateTable('workspaces')
      .set({ name })
      .where('id', '=', input.workspaceId)
      .executeTakeFirst();
    if (Number(renamed.numUpdatedRows) === 0) throw noWorkspaceWithId(input.workspaceId);
    await recordAudit(trx, ctx, {
      action: 'settings.changed',
      workspaceId: input.workspaceId,
      details: { name: true },
    });
  });
  return { id: input.workspaceId, name };
}
