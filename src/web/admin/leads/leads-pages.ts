import type { PipelineUnread } from '../../../domain/leads/unread-counts.js';
import type { InboxLead, LeadPage } from '../../../domain/leads/list-leads.js';
import type { LeadDetail } from '../../../domain/leads/open-lead.js';
import type { SourceOption } from '../../../domain/leads/inbox-options.js';
import { leadName } from '../../../domain/leads/lead-view.js';
import type { Stage } from '../../../domain/stages/stage.js';
import { html, type SafeHtml } from '../../html.js';
import { MARKETING_PARAMS } from '../../../domain/marketing-source.js';
import type { LeadScan } from '../../../domain/scans/scans-of-lead.js';
import type { Units } from '../../../domain/settings/workspace-settings.js';
import { areaText } from '../scans/scan-area-text.js';
import type { WorkspaceCall } from '../admin-route.js';
import { workspacePath } from '../admin-route.js';
import { actionButton, csrfField } from '../form-controls.js';
import { when } from '../formats.js';
import { cursorPager } from '../pagers.js';
import { leadsNotice } from './leads-notices.js';
import { historyList, leadWorkCard, notesCard, type LeadWorkInput } from './lead-work-pages.js';

/** The filters as they live in the URL (docs/admin-app.md: they combine, and a reload or a shared link keeps them). */
export interface InboxQuery {
  q?: string;
  stage?: string;
  source?: string;
  bot?: string;
  /** A marketing source (`utm_source`), exactly as stored. */
  utm?: string;
  from?: string;
  to?: string;
  /** `me` (Assigned to me) or `none` (Unassigned). */
  assigned?: string;
  /** `1`: Follow-up due. */
  due?: string;
  /** `1`: Possible duplicates only. */
  dup?: string;
  cursor?: string;
}

export const FILTER_KEYS = ['q', 'stage', 'source', 'utm', 'bot', 'from', 'to', 'assigned', 'due', 'dup'] as const;

export const ASSIGNED_LABELS: Record<string, string> = { me: 'Assigned to me', none: 'Unassigned' };

export function queryString(query: InboxQuery, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const key of FILTER_KEYS) {
    const value = query[key]?.trim();
    if (value) params.set(key, value);
  }
  for (const [key, value] of Object.entries(extra)) params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

const BOT_LABELS: Record<string, string> = { off: 'Off', passed: 'Passed', unverified: 'Unverified' };

function botBadge(state: string): SafeHtml {
  const kind = state === 'passed' ? ' on' : state === 'unverified' ? ' off' : '';
  return html`<span class="badge${kind}">${BOT_LABELS[state] ?? state}</span>`;
}

export function pipelineTabs(workspaceId: string, counts: PipelineUnread[], currentId: string): SafeHtml {
  return html`<nav aria-label="Pipelines"><ul class="tabs">${counts.map(
    (p) =>
      html`<li><a href="${workspacePath(workspaceId, `pipelines/${p.pipelineId}/leads`)}"${
        p.pipelineId === currentId ? html` aria-current="page"` : ''
      }>${p.name}${
        p.unread > 0 ? html` <span class="count" aria-label="${p.unread} new">${p.unread}</span>` : ''
      }</a></li>`,
  )}</ul></nav>`;
}

function select(name: string, label: string, current: string | undefined, options: Array<[string, string]>): SafeHtml {
  return html`<div class="field"><label for="f-${name}">${label}</label><select id="f-${name}" name="${name}">
<option value="">Any</option>${options.map(
    ([value, text]) => html`<option value="${value}"${value === current ? html` selected` : ''}>${text}</option>`,
  )}
</select></div>`;
}

export interface InboxInput {
  pipelineId: string;
  pipelineName: string;
  counts: PipelineUnread[];
  stages: Stage[];
  sources: SourceOption[];
  query: InboxQuery;
  page: LeadPage;
}

/** The first non-blank line of a lead's message, capped (the row shows one line; CSS ends it with an ellipsis). */
export function messagePreview(notes: string | null): string {
  const line =
    (notes ?? '')
      .split(/\r\n|\r|\n/)
      .map((l) => l.trim())
      .find((l) => l !== '') ?? '';
  const points = [...line];
  return points.length > 160 ? `${points.slice(0, 160).join('')}…` : line;
}

/** The bot check as a small mark beside the name; nothing when the source has no bot check (the usual case). */
function botMark(state: string): SafeHtml | string {
  if (state === 'passed')
    return html`<span class="mark ok" title="Bot check passed"><span aria-hidden="true">✓</span> Verified</span>`;
  if (state === 'unverified') {
    return html`<span class="mark warn"
      title="The bot check could not be completed (its provider did not answer); the lead was kept">Unverified</span>`;
  }
  return '';
}

function leadRow(base: string, lead: InboxLead): SafeHtml {
  const name = lead.name ?? lead.email ?? lead.phone ?? '(no name)';
  const preview = messagePreview(lead.notes);
  return html`<tr${lead.isNew ? html` class="is-new"` : ''}>
<td data-label="Name" class="lead-cell"><a href="${base}/leads/${lead.id}">${name}</a>${
    lead.isNew ? html` <span class="badge new">New</span>` : ''
  } ${botMark(lead.botCheck)}${
    lead.possibleDuplicate
      ? html` <span class="mark warn duplicate"
        title="An earlier lead has the same email or phone">Possible duplicate</span>`
      : ''
  }${preview ? html`<span class="preview">${preview}</span>` : ''}</td>
<td data-label="Email">${lead.email ?? ''}</td>
<td data-label="Phone" class="num">${lead.phone ?? ''}</td>
<td data-label="Source" class="meta">${lead.sourceName}</td>
<td data-label="Stage" class="meta">${lead.stageName}</td>
<td data-label="Received" class="num meta">${when(lead.receivedAt)}</td>
</tr>`;
}

/**
 * A pipeline's Leads inbox (docs/admin-app.md): newest first, 50 a page, new markers, search and filters in the URL.
 */
export function inboxPage(call: WorkspaceCall, input: InboxInput): SafeHtml {
  const workspace = call.workspace;
  const ws = workspacePath(workspace.workspaceId);
  const here = `${ws}/pipelines/${input.pipelineId}/leads`;
  const { query } = input;
  const search = queryString(query);
  const exportLink = (kind: 'csv' | 'xlsx', label: string) =>
    html`<a class="button secondary" id="export-${kind}" href="${here}.${kind}${search}" download>${label}</a>`;
  const filtered = FILTER_KEYS.some((key) => query[key]?.trim());
  // Every filter but the search folds behind Filters on a phone, open when one is set (so it shows what narrows the
  // list).
  const set = FILTER_KEYS.filter((key) => key !== 'q' && query[key]?.trim()).length;
  const sources = input.sources.filter((s) => s.pipelineId === input.pipelineId);
  return html`<div class="page-head"><div><h1>Leads inbox</h1>
  <p class="muted">${input.pipelineName}: newest first. Leads nobody has opened yet
  are marked <span class="badge new">New</span>.</p></div>
<div class="actions">${exportLink('csv', 'Export CSV')}${exportLink('xlsx', 'Export Excel')}${
    workspace.role === 'owner'
      ? html`<a class="button secondary"
        href="${ws}/pipelines/${input.pipelineId}/stages">Stages</a><a class="button secondary"
          href="${ws}/people">Personal data</a>`
      : ''
  }</div></div>
${leadsNotice(call.query.notice)}
${pipelineTabs(workspace.workspaceId, input.counts, input.pipelineId)}
<section class="card" aria-labelledby="filter-heading">
<h2 id="filter-heading" class="offscreen">Search and filters</h2>
<form method="get" action="${here}" class="filters" role="search">
<div class="field wide"><label for="f-q">Search</label><input type="search" id="f-q" name="q" value="${query.q ?? ''}"
  placeholder="Name, email, phone, notes or answers" maxlength="200"></div>
<details class="filter-fold unfold"${set > 0 ? html` open` : ''}><summary>Filters${
    set > 0 ? html` <span class="count" aria-label="${set} set">${set}</span>` : ''
  }</summary>
<div class="filter-fields">
${select(
  'stage',
  'Stage',
  query.stage,
  input.stages.map((s) => [s.key, s.name]),
)}
${select(
  'source',
  'Source',
  query.source,
  sources.map((s) => [s.id, s.name]),
)}
<div class="field"><label for="f-utm">Campaign source</label><input type="text" id="f-utm" name="utm"
  value="${query.utm ?? ''}" placeholder="utm_source, e.g. google" maxlength="200"></div>
${select('bot', 'Bot check', query.bot, Object.entries(BOT_LABELS))}
${select('assigned', 'Assigned', query.assigned, Object.entries(ASSIGNED_LABELS))}
<div class="field"><label for="f-from">Received from</label><input type="date" id="f-from" name="from"
  value="${query.from ?? ''}"></div>
<div class="field"><label for="f-to">Received to</label><input type="date" id="f-to" name="to"
  value="${query.to ?? ''}"></div>
<div class="field check"><input type="checkbox" id="f-due" name="due" value="1"${
    query.due === '1' ? html` checked` : ''
  }><label for="f-due">Follow-up due</label></div>
<div class="field check"><input type="checkbox" id="f-dup" name="dup" value="1"${
    query.dup === '1' ? html` checked` : ''
  }><label for="f-dup">Possible duplicates</label></div>
</div>
</details>
<div class="actions"><button type="submit">Apply</button>${filtered ? html`<a href="${here}">Clear</a>` : ''}</div>
</form>
</section>
<section class="card table-card" aria-labelledby="list-heading">
<h2 id="list-heading" class="offscreen">Leads</h2>
${
  input.page.leads.length === 0
    ? html`<p class="empty">${
        filtered
          ? 'No leads match these filters.'
          : query.cursor
            ? 'No older leads.'
            : 'No leads yet. Leads posted to this pipeline’s sources arrive here.'
      }</p>`
    : html`<table class="list leads" id="leads">
<thead><tr><th scope="col">Name</th><th scope="col">Email</th><th scope="col">Phone</th><th scope="col">Source</th>
<th scope="col">Stage</th><th scope="col">Received</th></tr></thead>
<tbody>${input.page.leads.map((lead) => leadRow(ws, lead))}</tbody>
</table>`
}
${cursorPager({
  base: `${here}${queryString(query)}`,
  param: 'cursor',
  cursor: query.cursor,
  next: input.page.nextCursor,
})}
</section>`;
}

/** The Leads screen of a workspace that has no pipeline yet (one made with `workspace create`). */
export function noPipelinePage(call: WorkspaceCall): SafeHtml {
  return html`<div class="page-head"><div><h1>Leads inbox</h1></div></div>
<section class="card"><p>This workspace has no pipeline yet, so no leads can arrive. Make one with
<code>${call.ctx.config.cliCommand} pipeline create --workspace ${call.workspace.workspaceId} --name Sales</code>, then
add a source on the Sources screen.</p></section>`;
}

/** Possible duplicate: links to the earlier leads with the same email or phone (nothing is merged). */
function duplicateCard(ws: string, lead: LeadDetail): SafeHtml | string {
  if (lead.earlier.length === 0) return '';
  return html`<section class="card duplicate-card" aria-labelledby="duplicate-heading" id="possible-duplicate">
<h2 id="duplicate-heading">Possible duplicate</h2>
<p class="muted small">Earlier leads of this workspace in the 365 days before this one have the same ${
    lead.earlier.some((e) => e.matchedBy.includes('email')) && lead.earlier.some((e) => e.matchedBy.includes('phone'))
      ? 'email or phone'
      : lead.earlier[0]!.matchedBy[0]
  }. Nothing was merged.</p>
<ul class="plain">${lead.earlier.map(
    (e) =>
      html`<li><a href="${ws}/leads/${e.id}">${e.name ?? 'Lead'}</a> <span class="muted small">${when(e.receivedAt)} ·
      same ${e.matchedBy.join(' and ')}</span></li>`,
  )}</ul>
</section>`;
}

function fact(label: string, value: SafeHtml | string | null | undefined): SafeHtml {
  return html`<dt>${label}</dt><dd>${
    value === null || value === undefined || value === '' ? html`<span class="muted">—</span>` : value
  }</dd>`;
}

/** The marketing parameters the lead's page address had, under their own names; nothing when it had none. */
function marketingFacts(ws: string, lead: LeadDetail): SafeHtml[] {
  return MARKETING_PARAMS.flatMap((name) => {
    const value = lead.marketing[name];
    if (value === null) return [];
    // The source links to this pipeline's leads from the same source (the inbox's Campaign source filter).
    const shown =
      name === 'utm_source'
        ? html`<a href="${ws}/pipelines/${lead.pipelineId}/leads${queryString({ utm: value })}"
          id="lead-utm-source">${value}</a>`
        : value;
    return [fact(name, shown)];
  });
}

/**
 * A lead's page: every field, where it came from, its history, Move to, assignee, follow-up, notes, and Delete for
 * owners.
 */
export function leadPage(
  call: WorkspaceCall,
  lead: LeadDetail,
  attached: { scans: LeadScan[]; units: Units; quotes?: SafeHtml },
  work: LeadWorkInput,
): SafeHtml {
  const workspace = call.workspace;
  const ws = workspacePath(workspace.workspaceId);
  const base = `${ws}/leads/${lead.id}`;
  const extra = Object.entries(lead.extra);
  return html`<p class="small"><a href="${ws}/pipelines/${lead.pipelineId}/leads">← ${lead.pipelineName}</a></p>
<div class="page-head"><div><h1>${leadName(
    lead,
  )}</h1><p class="muted small">In <strong id="current-stage">${lead.stageName}</strong> ·
  received ${when(lead.receivedAt)}</p></div>
<div class="actions">${actionButton({
    action: `${base}/spam`,
    csrf: call.csrf,
    label: 'Mark as spam',
    kind: 'secondary',
    confirm: 'Move this lead to Quarantine as spam? Restore there brings it back.',
  })}${
    workspace.role === 'owner'
      ? html`${
          lead.email || lead.phone
            ? actionButton({
                action: `${ws}/people`,
                csrf: call.csrf,
                label: 'Personal data',
                fields: lead.email ? { email: lead.email } : { phone: lead.phone! },
              })
            : ''
        }${actionButton({
          action: `${base}/delete`,
          csrf: call.csrf,
          label: 'Delete',
          kind: 'danger',
          confirm: 'Delete this lead for good? This cannot be undone.',
        })}`
      : ''
  }</div></div>
${leadsNotice(call.query.notice)}
${duplicateCard(ws, lead)}
<div class="grid-2">
<section class="card" aria-labelledby="contact-heading">
<h2 id="contact-heading">Contact</h2>
<dl class="facts" id="lead-fields">
${fact('Name', lead.name)}
${fact('Email', lead.email ? html`<a href="mailto:${lead.email}">${lead.email}</a>` : null)}
${fact('Phone', lead.phone ? html`<a href="tel:${lead.phone}">${lead.phone}</a>` : null)}
${fact('Address', lead.address)}
${fact('Notes', lead.notes)}
${extra.map(([key, value]) => fact(key, value))}
</dl>
</section>
<section class="card" aria-labelledby="stage-heading">
<h2 id="stage-heading">Stage</h2>
<form method="post" action="${base}/move" class="stage-row">${csrfField(call.csrf)}
<label for="f-stage">Move to</label>
<select id="f-stage" name="stage">${lead.stages.map(
    (s) => html`<option value="${s.key}"${s.key === lead.stage ? html` selected` : ''}>${s.name}</option>`,
  )}</select>
<button type="submit">Move</button>
</form>
<h3>History</h3>
${historyList(lead)}
</section>
</div>
<div class="grid-2">
${leadWorkCard(call, lead, work)}
${notesCard(call, lead, work)}
</div>
${attached.quotes ?? ''}
<section class="card" aria-labelledby="lead-scans-heading">
<h2 id="lead-scans-heading">Scans</h2>
${
  attached.scans.length === 0
    ? html`<p class="muted small" id="lead-scans">No scan is attached. Attach one from its page
    on the Scans screen.</p>`
    : html`<ul class="plain" id="lead-scans">${attached.scans.map(
        (scan) =>
          html`<li><a href="${ws}/scans/${scan.id}">Scan
          of ${when(scan.receivedAt)}</a> <span class="muted small">${scan.roomCount} ${
            scan.roomCount === 1 ? 'room' : 'rooms'
          } · ${areaText(scan.floorArea, attached.units)}</span></li>`,
      )}</ul>`
}
</section>
<section class="card" aria-labelledby="origin-heading">
<h2 id="origin-heading">Where it came from</h2>
<dl class="facts">
${fact('Source', lead.sourceName)}
${fact('Pipeline', lead.pipelineName)}
${fact('Received', when(lead.receivedAt))}
${fact('Bot check', botBadge(lead.botCheck))}
${fact('IP address', lead.clientIp)}
${fact('User agent', lead.userAgent)}
${fact(
  'Page',
  lead.pageUrl
    ? html`<a href="${lead.pageUrl}" rel="noopener noreferrer nofollow" target="_blank"
      id="lead-page-url">${lead.pageUrl}</a>`
    : null,
)}
${marketingFacts(ws, lead)}
${fact('Origin', lead.origin)}
${fact('Referer', lead.referer)}
${lead.restoredFrom ? fact('Restored from quarantine', lead.restoredFrom) : ''}
${fact('Lead id', html`<code>${lead.id}</code>`)}
</dl>
</section>`;
}
