import { AUDIT_ACTIONS } from '../../../domain/audit/audit-actions.js';
import { listAudit, type AuditPage, type AuditRecordView } from '../../../domain/audit/list-audit.js';
import { auditTargetNames, type TargetNames } from '../../../domain/audit/target-names.js';
import { listMembers, type MemberView } from '../../../domain/members/list-members.js';
import { getWorkspaceSettings } from '../../../domain/settings/workspace-settings.js';
import { zonedTimeFormatter } from '../../../domain/zoned-time.js';
import { html, type SafeHtml } from '../../html.js';
import { AUDIT_ACTION_LABELS, detailsText, idKind } from './audit-labels.js';
import type { AdminArea, WorkspaceCall } from '../admin-route.js';
import { workspacePath } from '../admin-route.js';
import { cursorPager } from '../pagers.js';

/** Records on one page of the Audit log. */
export const AUDIT_PER_PAGE = 50;

const FILTERS = ['person', 'action', 'from', 'to'] as const;
type Query = Partial<Record<(typeof FILTERS)[number] | 'after', string>>;

function queryString(query: Query, extra: Query = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...query, ...extra })) if (value) params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

function select(name: string, label: string, current: string | undefined, options: Array<[string, string]>): SafeHtml {
  return html`<div class="field"><label for="f-${name}">${label}</label><select id="f-${name}" name="${name}">
<option value="">Any</option>${options.map(
    ([value, text]) => html`<option value="${value}"${value === current ? html` selected` : ''}>${text}</option>`,
  )}
</select></div>`;
}

/** "Ana (owner)", "CLI: deploy", "System": who acted, as the screen says it. */
function actorText(record: AuditRecordView): string {
  if (record.actor.kind === 'user') return record.actor.label;
  if (record.actor.kind === 'cli') return `CLI (${record.actor.label})`;
  return 'System';
}

/**
 * An id of the "On" column: what it names now (auditTargetNames, read for the whole page), linked where that thing
 * has a page; "deleted lead" (no link) when it is gone; kind and id's end for ids without a name. The whole id in
 * the title.
 */
function target(workspaceId: string, id: string, names: TargetNames): SafeHtml {
  const kind = idKind(id);
  const page = id.startsWith('lead_')
    ? `leads/${id}`
    : id.startsWith('src_')
      ? `sources/${id}`
      : id.startsWith('scan_')
        ? `scans/${id}`
        : id.startsWith('pl_')
          ? `pipelines/${id}/leads`
          : id === workspaceId
            ? 'settings'
            : null;
  const name = names.get(id);
  if (name === null) return html`<span class="muted" title="${id}">deleted ${kind.toLowerCase()}</span>`;
  const text = name === undefined ? `${kind} …${id.slice(-6)}` : name;
  const label = name === undefined ? '' : html`<span class="offscreen">${kind}: </span>`;
  return page
    ? html`<a href="${workspacePath(workspaceId, page)}" title="${id}">${label}${text}</a>`
    : html`<span title="${id}">${label}${text}</span>`;
}

function auditPage(
  call: WorkspaceCall,
  input: { page: AuditPage; names: TargetNames; members: MemberView[]; timeZone: string; query: Query; error?: string },
): SafeHtml {
  const here = workspacePath(call.workspace.workspaceId, 'audit');
  const { query } = input;
  const time = zonedTimeFormatter(input.timeZone);
  const filtered = FILTERS.some((key) => query[key]);
  return html`<div class="page-head"><div><h1>Audit log</h1>
  <p class="muted">Who did what in ${call.workspace.workspaceName}, newest first, kept 365 days.
  Times in ${input.timeZone.replaceAll('_', ' ')}.</p></div></div>
<section class="card" aria-labelledby="filter-heading">
<h2 id="filter-heading" class="offscreen">Filters</h2>
<form method="get" action="${here}" class="filters" role="search">
${select(
  'person',
  'Person',
  query.person,
  input.members.map((m) => [m.userId, m.displayName]),
)}
${select(
  'action',
  'Action',
  query.action,
  AUDIT_ACTIONS.map((a) => [a, AUDIT_ACTION_LABELS[a]]),
)}
<div class="field"><label for="f-from">From</label><input type="date" id="f-from" name="from"
  value="${query.from ?? ''}"></div>
<div class="field"><label for="f-to">To</label><input type="date" id="f-to" name="to" value="${query.to ?? ''}"></div>
<div class="actions"><button type="submit">Apply</button>${filtered ? html`<a href="${here}">Clear</a>` : ''}</div>
</form>
${input.error ? html`<p class="field-error" role="alert">${input.error}</p>` : ''}
</section>
<section class="card table-card" aria-labelledby="list-heading">
<h2 id="list-heading" class="offscreen">Records</h2>
${
  input.page.records.length === 0
    ? html`<p class="empty">${
        filtered ? 'No records match these filters.' : query.after ? 'No older records.' : 'Nothing recorded yet.'
      }</p>`
    : html`<table class="list audit" id="audit">
<thead><tr><th scope="col">When</th><th scope="col">Who</th><th scope="col">Action</th><th scope="col">On</th>
<th scope="col">Details</th></tr></thead>
<tbody>${input.page.records.map(
        (r) => html`<tr>
<td class="num" data-label="When"><time datetime="${r.at}">${time(r.at)}</time></td>
<td data-label="Who">${actorText(r)}</td>
<td data-label="Action" data-action="${r.action}">${AUDIT_ACTION_LABELS[r.action]}</td>
<td data-label="On" class="ids">${
          r.targetIds.length
            ? r.targetIds.map((id) => html`${target(call.workspace.workspaceId, id, input.names)} `)
            : html`<span class="muted">—</span>`
        }</td>
<td data-label="Details">${detailsText(r.details) || html`<span class="muted">—</span>`}</td>
</tr>`,
      )}</tbody>
</table>`
}
${cursorPager({
  base: `${here}${queryString({ ...query, after: undefined })}`,
  param: 'after',
  cursor: query.after,
  next: input.page.next,
})}
</section>`;
}

/** The filters as typed (trimmed), and the cursor of the page. */
function queryOf(call: WorkspaceCall): Query {
  const query: Query = {};
  for (const key of [...FILTERS, 'after'] as const) if (call.query[key]?.trim()) query[key] = call.query[key]!.trim();
  return query;
}

/** The screen with a page of records, or with none and why the filters were refused. */
async function auditScreen(call: WorkspaceCall, status: number, page: AuditPage, error?: string) {
  const workspaceId = call.workspace.workspaceId;
  const [members, settings] = await Promise.all([
    listMembers({ ctx: call.ctx, input: {} }),
    getWorkspaceSettings({ ctx: call.ctx, input: { workspaceId } }),
  ]);
  // Every target's current name in one read per kind of id, for the whole page.
  const names = await auditTargetNames({
    ctx: call.ctx,
    input: { ids: page.records.flatMap((r) => r.targetIds) },
  });
  return call.render(status, {
    title: 'Audit log',
    area: 'audit',
    body: auditPage(call, {
      page,
      names,
      members,
      timeZone: settings.timeZone,
      query: queryOf(call),
      ...(error ? { error } : {}),
    }),
  });
}

/** Audit log (owners; docs/admin-app.md): the workspace's records with person, action and date filters. */
export const auditArea: AdminArea = {
  nav: { area: 'audit', label: 'Audit log', path: 'audit', access: 'owner' },
  routes: [
    {
      method: 'GET',
      path: '/w/:workspaceId/audit',
      access: 'owner',
      handler: async (call) => {
        const query = queryOf(call);
        const input = {
          workspaceId: call.workspace.workspaceId,
          limit: AUDIT_PER_PAGE,
          ...(query.person ? { actorUserId: query.person } : {}),
          ...(query.action ? { action: query.action } : {}),
          ...(query.from ? { since: query.from } : {}),
          ...(query.to ? { until: query.to } : {}),
          ...(query.after ? { after: query.after } : {}),
        };
        return auditScreen(call, 200, await listAudit({ ctx: call.ctx, input }));
      },
      // Refused filters (a date that is no date, an unknown cursor): the screen with no records and the reason.
      form: {
        field: 'from',
        only: ['invalid_fields', 'invalid_arguments'],
        rerender: async (call, { status, error }) =>
          auditScreen(call, status, { records: [], next: null }, error.fieldErrors?.[0]?.message ?? error.detail),
      },
    },
  ],
};
