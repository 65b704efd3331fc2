import { recordAudit } from '../audit/record-audit.js';
import { nowIso, type WorkspaceVerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import type { MovedBy } from '../stages/stage-history.js';
import { checkText } from '../text-input.js';
import { findLeadRow } from './find-lead.js';
import { NOTE_MAX, type LeadNote } from './lead-work.js';

/**
 * Adds an internal note to a lead. Line breaks and tabs are kept; other control characters are refused, as is
 * an empty note or one over NOTE_MAX characters. Another workspace's lead is "not found".
 */
export async function addNote({
  ctx,
  input,
}: WorkspaceVerbArgs<{ leadId: string; text: string; by: MovedBy }>): Promise<LeadNote> {
  const text = checkText(input.text, 'text', 'The note', { multiline: true }).trim();
  if (text === '') {
    throw new AppError('invalid_fields', 'The note is empty', [
      { field: 'text', code: 'required', message: 'Write the note first' },
    ]);
  }
  if ([...text].length > NOTE_MAX) {
    throw new AppError('invalid_fields', `A note holds at most ${NOTE_MAX} characters`, [
      { field: 'text', code: 'too_long', message: `Keep the note under ${NOTE_MAX} characters`, max: NOTE_MAX },
    ]);
  }
  return ctx.store.writer.write(async (trx) => {
    const lead = await findLeadRow(trx, { workspaceId: ctx.workspaceId, id: input.leadId });
    const note: LeadNote = {
      id: newId('note'),
      leadId: lead.id,
      authorUserId: input.by.userId,
      authorLabel: input.by.label,
      text,
      createdAt: nowIso(ctx),
    };
    await trx
      .insertInto('lead_notes')
      .values({
        id: note.id,
        lead_id: note.leadId,
        author_user_id: note.authorUserId,
        author_label: note.authorLabel,
        body: note.text,
        created_at: note.createdAt,
      })
      .execute();
    await recordAudit(trx, ctx, {
      action: 'lead.note_added',
      workspaceId: lead.workspace_id,
      targetIds: [lead.id, note.id],
    });
    return note;
  });
}
