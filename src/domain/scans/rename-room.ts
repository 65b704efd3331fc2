import { recordAudit } from '../audit/record-audit.js';
import type { WorkspaceVerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { hasControlCharacters } from '../text-input.js';
import { scanInWorkspace } from './scan-in-workspace.js';
import { MAX_ROOM_NAME_LENGTH } from './store-upload.js';

/** A room's name as a person types it: one line, trimmed, at most this many characters. */
export const MAX_ROOM_RENAME_LENGTH = 80;

/**
 * Names a scan's room (docs/admin-app.md, "Room names"): the scan's page **Rename** and `leadscan scans
 * rename-room SCAN ROOM --name N`, ROOM its number from 1. The name is kept beside the stored bytes (scan_rooms),
 * which never change; from then on it is the room's name everywhere it shows (the Scans list, the scan's page and
 * its plans, the new-quote picker, new quote lines), and the measurer no longer names the room from its RoomPlan
 * section. A quote already sent keeps the name its frozen plans had. Members may rename, as they may attach.
 */
export async function renameRoom({
  ctx,
  input,
}: WorkspaceVerbArgs<{ scanId: string; room: number; name: string }>): Promise<{
  scanId: string;
  room: number;
  name: string;
}> {
  const name = input.name.trim();
  if (name.length === 0)
    throw new AppError('invalid_fields', 'Give the room a name', [
      { field: 'name', code: 'required', message: 'Give the room a name.' },
    ]);
  if (Array.from(name).length > Math.min(MAX_ROOM_RENAME_LENGTH, MAX_ROOM_NAME_LENGTH))
    throw new AppError('invalid_fields', `A room's name is at most ${MAX_ROOM_RENAME_LENGTH} characters`, [
      {
        field: 'name',
        code: 'too_long',
        message: `Please shorten this to ${MAX_ROOM_RENAME_LENGTH} characters or fewer.`,
        max: MAX_ROOM_RENAME_LENGTH,
      },
    ]);
  if (hasControlCharacters(name))
    throw new AppError('invalid_fields', "A room's name is one line of text", [
      { field: 'name', code: 'invalid', message: 'Use one line of text, without control characters.' },
    ]);
  if (!Number.isInteger(input.room) || input.room < 1)
    throw new AppError('room_not_found', `Room ${input.room} does not exist (rooms count from 1)`);

  await ctx.store.writer.write(async (trx) => {
    const scan = await scanInWorkspace(ctx, ctx.workspaceId, input.scanId, trx);
    const updated = await trx
      .updateTable('scan_rooms')
      .set({ name, renamed: 1 })
      .where('scan_id', '=', scan.id)
      .where('idx', '=', input.room - 1)
      .executeTakeFirst();
    if (Number(updated.numUpdatedRows) === 0)
      throw new AppError('room_not_found', `Scan ${scan.id} has no room ${input.room} (rooms count from 1)`);
    await recordAudit(trx, ctx, {
      action: 'scan.room_renamed',
      workspaceId: scan.workspaceId,
      targetIds: [scan.id],
      details: { room: input.room },
    });
  });
  return { scanId: input.scanId, room: input.room, name };
}
