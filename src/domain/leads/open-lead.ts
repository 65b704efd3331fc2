import type { WorkspaceVerbArgs } from '../context.js';
import { loadStages, type Stage } from '../stages/stage.js';
import { stageMoveOf, type StageMove } from '../stages/stage-history.js';
import { earlierLeadsOf, type EarlierLead } from './duplicates.js';
import { findLeadRow } from './find-lead.js';
import { toLeadView, type LeadView } from './lead-view.js';
import { eventsOfLead, memberLabel, notesOfLead, type LeadEvent, type LeadNote } from './lead-work.js';

/** Everything the lead page shows (docs/admin-app.md). */
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
  /** The member it is assigned to; null when nobody is. */
  assignee: { userId: string; email: string; label: string } | null;
  /** `YYYY-MM-DD`, a day in the workspace's time zone; null when none. */
  followUpOn: string | null;
  /** Internal notes, newest first. */
  internalNotes: LeadNote[];
  /** Assignments and follow-up changes, oldest first (the stage moves are in `history`). */
  events: LeadEvent[];
  /** Earlier leads of the workspace with the same email or phone, newest first (duplicates.ts); empty when none. */
  earlier: EarlierLead[];
}

/**
 * A lead with its stage history, marked opened for the whole workspace (a lead stays "new" until someone opens
 * it). `markOpened: false` reads without marking (`leads show` from a script).
 */
export async function openLead({
  ctx,
  input,
}: WorkspaceVerbArgs<{ id: string; markOpened?: boolean }>): Promise<LeadDetail> {
  const { db } = ctx.store;
  const row = await findLeadRow(db, { workspaceId: ctx.workspaceId, id: input.id });
  const [pipeline, source, stages, history, unread, assignee, internalNotes, events, earlier] = await Promise.all([
    db.selectFrom('pipelines').select('name').where('id', '=', row.pipeline_id).executeTakeFirstOrThrow(),
    db.selectFrom('lead_sources').select('name').where('id', '=', row.source_id).executeTakeFirstOrThrow(),
    loadStages(db, row.pipeline_id),
    db
      .selectFrom('stage_history')
      .selectAll()
      .where('lead_id', '=', row.id)
      .orderBy('moved_at')
      .orderBy('id')
      .execute(),
    db.selectFrom('lead_unread').select('lead_id').where('lead_id', '=', row.id).executeTakeFirst(),
    row.assignee_user_id
      ? db
          .selectFrom('users')
          .select(['id', 'email', 'display_name'])
          .where('id', '=', row.assignee_user_id)
          .executeTakeFirst()
      : Promise.resolve(undefined),
    notesOfLead(db, row.id),
    eventsOfLead(db, row.id),
    earlierLeadsOf(ctx, {
      id: row.id,
      workspaceId: row.workspace_id,
      receivedAt: row.received_at,
      emailKey: row.email_key,
      phoneKey: row.phone_key,
    }),
  ]);
  if (unread && input.markOpened !== false) {
    // Opened by anyone means opened for the whole workspace; two people opening it at once both just delete.
    await ctx.store.writer.write((trx) => trx.deleteFrom('lead_unread').where('lead_id', '=', row.id).execute());
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
    wasNew: unread !== undefined,
    stages,
    history: history.map(stageMoveOf),
    assignee: assignee ? { userId: assignee.id, email: assignee.email, label: memberLabel(assignee) } : null,
    followUpOn: row.follow_up_on ?? null,
    internalNotes,
    events,
    earlier,
  };
}
