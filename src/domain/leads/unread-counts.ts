import type { WorkspaceVerbArgs } from '../context.js';

export interface PipelineUnread {
  pipelineId: string;
  name: string;
  unread: number;
}

/**
 * New (never opened) leads per pipeline, for the navigation: the sum of the pipeline's counter rows, which the
 * triggers of `lead_unread` keep in the same statement as the marks (migration 0024), so a few rows are read
 * however many leads are new.
 */
export async function unreadCounts({ ctx }: WorkspaceVerbArgs<Record<string, never>>): Promise<PipelineUnread[]> {
  // One round trip: each pipeline with the sum of its counter rows (their primary key's range).
  const rows = await ctx.store.db
    .selectFrom('pipelines')
    .select([
      'id',
      'name',
      (eb) =>
        eb
          .selectFrom('lead_unread_counts')
          .select((c) => c.fn.sum<number | string | null>('unread').as('n'))
          .whereRef('lead_unread_counts.pipeline_id', '=', 'pipelines.id')
          .as('n'),
    ])
    .where('workspace_id', '=', ctx.workspaceId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  return rows.map((p) => ({ pipelineId: p.id, name: p.name, unread: Number(p.n ?? 0) }));
}
