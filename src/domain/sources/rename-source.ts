import { recordAudit } from '../audit/record-audit.js';
import { nowIso, type VerbArgs } from '../context.js';
import { assertNameFree, checkName } from '../unique-name.js';
import { getSource } from './find-source.js';

/** Renames a lead source (its hosted form's heading follows). */
export async function renameSource({
  ctx,
  input,
}: VerbArgs<{ sourceId: string; name: string }>): Promise<{ id: string; token: string; name: string }> {
  const name = checkName('lead source', input.name);
  const source = await getSource({ ctx, input });
  await ctx.store.writer.write(async (trx) => {
    await assertNameFree(trx, 'lead_sources', { name, workspaceId: source.workspaceId, exceptId: source.id });
    await trx
      .updateTable('lead_sources')
      .set({ name, updated_at: nowIso(ctx) })
      .where('id', '=', source.id)
      .execute();
    await recordAudit(trx, ctx, { action: 'source.renamed', workspaceId: source.workspaceId, targetIds: [source.id] });
  });
  return { id: source.id, token: source.token, name };
}
