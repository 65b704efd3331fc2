import type { VerbArgs } from '../context.js';
import { findPipeline } from '../pipelines/find-pipeline.js';
import { findWorkspace } from '../workspaces/find-workspace.js';
import type { LeadTable } from '../../storage/schema.js';
import type { LeadFields } from '../intake/lead-fields.js';

/** A lead as the inbox shows it: its fields as intake stored them, plus where and when it arrived. */
export interface LeadView extends LeadFields {
  id: string;
  sourceId: string;
  pipelineId: string;
  botCheck: string;
  receivedAt: string;
}

export function toLeadView(row: LeadTable): LeadView {
  return {
    id: row.id,
    sourceId: row.source_id,
    pipelineId: row.pipeline_id,
    name: row.name,
    phone: row.phone,
    email: row.email,
    address: row.address,
    notes: row.notes,
    extra: JSON.parse(row.extra) as Record<string, string>,
    botCheck: row.bot_check,
    receivedAt: row.received_at,
  };
}

/** The Leads inbox of a workspace (optionally one pipeline), newest first. */
export async function listLeads({
  ctx,
  input,
}: VerbArgs<{ workspace: string; pipeline?: string; limit?: number }>): Promise<LeadView[]> {
  const workspace = await findWorkspace({ ctx, input: { ref: input.workspace } });
  let query = ctx.store.db.selectFrom('leads').selectAll().where('workspace_id', '=', workspace.id);
  if (input.pipeline) {
    const pipeline = await findPipeline({ ctx, input: { workspaceId: workspace.id, ref: input.pipeline } });
    query = query.where('pipeline_id', '=', pipeline.id);
  }
  const rows = await query
    .where('stage', '=', 'inbox')
    .orderBy('received_at', 'desc')
    .orderBy('id', 'desc')
    .limit(input.limit ?? 1000)
    .execute();
  return rows.map(toLeadView);
}
