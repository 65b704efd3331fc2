import type { LeadDetail } from '../../../domain/leads/open-lead.js';
import type { LeadNote } from '../../../domain/leads/lead-work.js';
import { NOTE_MAX } from '../../../domain/leads/lead-work.js';
import type { MemberView } from '../../../domain/members/list-members.js';
import { html, type SafeHtml } from '../../html.js';
import type { WorkspaceCall } from '../admin-route.js';
import { workspacePath } from '../admin-route.js';
import { actionButton, csrfField, type FormErrors } from '../form-controls.js';
import { when } from '../formats.js';

/** What the lead page's work forms need besides the lead: the members to assign to, today, a refused form's state. */
export interface LeadWorkInput {
  members: MemberView[];
  /** Today in the workspace's time zone, `YYYY-MM-DD` (a follow-up on or before it is due). */
  today: string;
  errors?: FormErrors;
  /** What a refused form held, shown again so nothing typed is lost. */
  values?: { text?: string; followUp?: string };
}

function fieldError(errors: FormErrors | undefined, name: string): SafeHtml | string {
  const error = errors?.[name];
  return error ? html`<p class="field-error" id="f-${name}-error">${error}</p>` : '';
}

function invalid(errors: FormErrors | undefined, name: string): SafeHtml | string {
  return errors?.[name] ? html` aria-invalid="true" aria-describedby="f-${name}-error"` : '';
}

/** Assigned to and Follow-up: each its own small form, working without scripts. */
export function leadWorkCard(call: WorkspaceCall, lead: LeadDetail, input: LeadWorkInput): SafeHtml {
  const base = `${workspacePath(call.workspace.workspaceId)}/leads/${lead.id}`;
  const due = lead.followUpOn !== null && lead.followUpOn <= input.today;
  const followUp = input.values?.followUp ?? lead.followUpOn ?? '';
  return html`<section class="card" aria-labelledby="work-heading">
<h2 id="work-heading">Assignment and follow-up</h2>
<form method="post" action="${base}/assign" class="work-row">${csrfField(call.csrf)}
<label for="f-assignee">Assigned to</label>
<select id="f-assignee" name="assignee"><option value="">Nobody</option>${input.members.map(
    (m) =>
      html`<option value="${m.userId}"${
        m.userId === lead.assignee?.userId ? html` selected` : ''
      }>${m.displayName || m.email}${m.userId === call.user.userId ? ' (me)' : ''}</option>`,
  )}</select>
<button type="submit">Assign</button>
</form>
<p class="muted small" id="assignee">${
    lead.assignee
      ? html`Assigned to <strong>${lead.assignee.label}</strong> (${lead.assignee.email}).`
      : 'Nobody is assigned.'
  }</p>
<form method="post" action="${base}/follow-up" class="work-row">${csrfField(call.csrf)}
<label for="f-followUp">Follow up on</label>
<input type="date" id="f-followUp" name="followUp" value="${followUp}"${invalid(input.errors, 'followUp')}>
<button type="submit">Set date</button>${
    lead.followUpOn ? html`<button type="submit" name="clear" value="1" class="secondary">Clear</button>` : ''
  }
</form>
${fieldError(input.errors, 'followUp')}
<p class="muted small" id="follow-up">${
    lead.followUpOn
      ? html`Follow up on <strong>${lead.followUpOn}</strong>${due ? html` <span class="badge due">Due</span>` : ''}`
      : 'No follow-up date.'
  }</p>
</section>`;
}

function noteItem(call: WorkspaceCall, base: string, note: LeadNote): SafeHtml {
  const mayDelete =
    call.workspace.role === 'owner' || (note.authorUserId !== null && note.authorUserId === call.user.userId);
  return html`<li class="note"><p class="note-text">${note.text}</p>
<p class="muted small">${note.authorLabel} · ${when(note.createdAt)}${
    mayDelete
      ? html` ${actionButton({
          action: `${base}/notes/${note.id}/delete`,
          csrf: call.csrf,
          label: 'Delete',
          kind: 'danger',
          confirm: 'Delete this note?',
        })}`
      : ''
  }</p></li>`;
}

/** Internal notes, newest first, with the form to add one above them. */
export function notesCard(call: WorkspaceCall, lead: LeadDetail, input: LeadWorkInput): SafeHtml {
  const base = `${workspacePath(call.workspace.workspaceId)}/leads/${lead.id}`;
  return html`<section class="card" aria-labelledby="notes-heading">
<h2 id="notes-heading">Internal notes</h2>
<form method="post" action="${base}/notes">${csrfField(call.csrf)}
<div class="field"><label for="f-text">Add a note</label>
<textarea id="f-text" name="text" maxlength="${NOTE_MAX}"
  required${invalid(input.errors, 'text')}>${input.values?.text ?? ''}</textarea>
${fieldError(input.errors, 'text')}
<p class="hint">Seen by the workspace's members only, never by the lead.</p></div>
<button type="submit">Add note</button>
</form>
${
  lead.internalNotes.length === 0
    ? html`<p class="muted small" id="notes">No notes yet.</p>`
    : html`<ul class="plain notes" id="notes">${lead.internalNotes.map((note) => noteItem(call, base, note))}</ul>`
}
</section>`;
}

/** Stage moves, assignments and follow-up changes together, oldest first. */
export function historyList(lead: LeadDetail): SafeHtml {
  const entries: Array<{ at: string; text: SafeHtml }> = [
    ...lead.history.map((h) => ({
      at: h.movedAt,
      text: html`<strong>${h.fromName}</strong> → <strong>${h.toName}</strong> <span
        class="muted">by ${h.byLabel}</span>`,
    })),
    ...lead.events.map((e) => ({
      at: e.at,
      text:
        e.kind === 'assigned'
          ? html`${
              e.value === null ? 'Unassigned' : html`Assigned to <strong>${e.value}</strong>`
            } <span class="muted">by ${e.byLabel}</span>`
          : html`${
              e.value === null ? 'Follow-up date cleared' : html`Follow-up set to <strong>${e.value}</strong>`
            } <span class="muted">by ${e.byLabel}</span>`,
    })),
  ].sort((a, b) => a.at.localeCompare(b.at));
  return entries.length === 0
    ? html`<p class="muted small" id="history">Not moved yet: it arrived in ${
        lead.stages[0]?.name ?? 'the first stage'
      }.</p>`
    : html`<ol class="history" id="history">${entries.map((e) => html`<li>${when(e.at)}: ${e.text}</li>`)}</ol>`;
}
