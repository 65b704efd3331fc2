import { recordAudit } from '../audit/record-audit.js';
import { sql } from 'kysely';
import { AppError } from '../errors.js';
import { nowIso, type WorkspaceVerbArgs } from '../context.js';
import { getPipeline } from '../pipelines/find-pipeline.js';
import { loadStages, pickStage, type Stage } from './stage.js';
import { newHistoryId, type MovedBy } from './stage-history.js';

/** A bound value typed as text, so PostgreSQL knows what a parameter in a select list is. */
const text = (value: string | null) => sql<string | null>`cast(${value} as text)`;

/**
 * Removes a stage (owner). A stage that holds leads is removed only by moving them (docs/admin-app.md): `moveTo` names
 * the stage they go to, and each move is written to the leads' history like any other. A pipeline keeps at
 * least one stage, since new leads land in the first.
 */
export async function removeStage({
  ctx,
  input,
}: WorkspaceVerbArgs<{ pipelineId: string; stage: string; moveTo?: string; by: MovedBy }>): Promise<{
  removed: Stage;
  moved: number;
}> {
  const pipeline = await getPipeline({ ctx, input });
  return ctx.store.writer.write(async (trx) => {
    const stages = await loadStages(trx, pipeline.id);
    const stage = pickStage(stages, input.stage);
    if (stages.length === 1) {
      throw new AppError(
        'last_stage',
        `"${stage.name}" is the only stage of this pipeline; add another before removing it`,
      );
    }
    const held = await trx
      .selectFrom('leads')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('pipeline_id', '=', pipeline.id)
      .where('stage', '=', stage.key)
      .executeTakeFirstOrThrow();
    const count = Number(held.n);
    let target: Stage | undefined;
    if (input.moveTo !== undefined) {
      target = pickStage(stages, input.moveTo);
      if (target.key === stage.key)
        throw new AppError('invalid_request', 'Move the leads to a different stage than the one removed');
    }
    if (count > 0 && !target) {
      throw new AppError(
        'stage_not_empty',
        `"${stage.name}" holds ${count} lead${count === 1 ? '' : 's'}; choose a stage to move them to`,
      );
    }
    if (count > 0 && target) {
      // One statement for the history of every lead moved, one for the move itself.
      const prefix = `${newHistoryId()}_`;
      await trx
        .insertInto('stage_history')
        .columns([
          'id',
          'lead_id',
          'from_stage',
          'from_name',
          'to_stage',
          'to_name',
          'by_user_id',
          'by_label',
          'moved_at',
        ])
        .expression((eb) =>
          eb
            .selectFrom('leads')
            .select([
              sql<string>`cast(${prefix} as text) || leads.id`.as('id'),
              'leads.id as lead_id',
              text(stage.key).as('from_stage'),
              text(stage.name).as('from_name'),
              text(target.key).as('to_stage'),
              text(target.name).as('to_name'),
              text(input.by.userId).as('by_user_id'),
              text(input.by.label).as('by_label'),
              text(nowIso(ctx)).as('moved_at'),
            ])
            .where('pipeline_id', '=', pipeline.id)
            .where('stage', '=', stage.key),
        )
        .execute();
      await trx
        .updateTable('leads')
        .set({ stage: target.key })
        .where('pipeline_id', '=', pipeline.id)
        .where('stage', '=', stage.key)
        .execute();
    }
    await trx.deleteFrom('stages').where('pipeline_id', '=', pipeline.id).where('key', '=', stage.key).execute();
    // Close the gap so positions stay 0..n-1.
    for (const [position, s] of stages.filter((s) => s.key !== stage.key).entries()) {
      if (s.position !== position) {
        await trx
          .updateTable('stages')
          .set({ position })
          .where('pipeline_id', '=', pipeline.id)
          .where('key', '=', s.key)
          .execute();
      }
    }
    await recordAudit(trx, ctx, {
      action: 'stage.removed',
      workspaceId: pipeline.workspaceId,
      targetIds: [pipeline.id],
      details: { leadsMoved: count },
    });
    return { removed: stage, moved: count };
  });
}
