import {
  getNotificationChoices,
  setNotificationChoices,
  type NotificationChoices,
} from '../../../domain/notifications/choices.js';
import { outboxStatus, type OutboxPurpose, type OutboxStatus } from '../../../domain/notifications/outbox.js';
import { sendTestEmail } from '../../../domain/notifications/send-test-email.js';
import { html, type SafeHtml } from '../../html.js';
import type { AdminArea, WorkspaceCall } from '../admin-route.js';
import { workspacePath } from '../admin-route.js';
import { actionButton, csrfField, type FormErrors } from '../form-controls.js';
import { when } from '../formats.js';
import { notice } from '../notices.js';

const LEAD_OPTIONS: Array<[string, string, string]> = [
  ['each', 'Each new lead', 'An email within a minute of a lead arriving; leads arriving together come in one email.'],
  ['daily', 'A daily summary', 'One email at 08:00 (the workspace’s time zone) listing the leads of the last day.'],
  ['never', 'Never', ''],
];
const SCAN_OPTIONS: Array<[string, string, string]> = [
  ['each', 'Each new scan', 'An email when a scan is uploaded from the scanning app.'],
  ['never', 'Never', ''],
];

function radios(
  name: string,
  legend: string,
  options: Array<[string, string, string]>,
  selected: string,
  errors: FormErrors,
): SafeHtml {
  const error = errors[name];
  return html`<fieldset class="field"${error ? html` aria-describedby="f-${name}-error"` : ''}>
<legend>${legend}</legend>
${options.map(
  ([value, label, hint]) =>
    html`<label class="radio"><input type="radio" name="${name}" value="${value}"${
      value === selected ? html` checked` : ''
    }> <span>${label}${hint ? html`<span class="hint">${hint}</span>` : ''}</span></label>`,
)}
${error ? html`<p class="field-error" id="f-${name}-error">${error}</p>` : ''}
</fieldset>`;
}

const PURPOSES: Record<OutboxPurpose, string> = {
  leads: 'new leads and scans',
  digest: 'daily summary',
  test: 'test email',
  invite: 'invitation',
  password_reset: 'password reset',
  email_change: 'email change',
  quotes: 'quote notice',
  confirmation: 'confirmation to a form’s sender',
  quote_sent: 'quote to a customer',
  follow_up: 'follow-up reminder',
  invoice_sent: 'invoice to a customer',
  invoices: 'payment receipt or invoice notice',
};

/** The rows (inside a `dl.facts`) of what was last sent and failed, and what waits, for a person or a workspace. */
function statusRows(status: OutboxStatus, whose: string): SafeHtml {
  const failure = status.lastFailure;
  return html`<dt>Last email sent${whose}</dt><dd>${
    status.lastSent
      ? html`${when(status.lastSent.at)}, ${PURPOSES[status.lastSent.purpose]} to ${status.lastSent.to}`
      : 'none yet'
  }</dd>
<dt>Last failure${whose}</dt><dd>${
    failure
      ? html`${when(failure.at)}, ${PURPOSES[failure.purpose]} to ${failure.to}: <span
          class="error-text">${failure.error}</span> ${
            failure.gaveUp
              ? failure.purpose === 'test'
                ? '(a test is tried once)'
                : '(given up after a day of retries)'
              : '(retrying)'
          }`
      : 'none'
  }</dd>
<dt>Waiting to be sent</dt><dd>${
    status.waiting === 0 ? 'nothing' : html`${status.waiting}, the oldest since ${when(status.oldestWaitingAt)}`
  }</dd>`;
}

async function page(
  call: WorkspaceCall,
  choices: NotificationChoices,
  errors: FormErrors = {},
  testOutcome?: SafeHtml,
) {
  const { workspaceId } = call.workspace;
  const isOwner = call.workspace.role === 'owner';
  const [mine, workspace] = await Promise.all([
    outboxStatus({ ctx: call.ctx, input: { workspaceId, userId: call.user.userId } }),
    isOwner ? outboxStatus({ ctx: call.ctx, input: { workspaceId } }) : undefined,
  ]);
  const server = call.ctx.mail?.server;
  const body = html`<div class="page-head"><div><h1>Notifications</h1>
  <p class="muted">Which emails you get about ${call.workspace.workspaceName}, sent to ${call.user.email}.</p></div>
  </div>
${notice(call.query.notice)}${testOutcome ?? ''}
${
  server
    ? ''
    : html`<p class="notice warn" role="status">Email is off on this server, so nothing is sent yet. Whoever
    runs the server sets <code>SMTP_URL</code> and <code>MAIL_FROM</code> and restarts it; your choices below are kept
    meanwhile.</p>`
}
<section class="card" aria-labelledby="choices-heading">
<h2 id="choices-heading">Email me about</h2>
<form method="post" action="${workspacePath(workspaceId, 'notifications')}" novalidate>
${csrfField(call.csrf)}
${radios('leads', 'New leads', LEAD_OPTIONS, choices.leads, errors)}
${radios('scans', 'New scans', SCAN_OPTIONS, choices.scans, errors)}
<button type="submit">Save choices</button>
</form>
</section>
<section class="card" aria-labelledby="delivery-heading">
<h2 id="delivery-heading">Delivery</h2>
<dl class="facts"><dt>Email</dt><dd>${server ? html`on, through ${server}` : 'off (SMTP_URL is not set)'}</dd>
${statusRows(mine, ' to you')}</dl>
${workspace ? html`<h3>Everyone in this workspace</h3><dl class="facts">${statusRows(workspace, '')}</dl>` : ''}
${
  server
    ? actionButton({
        action: workspacePath(workspaceId, 'notifications/test'),
        csrf: call.csrf,
        label: 'Send test email',
        kind: 'secondary',
      })
    : ''
}
</section>`;
  return body;
}

/**
 * The Notifications screen with how the test email went (sent, or the refusal's own words), answered 200 either way.
 */
async function testOutcome(call: WorkspaceCall, outcome: SafeHtml) {
  const choices = await getNotificationChoices({ ctx: call.ctx, input: { userId: call.user.userId } });
  return call.render(200, {
    title: 'Notifications',
    area: 'notifications',
    body: await page(call, choices, {}, outcome),
  });
}

/** Notifications (everyone): their own email choices in this workspace, the delivery status, and a test email. */
export const notificationsArea: AdminArea = {
  nav: { area: 'notifications', label: 'Notifications', path: 'notifications', access: 'member' },
  routes: [
    {
      method: 'GET',
      path: '/w/:workspaceId/notifications',
      access: 'member',
      handler: async (call) => {
        const choices = await getNotificationChoices({
          ctx: call.ctx,
          input: { userId: call.user.userId },
        });
        return call.render(200, { title: 'Notifications', area: 'notifications', body: await page(call, choices) });
      },
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/notifications',
      access: 'member',
      handler: async (call) => {
        const { workspaceId } = call.workspace;
        const values = { leads: call.body.leads ?? '', scans: call.body.scans ?? '' };
        await setNotificationChoices({ ctx: call.ctx, input: { userId: call.user.userId, ...values } });
        return call.redirect(workspacePath(workspaceId, 'notifications'), 'notifications-saved');
      },
      form: {
        field: 'leads',
        rerender: async (call, { status, errors }) => {
          const current = await getNotificationChoices({
            ctx: call.ctx,
            input: { userId: call.user.userId },
          });
          return call.render(status, {
            title: 'Notifications',
            area: 'notifications',
            body: await page(call, current, errors),
          });
        },
      },
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/notifications/test',
      access: 'member',
      handler: async (call) => {
        const { workspaceId } = call.workspace;
        const sent = await sendTestEmail(call.ctx, {
          to: call.user.email,
          requestedBy: call.user.email,
          workspaceId,
          userId: call.user.userId,
        });
        const outcome = html`<p class="notice ok"
          role="status">A test email went to ${sent.to} through ${sent.server}. If it is not in the inbox within a
          minute, look in the spam folder.</p>`;
        return testOutcome(call, outcome);
      },
      // Both refusals are for this page to say: email is off, or the mail server's own reason it did not take it.
      form: {
        field: 'test',
        only: ['email_not_sent', 'email_not_configured'],
        rerender: (call, { error }) =>
          testOutcome(call, html`<p class="notice error" role="alert">${error.detail}.</p>`),
      },
    },
  ],
};
