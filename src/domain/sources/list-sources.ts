import { AppError } from '../errors.js';
import type { WorkspaceVerbArgs } from '../context.js';
import { toLeadSource, toSourceView, type BotCheckSettings, type LeadSourceView } from './source.js';

export interface SourceListItem extends LeadSourceView {
  name: string;
  pipelineId: string;
  pipelineName: string;
  botCheck: BotCheckSettings | null;
  confirmSender: boolean;
  leadCount: number;
  lastLeadAt: string | null;
  createdAt: string;
}

/** `leadscan source list` and the Sources screen: every source of the workspace with its lead count. */
export async function listSources({ ctx }: WorkspaceVerbArgs<Record<string, never>>): Promise<SourceListItem[]> {
  const { db } = ctx.store;
  const rows = await db
    .selectFrom('lead_sources')
    .innerJoin('pipelines', 'pipelines.id', 'lead_sources.pipeline_id')
    .selectAll('lead_sources')
    .select('pipelines.name as pipeline_name')
    .where('lead_sources.workspace_id', '=', ctx.workspaceId)
    .orderBy('lead_sources.created_at')
    .orderBy('lead_sources.id')
    .execute();
  if (rows.length === 0) return [];
  const stats = await db
    .selectFrom('leads')
    .select(['source_id', (eb) => eb.fn.countAll<number>().as('n'), (eb) => eb.fn.max('received_at').as('last')])
    .where('workspace_id', '=', ctx.workspaceId)
    .groupBy('source_id')
    .execute();
  const bySource = new Map(stats.map((s) => [s.source_id, s]));
  return rows.map((row) => {
    const source = toLeadSource(row);
    const stat = bySource.get(row.id);
    return {
      ...toSourceView(ctx.config.publicBaseUrl, source),
      name: source.name,
      pipelineId: source.pipelineId,
      pipelineName: row.pipeline_name,
      botCheck: source.botCheck,
      confirmSender: source.confirmSender,
      leadCount: Number(stat?.n ?? 0),
      lastLeadAt: (stat?.last as string | null | undefined) ?? null,
      createdAt: row.created_at,
    };
  });
}

/**
 * A source of the workspace by id, for the Sources screens: another workspace's source is "not found", exactly
 * like a missing one.
 */
export async function findWorkspaceSource({
  ctx,
  input,
}: WorkspaceVerbArgs<{ sourceId: string }>): Promise<SourceListItem> {
  const all = await listSources({ ctx, input: {} });
  const found = all.find((s) => s.id === input.sourceId);
  if (!found) throw new AppError('source_not_found', `No lead source has the id ${input.sourceId}`);
  return found;
}

/** The pipelines a new source can feed, by name. */
export async function pipelineChoices({
  ctx,
}: WorkspaceVerbArgs<Record<string, never>>): Promise<Array<{ id: string; name: string }>> {
  return ctx.store.db
    .selectFrom('pipelines')
    .select(['id', 'name'])
    .where('workspace_id', '=', ctx.workspaceId)
    .orderBy('name')
    .execute();
}
