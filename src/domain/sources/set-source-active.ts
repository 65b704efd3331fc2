import { recordAudit } from '../audit/record-audit.js';
import { nowIso, type VerbArgs } from '../context.js';
import { getSource } from './find-source.js';

/** Deactivate or reactivate an intake link; takes effect on the next request (no cache in between). */
export async function setSourceActive({
  ctx,
  input,
}: VerbArgs<{ sourceId: string; active: boolean }>): Promise<{ id: string; token: string; active: boolean }> {
  const source = await getSource({ ctx, input });
  await ctx.store.writer.write(async (trx) => {
    await trx
      .updateTable('lead_sources')
      .set({ active: input.active ? 1 : 0, updated_at: nowIso(ctx) })
      .where('id', '=', source.id)
      .execute();
    await recordAudit(trx, ctx, {
      action: input.active ? 'source.activated' : 'source.deactivated',
      workspaceId: source.workspaceId,
      targetIds: [source.id],
    });
  });
  return { id: source.id, token: source.token, active: input.active };
}
