import type { VerbArgs } from '../context.js';
import { nowIso } from '../context.js';
import { findWorkspace } from '../workspaces/find-workspace.js';
import { loadStages, type Stage } from '../stages/stage.js';
import type { StageMove } from '../stages/stage-history.js';
import { findLeadRow } from './find-lead.js';
import { toLeadView, type LeadView } from './lead-view.js';

/** Everything the lead page shows (CONTRACT §12). */
export interface LeadDetail extends LeadView {
  workspaceId: string;
  pipelineName: string;
  sourceName: string;
  stageName: string;
  clientIp: string | null;
  userAgent: string | null;
  origin: string | null;
  referer: string | null;
  restoredFrom: string | null;
  /** Whether it was new before this opening. */
  wasNew: boolean;
  stages: Stage[];
  history: StageMove[];
}

/**
 * A lead with its stage history, marked opened for the whole workspace (a lead stays "new" until someone opens
 * it). `markOpened: false` reads without marking (`leads show` from a script).
 */
export async function openLead({
  ctx,
  input,
}: VerbArgs<{ workspace?: string; id: string; userId?: string | null; markOpened?: boolean }>): Promise<LeadDetail> {
  const workspaceId = input.workspace === undefined ? undefined : (await findWorkspace({ ctx, input: { ref: input.workspace } })).id;
  const { db } = ctx.store;
  const row = await findLeadRow(db, { workspaceId, id: input.id });
  const [pipeline, source, stages, history, read] = await Promise.all([
    db.selectFrom('pipelines').select('name').where('id', '=', row.pipeline_id).executeTakeFirstOrThrow(),
    db.selectFrom('lead_sources').select('name').where('id', '=', row.source_id).executeTakeFirstOrThrow(),
    loadStages(db, row.pipeline_id),
    db.selectFrom('stage_history').selectAll().where('lead_id', '=', row.id).orderBy('moved_at').orderBy('id').execute(),
    db.selectFrom('lead_reads').select('lead_id').where('lead_id', '=', row.id).executeTakeFirst(),
  ]);
  if (!read && input.markOpened !== false) {
    await ctx.store.writer.write((trx) =>
      trx
        .insertInto('lead_reads')
        .values({
          lead_id: row.id,
          workspace_id: row.workspace_id,
          pipeline_id: row.pipeline_id,
          opened_at: nowIso(ctx),
          opened_by_user_id: input.userId ?? null,
        })
        // Two people opening it at once: the first mark stands.
        .onConflict((oc) => oc.column('lead_id').doNothing())
        .execute(),
    );
  }
  return {
    ...toLeadView(row),
    workspaceId: row.workspace_id,
    pipelineName: pipeline.name,
    sourceName: source.name,
    stageName: stages.find((s) => s.key === row.stage)?.name ?? row.stage,
    clientIp: row.client_ip,
    userAgent: row.user_agent,
    origin: row.origin,
    referer: row.referer,
    restoredFrom: row.restored_from,
    wasNew: !read,
    stages,
    history: history.map((h) => ({
      fromStage: h.from_stage,
      fromName: h.from_name,
      toStage: h.to_stage,
      toName: h.to_name,
      byUserId: h.by_user_id,
      byLabel: h.by_label,
      movedAt: h.moved_at,
    })),
  };
}
