import { recordAudit } from '../audit/record-audit.js';
import type { VerbArgs } from '../context.js';
import { checkDisplayName } from '../display-name.js';

/** Account screen: the person's own name, saved at once. */
export async function changeDisplayName({
  ctx,
  input,
}: VerbArgs<{ userId: string; displayName: string }>): Promise<{ displayName: string }> {
  const displayName = checkDisplayName(input.displayName);
  await ctx.store.writer.write(async (trx) => {
    await trx.updateTable('users').set({ display_name: displayName }).where('id', '=', input.userId).execute();
    await recordAudit(trx, ctx, { action: 'account.name_changed', workspaceId: null, targetIds: [input.userId] });
  });
  return { displayName };
}
