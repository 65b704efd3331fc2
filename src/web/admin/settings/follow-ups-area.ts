import { FOLLOW_UP_DAYS, reminderDaysText } from '../../../domain/settings/follow-up-settings.js';
import { updateWorkspaceSettings } from '../../../domain/settings/update-workspace-settings.js';
import { getWorkspaceSettings } from '../../../domain/settings/workspace-settings.js';
import { html, type SafeHtml } from '../../html.js';
import type { AdminArea, WorkspaceCall } from '../admin-route.js';
import { workspacePath } from '../admin-route.js';
import { csrfField, field, selectField, type FormErrors } from '../form-controls.js';
import { notice } from '../notices.js';

interface Values {
  followUpDays: string;
  customerReminders: string;
  invoiceReminders: string;
}

/** The sender's reminder as a choice: off, or a number of days (a value set on the CLI shows too). */
function dayOptions(current: string): Array<[string, string]> {
  const days = [1, 2, 3, 4, 5, 7, 10, 14, 21, FOLLOW_UP_DAYS.max].map(String);
  if (/^\d+$/.test(current) && !days.includes(current)) days.push(current);
  days.sort((a, b) => Number(a) - Number(b));
  return [
    ['off', 'Off'],
    ...days.map((d): [string, string] => [d, `After ${d} day${d === '1' ? '' : 's'} without an answer`]),
  ];
}

function followUpsPage(call: WorkspaceCall, values: Values, timeZone: string, errors: FormErrors = {}): SafeHtml {
  const settings = workspacePath(call.workspace.workspaceId, 'settings');
  return html`<div class="page-head"><div><h1>Follow-ups</h1>
  <p class="muted">Reminders when a sent quote has no answer yet. Each goes out once, on its day from 08:00
  (${timeZone.replaceAll('_', ' ')}).</p></div>
<div class="actions"><a class="button secondary" href="${settings}">Settings</a></div></div>
${notice(call.query.notice)}
${
  call.ctx.mail
    ? ''
    : html`<p class="notice warn" role="status">Email is off on this server: no reminder is sent. The Quotes screen
    still lists the quotes that need a follow-up.</p>`
}
<section class="card" aria-labelledby="follow-ups-heading">
<h2 id="follow-ups-heading" class="offscreen">Follow-up settings</h2>
<form method="post" action="${workspacePath(call.workspace.workspaceId, 'settings/follow-ups')}" novalidate>
${csrfField(call.csrf)}
<fieldset class="quotes">
<legend>Remind the sender</legend>
${selectField(
  'followUpDays',
  'Remind the person who sent the quote',
  dayOptions(values.followUpDays),
  values.followUpDays,
  errors,
  'One email to them, and the quote shows under Quotes → Needs follow-up. Nothing once the customer answers, or the ' +
    'quote is withdrawn, revised or expired.',
)}
</fieldset>
<fieldset class="quotes">
<legend>Remind the customer</legend>
${field({
  name: 'customerReminders',
  label: 'Days after sending',
  value: values.customerReminders,
  errors,
  maxlength: 20,
  hint:
    'Up to two, e.g. 3,7. Empty: no reminders (the default). The customer gets the same link again, never a new ' +
    'document, with a link to stop the reminders. They stop on any answer, a withdraw, a revision or expiry.',
})}
</fieldset>
<fieldset class="quotes">
<legend>Overdue invoices</legend>
${field({
  name: 'invoiceReminders',
  label: 'Days after the due date',
  value: values.invoiceReminders,
  errors,
  maxlength: 20,
  hint:
    'Up to three, e.g. 7,14,30. Empty: none (the default). Kept for the reminders of overdue invoices, which ' +
    'come next.',
})}
</fieldset>
<button type="submit">Save follow-ups</button>
</form>
</section>`;
}

const shown = (days: readonly number[]) => (days.length === 0 ? '' : reminderDaysText(days));

/** A posted form as typed; an empty reminders field means off. */
const postedValues = (call: WorkspaceCall): Values => ({
  followUpDays: call.body.followUpDays ?? '',
  customerReminders: call.body.customerReminders ?? '',
  invoiceReminders: call.body.invoiceReminders ?? '',
});

/**
 * Settings → Follow-ups (owners; docs/admin-app.md, "Quotes"): the sender's reminder, the customer's and the
 * overdue invoices', through the verb `leadscan workspace settings` uses.
 */
export const followUpsArea: AdminArea = {
  routes: [
    {
      method: 'GET',
      path: '/w/:workspaceId/settings/follow-ups',
      access: 'owner',
      handler: async (call) => {
        const s = await getWorkspaceSettings({ ctx: call.ctx, input: { workspaceId: call.workspace.workspaceId } });
        const values = {
          followUpDays: s.followUpDays === null ? 'off' : String(s.followUpDays),
          customerReminders: shown(s.customerReminderDays),
          invoiceReminders: shown(s.invoiceReminderDays),
        };
        return call.render(200, {
          title: 'Follow-ups',
          area: 'settings',
          body: followUpsPage(call, values, s.timeZone),
        });
      },
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/settings/follow-ups',
      access: 'owner',
      handler: async (call) => {
        const workspaceId = call.workspace.workspaceId;
        await updateWorkspaceSettings({ ctx: call.ctx, input: { workspaceId, ...postedValues(call) } });
        return call.redirect(workspacePath(workspaceId, 'settings/follow-ups'), 'settings-saved');
      },
      form: {
        field: 'followUpDays',
        rerender: async (call, { status, errors }) => {
          const s = await getWorkspaceSettings({ ctx: call.ctx, input: { workspaceId: call.workspace.workspaceId } });
          return call.render(status, {
            title: 'Follow-ups',
            area: 'settings',
            body: followUpsPage(call, postedValues(call), s.timeZone, errors),
          });
        },
      },
    },
  ],
};
