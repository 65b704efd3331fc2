import { recordAudit } from '../audit/record-audit.js';
import { nowIso, type WorkspaceVerbArgs } from '../context.js';
import { loadStages, pickStage } from '../stages/stage.js';
import { newHistoryId, type MovedBy, type StageMove } from '../stages/stage-history.js';
import { findLeadRow } from './find-lead.js';

/**
 * Moves a lead to another stage of its pipeline and records who did it, in one transaction. Moving a lead to
 * the stage it is in changes nothing and writes no history (a double-clicked Move stays one move).
 */
export async function moveLead({ ctx, input }: WorkspaceVerbArgs<{ id: string; stage: string; by: MovedBy }>): Promise<{
  id: string;
  moved: StageMove | null;
}> {
  return ctx.store.writer.write(async (trx) => {
    const row = await findLeadRow(trx, { workspaceId: ctx.workspaceId, id: input.id });
    const stages = await loadStages(trx, row.pipeline_id);
    const to = pickStage(stages, input.stage);
    if (to.key === row.stage) return { id: row.id, moved: null };
    const move: StageMove = {
      fromStage: row.stage,
      fromName: stages.find((s) => s.key === row.stage)?.name ?? row.stage,
      toStage: to.key,
      toName: to.name,
      byUserId: input.by.userId,
      byLabel: input.by.label,
      movedAt: nowIso(ctx),
    };
    await trx.updateTable('leads').set({ stage: to.key }).where('id', '=', row.id).execute();
    await trx
      .insertInto('stage_history')
      .values({
        id: newHistoryId(),
        lead_id: row.id,
        from_stage: move.fromStage,
        from_name: move.fromName,
        to_stage: move.toStage,
        to_name: move.toName,
        by_user_id: move.byUserId,
        by_label: move.byLabel,
        moved_at: move.movedAt,
      })
      .execute();
    await recordAudit(trx, ctx, { action: 'lead.moved', workspaceId: row.workspace_id, targetIds: [row.id] });
    return { id: row.id, moved: move };
  });
}
