import { AppError } from '../../../domain/errors.js';
import { deleteLead } from '../../../domain/leads/delete-lead.js';
import { exportLeadsCsv } from '../../../domain/leads/export-leads.js';
import type { LeadFilterInput } from '../../../domain/leads/lead-filters.js';
import { inboxOptions } from '../../../domain/leads/inbox-options.js';
import { listLeads } from '../../../domain/leads/list-leads.js';
import { moveLead } from '../../../domain/leads/move-lead.js';
import { openLead } from '../../../domain/leads/open-lead.js';
import { findPipeline } from '../../../domain/pipelines/find-pipeline.js';
import type { MovedBy } from '../../../domain/stages/stage-history.js';
import { scansOfLead } from '../../../domain/scans/scans-of-lead.js';
import { getWorkspaceSettings } from '../../../domain/settings/workspace-settings.js';
import type { AdminArea, WorkspaceCall } from '../routes.js';
import { workspacePath } from '../routes.js';
import { sendAttachment } from '../ui.js';
import { FILTER_KEYS, inboxPage, leadPage, type InboxQuery } from './leads-pages.js';

/** Who a page action is recorded as: the signed-in person (docs/admin-app.md "who moved it"). */
export function actorOf(call: WorkspaceCall): MovedBy {
  return { userId: call.user.userId, label: call.user.displayName || call.user.email };
}

function inboxQuery(call: WorkspaceCall): InboxQuery {
  const query: InboxQuery = {};
  for (const key of [...FILTER_KEYS, 'cursor'] as const) {
    const value = call.query[key];
    if (typeof value === 'string' && value.trim() !== '') query[key] = value.trim().slice(0, 400);
  }
  return query;
}

function filtersOf(workspaceId: string, pipelineId: string, query: InboxQuery): LeadFilterInput {
  return {
    workspaceId,
    pipelineId,
    search: query.q,
    stage: query.stage,
    source: query.source,
    botCheck: query.bot,
    since: query.from,
    until: query.to,
  };
}

async function renderInbox(call: WorkspaceCall, pipelineRef: string | undefined) {
  const workspaceId = call.workspace.workspaceId;
  const counts = await call.unreadCounts();
  const pipelineId = pipelineRef ?? counts[0]?.pipelineId;
  if (!pipelineId) throw new AppError('pipeline_not_found', 'This workspace has no pipeline yet');
  const pipeline = await findPipeline({ ctx: call.ctx, input: { workspaceId, ref: pipelineId } });
  const query = inboxQuery(call);
  const [options, page] = await Promise.all([
    inboxOptions({ ctx: call.ctx, input: { workspaceId, pipelineId: pipeline.id } }),
    listLeads({ ctx: call.ctx, input: { ...filtersOf(workspaceId, pipeline.id, query), cursor: query.cursor } }),
  ]);
  return call.render(200, {
    title: `Leads · ${pipeline.name}`,
    area: 'leads',
    body: inboxPage(call, { pipelineId: pipeline.id, pipelineName: pipeline.name, counts, ...options, query, page }),
  });
}

/** Leads (docs/admin-app.md): each pipeline's inbox, a lead's page, Move to, Delete, Export CSV. */
export const leadsArea: AdminArea = {
  nav: { area: 'leads', label: 'Leads', path: 'leads', access: 'member' },
  routes: [
    {
      // The first pipeline's inbox.
      method: 'GET',
      path: '/w/:workspaceId/leads',
      access: 'member',
      handler: (call) => renderInbox(call, undefined),
    },
    {
      method: 'GET',
      path: '/w/:workspaceId/pipelines/:pipelineId/leads',
      access: 'member',
      handler: (call) => renderInbox(call, call.params.pipelineId ?? ''),
    },
    {
      // Exactly the filtered set, every page of it, streamed.
      method: 'GET',
      path: '/w/:workspaceId/pipelines/:pipelineId/leads.csv',
      access: 'member',
      handler: async (call) => {
        const workspaceId = call.workspace.workspaceId;
        const pipeline = await findPipeline({ ctx: call.ctx, input: { workspaceId, ref: call.params.pipelineId ?? '' } });
        const csv = await exportLeadsCsv({ ctx: call.ctx, input: filtersOf(workspaceId, pipeline.id, inboxQuery(call)) });
        const day = call.ctx.clock.now().toISOString().slice(0, 10);
        const slug = pipeline.name.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '') || 'pipeline';
        return sendAttachment(call.reply, { contentType: 'text/csv; charset=utf-8', filename: `leads-${slug}-${day}.csv`, body: csv });
      },
    },
    {
      method: 'GET',
      path: '/w/:workspaceId/leads/:leadId',
      access: 'member',
      handler: async (call) => {
        const workspaceId = call.workspace.workspaceId;
        const lead = await openLead({ ctx: call.ctx, input: { workspaceId, id: call.params.leadId ?? '' } });
        const [scans, settings] = await Promise.all([
          scansOfLead({ ctx: call.ctx, input: { workspaceId, leadId: lead.id } }),
          getWorkspaceSettings({ ctx: call.ctx, input: { workspaceId } }),
        ]);
        return call.render(200, { title: lead.name ?? 'Lead', area: 'leads', body: leadPage(call, lead, { scans, units: settings.units }) });
      },
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/leads/:leadId/move',
      access: 'member',
      handler: async (call) => {
        const workspaceId = call.workspace.workspaceId;
        const { id } = await moveLead({
          ctx: call.ctx,
          input: { workspaceId, id: call.params.leadId ?? '', stage: call.body.stage ?? '', by: actorOf(call) },
        });
        return call.redirect(workspacePath(workspaceId, `leads/${id}`), 'lead-moved');
      },
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/leads/:leadId/delete',
      access: 'owner',
      handler: async (call) => {
        const workspaceId = call.workspace.workspaceId;
        const lead = await openLead({ ctx: call.ctx, input: { workspaceId, id: call.params.leadId ?? '', markOpened: false } });
        await deleteLead({ ctx: call.ctx, input: { workspaceId, id: lead.id } });
        return call.redirect(workspacePath(workspaceId, `pipelines/${lead.pipelineId}/leads`), 'lead-deleted');
      },
    },
  ],
};
