import type { Selectable } from 'kysely';
import type { QuarantineTable } from '../../storage/schema.js';
import type { WorkspaceVerbArgs } from '../context.js';
import { quarantineCutoff } from '../intake/quarantine-retention.js';

export interface QuarantineView {
  id: string;
  sourceId: string;
  reason: string;
  /** What caught it: the blocked rule, the site's host, or who marked the lead as spam. */
  detail: string | null;
  fields: Record<string, string>;
  receivedAt: string;
  restoredLeadId: string | null;
}

/**
 * Quarantined submissions of a workspace (caught posts, leads marked as spam), newest first (docs/api.md). Pruning runs
 * when a source catches again, so a quiet source may still hold rows past 30 days: the cutoff here keeps them out of
 * sight all the same.
 */
export async function listQuarantine({
  ctx,
  input,
}: WorkspaceVerbArgs<{ limit?: number; offset?: number }>): Promise<QuarantineView[]> {
  const rows = await ctx.store.db
    .selectFrom('quarantine')
    .selectAll()
    .where('workspace_id', '=', ctx.workspaceId)
    .where('received_at', '>=', quarantineCutoff(ctx.clock.now()))
    .orderBy('received_at', 'desc')
    .orderBy('id', 'desc')
    .limit(input.limit ?? 1000)
    .offset(input.offset ?? 0)
    .execute();
  return rows.map(toQuarantineView);
}

/** A quarantine row as the Quarantine screen, the CLI and a person's export show it. */
export function toQuarantineView(row: Selectable<QuarantineTable>): QuarantineView {
  return {
    id: row.id,
    sourceId: row.source_id,
    reason: row.reason,
    detail: row.detail,
    fields: JSON.parse(row.fields) as Record<string, string>,
    receivedAt: row.received_at,
    restoredLeadId: row.restored_lead_id,
  };
}
