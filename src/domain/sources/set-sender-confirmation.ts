import { recordAudit } from '../audit/record-audit.js';
import { nowIso, type WorkspaceVerbArgs } from '../context.js';
import { mailableAddress } from '../email-address.js';
import { AppError } from '../errors.js';
import { getSource } from './find-source.js';

/**
 * Turns the confirmation to a form's sender on or off for a source (docs/notifications.md, "Confirmation to the
 * sender"). On needs the workspace's business email (Settings): the confirmation is Reply-To it, and names no one else
 * to answer. Intake sees the change with the source (its cache drops entries on this write, other processes within
 * seconds).
 */
export async function setSenderConfirmation({
  ctx,
  input,
}: WorkspaceVerbArgs<{ sourceId: string; on: boolean }>): Promise<{ id: string; confirmSender: boolean }> {
  const source = await getSource({ ctx, input });
  if (source.workspaceId !== ctx.workspaceId)
    throw new AppError('source_not_found', `No lead source has the id ${input.sourceId}`);
  await ctx.store.writer.write(async (trx) => {
    if (input.on) {
      const workspace = await trx
        .selectFrom('workspaces')
        .select('business_email')
        .where('id', '=', source.workspaceId)
        .executeTakeFirst();
      if (!mailableAddress(workspace?.business_email)) {
        const message = 'Add a business email in Settings first: replies to the confirmation go there';
        throw new AppError('invalid_fields', message, [{ field: 'confirmSender', code: 'invalid', message }]);
      }
    }
    await trx
      .updateTable('lead_sources')
      .set({ confirm_sender: input.on ? 1 : 0, updated_at: nowIso(ctx) })
      .where('id', '=', source.id)
      .execute();
    await recordAudit(trx, ctx, {
      action: 'source.confirmation_changed',
      workspaceId: source.workspaceId,
      targetIds: [source.id],
      details: { on: input.on },
    });
  });
  return { id: source.id, confirmSender: input.on };
}
