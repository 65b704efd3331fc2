import { recordAudit } from '../audit/record-audit.js';
import type { WorkspaceVerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import type { Role } from '../roles.js';

/**
 * Deletes a note of a lead in the workspace: an owner may delete any note, a member only their own. Another
 * workspace's note, or a note of another lead, is "not found" like a missing one.
 */
export async function deleteNote({
  ctx,
  input,
}: WorkspaceVerbArgs<{ leadId: string; noteId: string; userId: string; role: Role }>): Promise<{
  deleted: string;
  leadId: string;
}> {
  return ctx.store.writer.write(async (trx) => {
    const note = await trx
      .selectFrom('lead_notes')
      .innerJoin('leads', 'leads.id', 'lead_notes.lead_id')
      .select(['lead_notes.id', 'lead_notes.lead_id', 'lead_notes.author_user_id'])
      .where('lead_notes.id', '=', input.noteId)
      .where('lead_notes.lead_id', '=', input.leadId)
      .where('leads.workspace_id', '=', ctx.workspaceId)
      .executeTakeFirst();
    if (!note) throw new AppError('note_not_found', 'No such note on this lead');
    if (input.role !== 'owner' && note.author_user_id !== input.userId) {
      throw new AppError('owner_only', 'Only its author or an owner can delete a note');
    }
    await trx.deleteFrom('lead_notes').where('id', '=', note.id).execute();
    await recordAudit(trx, ctx, {
      action: 'lead.note_deleted',
      workspaceId: ctx.workspaceId,
      targetIds: [note.lead_id, note.id],
    });
    return { deleted: note.id, leadId: note.lead_id };
  });
}
