import { isAppError } from '../../../domain/errors.js';
import { sourceNames } from '../../../domain/leads/source-names.js';
import { deleteQuarantined } from '../../../domain/quarantine/delete-quarantined.js';
import { listQuarantine, type QuarantineView } from '../../../domain/quarantine/list-quarantine.js';
import { restoreQuarantined } from '../../../domain/quarantine/restore-quarantined.js';
import { restoredLeadOf } from '../../../domain/quarantine/restored-lead-of.js';
import { html, type SafeHtml } from '../../html.js';
import { leadsNotice } from '../leads/leads-notices.js';
import type { AdminArea, WorkspaceCall } from '../admin-route.js';
import { workspacePath } from '../admin-route.js';
import { actionButton } from '../form-controls.js';
import { when } from '../formats.js';
import { numberedPager, pageNumber } from '../pagers.js';

/** Every reason a submission is in Quarantine (docs/api.md), as a person reads it; `detail` adds what caught it. */
const REASONS: Record<string, (detail: string | null) => string> = {
  honeypot: () => 'Hidden trap field filled (honeypot)',
  too_fast: () => 'Sent less than 2 seconds after the form was shown, or with a missing/forged form stamp',
  blocked_rule: (detail) => `Matched a blocked rule of its source${detail ? `: ${detail}` : ''}`,
  site_not_allowed: (detail) => `Sent from a site not in its source's allowed sites${detail ? `: ${detail}` : ''}`,
  marked_spam: (detail) => `Marked as spam${detail ? ` by ${detail}` : ''}`,
};

export function reasonText(reason: string, detail: string | null): string {
  return REASONS[reason]?.(detail) ?? reason;
}

/** Submissions on one page of Quarantine, newest first (a source keeps up to 10,000 for 30 days). */
export const QUARANTINE_PER_PAGE = 50;

function quarantinePage(
  call: WorkspaceCall,
  input: { items: QuarantineView[]; names: Map<string, string>; page: number; hasOlder: boolean },
): SafeHtml {
  const { items, names } = input;
  const ws = workspacePath(call.workspace.workspaceId);
  const isOwner = call.workspace.role === 'owner';
  return html`<div class="page-head"><div><h1>Quarantine</h1>
  <p class="muted">Submissions caught by the hidden trap field, the form's timing or a source's
  spam rules, and leads marked as spam; kept 30 days. A real person is sometimes caught (browser autofill, a rule too
  wide): <strong>Restore</strong> makes the submission a lead with its original time, and brings a lead marked as spam
  back as it was.</p></div></div>
${leadsNotice(call.query.notice)}
${
  items.length === 0
    ? html`<section class="card"><p class="empty">${
        input.page > 1 ? 'No older submissions.' : 'Nothing in quarantine.'
      }</p></section>`
    : items.map(
        (item) => html`<section class="card quarantine-item" aria-label="Caught ${item.receivedAt}">
<div class="page-head"><div><h2>${
          item.fields.name ?? item.fields.email ?? item.fields.phone ?? 'Submission'
        }</h2><p class="muted small">${when(item.receivedAt)} · ${
          names.get(item.sourceId) ?? item.sourceId
        } · <span class="reason">${reasonText(item.reason, item.detail)}</span></p></div>
<div class="actions">${
          item.restoredLeadId
            ? html`<a class="button secondary" href="${ws}/leads/${item.restoredLeadId}">Restored: open the lead</a>`
            : actionButton({
                action: `${ws}/quarantine/${item.id}/restore`,
                csrf: call.csrf,
                label: 'Restore',
                kind: 'primary',
              })
        }${
          isOwner
            ? actionButton({
                action: `${ws}/quarantine/${item.id}/delete`,
                csrf: call.csrf,
                label: 'Delete',
                kind: 'danger',
                confirm: 'Delete this submission for good?',
                // Back to the page the owner was on, not the first.
                fields: input.page > 1 ? { page: String(input.page) } : {},
              })
            : ''
        }</div></div>
<dl class="facts">${Object.entries(item.fields).map(([key, value]) => html`<dt>${key}</dt><dd>${value}</dd>`)}</dl>
</section>`,
      )
}
${numberedPager({ base: `${ws}/quarantine`, page: input.page, hasOlder: input.hasOlder })}`;
}

/**
 * Quarantine (docs/admin-app.md): caught submissions and leads marked as spam, with reason and fields, Restore and
 * Delete.
 */
export const quarantineArea: AdminArea = {
  nav: { area: 'quarantine', label: 'Quarantine', path: 'quarantine', access: 'member' },
  routes: [
    {
      method: 'GET',
      path: '/w/:workspaceId/quarantine',
      access: 'member',
      handler: async (call) => {
        const page = pageNumber(call.query.page);
        const [items, names] = await Promise.all([
          // One more than a page tells whether an older page exists.
          listQuarantine({
            ctx: call.ctx,
            input: { limit: QUARANTINE_PER_PAGE + 1, offset: (page - 1) * QUARANTINE_PER_PAGE },
          }),
          sourceNames({ ctx: call.ctx, input: {} }),
        ]);
        const body = quarantinePage(call, {
          items: items.slice(0, QUARANTINE_PER_PAGE),
          names,
          page,
          hasOlder: items.length > QUARANTINE_PER_PAGE,
        });
        return call.render(200, { title: 'Quarantine', area: 'quarantine', body });
      },
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/quarantine/:itemId/restore',
      access: 'member',
      handler: async (call) => {
        const workspaceId = call.workspace.workspaceId;
        const id = call.params.itemId ?? '';
        try {
          const { leadId } = await restoreQuarantined({ ctx: call.ctx, input: { id } });
          return await call.redirect(workspacePath(workspaceId, `leads/${leadId}`), 'restored');
        } catch (error) {
          // A double click: the first press made the lead; the second lands on that same lead.
          if (!isAppError(error) || error.code !== 'already_restored') throw error;
          const leadId = await restoredLeadOf({ ctx: call.ctx, input: { id } });
          if (!leadId) throw error;
          return call.redirect(workspacePath(workspaceId, `leads/${leadId}`), 'already-restored');
        }
      },
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/quarantine/:itemId/delete',
      access: 'owner',
      handler: async (call) => {
        const workspaceId = call.workspace.workspaceId;
        await deleteQuarantined({ ctx: call.ctx, input: { id: call.params.itemId ?? '' } });
        const page = pageNumber(call.body.page);
        return call.redirect(
          workspacePath(workspaceId, page > 1 ? `quarantine?page=${page}` : 'quarantine'),
          'quarantine-deleted',
        );
      },
    },
  ],
};
