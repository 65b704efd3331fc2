import { addNote } from '../../../domain/leads/add-note.js';
import { assignLead } from '../../../domain/leads/assign-lead.js';
import { deleteLead } from '../../../domain/leads/delete-lead.js';
import { deleteNote } from '../../../domain/leads/delete-note.js';
import { markAsSpam } from '../../../domain/quarantine/mark-as-spam.js';
import { setFollowUp } from '../../../domain/leads/set-follow-up.js';
import { listMembers } from '../../../domain/members/list-members.js';
import { localDayAndHour } from '../../../domain/notifications/choices.js';
import { exportLeadsCsv, exportLeadsXlsx } from '../../../domain/leads/export-leads.js';
import type { LeadFilterInput } from '../../../domain/leads/lead-filters.js';
import { inboxOptions } from '../../../domain/leads/inbox-options.js';
import { listLeads } from '../../../domain/leads/list-leads.js';
import { moveLead } from '../../../domain/leads/move-lead.js';
import { openLead } from '../../../domain/leads/open-lead.js';
import { findPipeline } from '../../../domain/pipelines/find-pipeline.js';
import type { MovedBy } from '../../../domain/stages/stage-history.js';
import { scansOfLead } from '../../../domain/scans/scans-of-lead.js';
import { getWorkspaceSettings } from '../../../domain/settings/workspace-settings.js';
import { listQuotes } from '../../../domain/quotes/list-quotes.js';
import { leadQuotesCard } from '../quotes/quote-pages.js';
import { listInvoices } from '../../../domain/invoices/list-invoices.js';
import { leadInvoicesCard } from '../invoices/invoice-chain-blocks.js';
import { html } from '../../html.js';
import type { AdminArea, PageForm, WorkspaceCall } from '../admin-route.js';
import { workspacePath } from '../admin-route.js';
import { sendAttachment, XLSX_CONTENT_TYPE } from '../attachment.js';
import type { LeadWorkInput } from './lead-work-pages.js';
import { FILTER_KEYS, inboxPage, leadPage, noPipelinePage, type InboxQuery } from './leads-pages.js';

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

function filtersOf(call: WorkspaceCall, pipelineId: string, query: InboxQuery): LeadFilterInput {
  return {
    // "Assigned to me" is the signed-in person; anything else in the URL is not a filter a page offers.
    assignee: query.assigned === 'me' ? call.user.userId : query.assigned === 'none' ? 'none' : undefined,
    followUpDue: query.due === '1',
    duplicates: query.dup === '1',
    pipelineId,
    search: query.q,
    stage: query.stage,
    source: query.source,
    utmSource: query.utm,
    botCheck: query.bot,
    since: query.from,
    until: query.to,
  };
}

async function renderInbox(call: WorkspaceCall, pipelineRef: string | undefined) {
  const counts = await call.unreadCounts();
  const pipelineId = pipelineRef ?? counts[0]?.pipelineId;
  // People land here after signing in, so a workspace without a pipeline gets a page that says so, not a 404.
  if (!pipelineId) return call.render(200, { title: 'Leads', area: 'leads', body: noPipelinePage(call) });
  const pipeline = await findPipeline({ ctx: call.ctx, input: { ref: pipelineId } });
  const query = inboxQuery(call);
  const [options, page] = await Promise.all([
    inboxOptions({ ctx: call.ctx, input: { pipelineId: pipeline.id } }),
    listLeads({ ctx: call.ctx, input: { ...filtersOf(call, pipeline.id, query), cursor: query.cursor } }),
  ]);
  return call.render(200, {
    title: `Leads · ${pipeline.name}`,
    area: 'leads',
    body: inboxPage(call, { pipelineId: pipeline.id, pipelineName: pipeline.name, counts, ...options, query, page }),
  });
}

/** A lead's page, with a refused form's errors and values when there are any. */
async function renderLead(call: WorkspaceCall, status: number, form: Pick<LeadWorkInput, 'errors' | 'values'>) {
  const workspaceId = call.workspace.workspaceId;
  const lead = await openLead({ ctx: call.ctx, input: { id: call.params.leadId ?? '' } });
  const [scans, settings, members, quotes, invoices] = await Promise.all([
    scansOfLead({ ctx: call.ctx, input: { leadId: lead.id } }),
    getWorkspaceSettings({ ctx: call.ctx, input: { workspaceId } }),
    listMembers({ ctx: call.ctx, input: {} }),
    listQuotes({ ctx: call.ctx, input: { workspaceId, leadId: lead.id } }),
    listInvoices({ ctx: call.ctx, input: { leadId: lead.id, limit: 200 } }),
  ]);
  const today = localDayAndHour(call.ctx.clock.now(), settings.timeZone).day;
  return call.render(status, {
    title: lead.name ?? 'Lead',
    area: 'leads',
    body: leadPage(
      call,
      lead,
      {
        scans,
        units: settings.units,
        quotes: html`${leadQuotesCard(call, lead.id, quotes, settings)}${leadInvoicesCard(
          call,
          lead.id,
          invoices,
          settings.locale,
        )}`,
      },
      { members, today, ...form },
    ),
  });
}

/** A lead page form: a refused field comes back on the lead's page next to it, with what was typed. */
function leadForm(field: string, valuesOf: (call: WorkspaceCall) => LeadWorkInput['values']): PageForm<WorkspaceCall> {
  return {
    field,
    rerender: (call, { status, errors }) => renderLead(call, status, { errors, values: valuesOf(call) }),
  };
}

const toLead = (call: WorkspaceCall, leadId: string, notice: string) =>
  call.redirect(workspacePath(call.workspace.workspaceId, `leads/${leadId}`), notice);

/** Export CSV and Export Excel: the inbox's filtered set as a download named after the pipeline and the day. */
async function exportLeadsFile(call: WorkspaceCall, format: 'csv' | 'xlsx') {
  const pipeline = await findPipeline({ ctx: call.ctx, input: { ref: call.params.pipelineId ?? '' } });
  const input = filtersOf(call, pipeline.id, inboxQuery(call));
  const body =
    format === 'xlsx'
      ? await exportLeadsXlsx({ ctx: call.ctx, input })
      : await exportLeadsCsv({ ctx: call.ctx, input });
  const day = call.ctx.clock.now().toISOString().slice(0, 10);
  const slug =
    pipeline.name
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-|-$/g, '') || 'pipeline';
  const contentType = format === 'xlsx' ? XLSX_CONTENT_TYPE : 'text/csv; charset=utf-8';
  return sendAttachment(call.reply, { contentType, filename: `leads-${slug}-${day}.${format}`, body });
}

/**
 * Leads (docs/admin-app.md): each pipeline's inbox, a lead's page, Move to, assign, follow-up, notes, Delete, Export
 * CSV and Excel.
 */
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
      handler: (call) => exportLeadsFile(call, 'csv'),
    },
    {
      // The same as an Excel file, every cell typed.
      method: 'GET',
      path: '/w/:workspaceId/pipelines/:pipelineId/leads.xlsx',
      access: 'member',
      handler: (call) => exportLeadsFile(call, 'xlsx'),
    },
    {
      method: 'GET',
      path: '/w/:workspaceId/leads/:leadId',
      access: 'member',
      handler: (call) => renderLead(call, 200, {}),
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/leads/:leadId/notes',
      access: 'member',
      handler: async (call) => {
        const { leadId } = await addNote({
          ctx: call.ctx,
          input: {
            leadId: call.params.leadId ?? '',
            text: call.body.text ?? '',
            by: actorOf(call),
          },
        });
        return toLead(call, leadId, 'note-added');
      },
      form: leadForm('text', (call) => ({ text: call.body.text ?? '' })),
    },
    {
      // Owners delete any note, members their own (the verb checks).
      method: 'POST',
      path: '/w/:workspaceId/leads/:leadId/notes/:noteId/delete',
      access: 'member',
      handler: async (call) => {
        const workspaceId = call.workspace.workspaceId;
        const { leadId } = await deleteNote({
          ctx: call.ctx,
          input: {
            leadId: call.params.leadId ?? '',
            noteId: call.params.noteId ?? '',
            userId: call.user.userId,
            role: call.workspace.role,
          },
        });
        return call.redirect(workspacePath(workspaceId, `leads/${leadId}`), 'note-deleted');
      },
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/leads/:leadId/assign',
      access: 'member',
      handler: async (call) => {
        const userId = (call.body.assignee ?? '').trim();
        const { leadId } = await assignLead({
          ctx: call.ctx,
          input: {
            leadId: call.params.leadId ?? '',
            assignee: userId ? { userId } : null,
            by: actorOf(call),
          },
        });
        return toLead(call, leadId, 'lead-assigned');
      },
      form: leadForm('text', () => ({})),
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/leads/:leadId/follow-up',
      access: 'member',
      handler: async (call) => {
        const day = call.body.clear === '1' || !(call.body.followUp ?? '').trim() ? null : (call.body.followUp ?? '');
        const { leadId } = await setFollowUp({
          ctx: call.ctx,
          input: { leadId: call.params.leadId ?? '', day, by: actorOf(call) },
        });
        return toLead(call, leadId, 'follow-up-saved');
      },
      form: leadForm('followUp', (call) => ({ followUp: call.body.followUp ?? '' })),
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/leads/:leadId/move',
      access: 'member',
      handler: async (call) => {
        const workspaceId = call.workspace.workspaceId;
        const { id } = await moveLead({
          ctx: call.ctx,
          input: { id: call.params.leadId ?? '', stage: call.body.stage ?? '', by: actorOf(call) },
        });
        return call.redirect(workspacePath(workspaceId, `leads/${id}`), 'lead-moved');
      },
    },
    {
      // Owners and members: spam is everyone's to move out of the inbox; Restore on Quarantine undoes it.
      method: 'POST',
      path: '/w/:workspaceId/leads/:leadId/spam',
      access: 'member',
      handler: async (call) => {
        const workspaceId = call.workspace.workspaceId;
        await markAsSpam({ ctx: call.ctx, input: { id: call.params.leadId ?? '', by: actorOf(call) } });
        return call.redirect(workspacePath(workspaceId, 'quarantine'), 'marked-spam');
      },
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/leads/:leadId/delete',
      access: 'owner',
      handler: async (call) => {
        const workspaceId = call.workspace.workspaceId;
        const lead = await openLead({
          ctx: call.ctx,
          input: { id: call.params.leadId ?? '', markOpened: false },
        });
        await deleteLead({ ctx: call.ctx, input: { id: lead.id } });
        return call.redirect(workspacePath(workspaceId, `pipelines/${lead.pipelineId}/leads`), 'lead-deleted');
      },
    },
  ],
};
