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
  const { db } = ctx.store;
  const pipelines = await db
    .selectFrom('pipelines')
    .select(['id', 'name'])
    .where('workspace_id', '=', ctx.workspaceId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
  if (pipelines.length === 0) return [];
  const counts = await db
    .selectFrom('lead_unread_counts')
    .select(['pipeline_id', (eb) => eb.fn.sum<number | string>('unread').as('n')])
    .where(
      'pipeline_id',
      'in',
      pipelines.map((p) => p.id),
    )
    .groupBy('pipeline_id')
    .execute();
  const byPipeline = new Map(counts.map((c) => [c.pipeline_id, Number(c.n)]));
  return pipelines.map((p) => ({ pipelineId: p.id, name: p.name, unread: byPipeline.get(p.id) ?? 0 }));
}
