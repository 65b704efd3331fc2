import type { WorkspaceVerbArgs } from '../context.js';
import { scanNotFound } from './scan-in-workspace.js';
import { scanSummaries, toScanView, type ScanView } from './list-scans.js';
import { leadsById } from './scan-lead.js';

/**
 * One scan of a workspace with its rooms. A scan of another workspace is "not found", exactly like a missing
 * one, so the web app's per-workspace check cannot be stepped around with another workspace's scan id.
 * `markOpened` takes its New mark away for the whole workspace (the scan's page; not the CLI or a download).
 */
export async function getScan({
  ctx,
  input,
}: WorkspaceVerbArgs<{ scanId: string; markOpened?: boolean }>): Promise<ScanView> {
  const { db } = ctx.store;
  const scan = await scanSummaries(db)
    .where('scans.id', '=', input.scanId)
    .where('scans.workspace_id', '=', ctx.workspaceId)
    .executeTakeFirst();
  if (!scan) throw scanNotFound(input.scanId);
  const [rooms, leads] = await Promise.all([
    db.selectFrom('scan_rooms').select(['idx', 'name']).where('scan_id', '=', scan.id).orderBy('idx').execute(),
    leadsById(db, [scan.lead_id]),
  ]);
  if (scan.unread_id !== null && input.markOpened) {
    await ctx.store.writer.write((trx) => trx.deleteFrom('scan_unread').where('scan_id', '=', scan.id).execute());
  }
  return toScanView(
    scan,
    rooms.map((r) => ({ index: Number(r.idx), name: r.name })),
    leads,
  );
}
