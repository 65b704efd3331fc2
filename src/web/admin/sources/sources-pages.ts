import type { SourceStats } from '../../../domain/intake-log/source-stats.js';
import type { CampaignCounts } from '../../../domain/sources/campaign-counts.js';
import type { SourceListItem } from '../../../domain/sources/list-sources.js';
import type { SourceTexts } from '../../../domain/sources/update-source-texts.js';
import { SOURCE_TEXT_LIMITS } from '../../../domain/sources/update-source-texts.js';
import { html, type SafeHtml } from '../../html.js';
import { embedSnippet } from '../../form/embed-snippet.js';
import { FORM_MESSAGES } from '../../form/messages.js';
import type { WorkspaceCall } from '../admin-route.js';
import { workspacePath } from '../admin-route.js';
import { actionButton, csrfField, field, type FormErrors } from '../form-controls.js';
import { when } from '../formats.js';
import { notice } from '../notices.js';
import type { SpamRules } from '../../../domain/sources/spam-rules.js';
import { spamRulesSummary } from './spam-rules-pages.js';

const PROVIDERS = [
  { value: 'off', label: 'None' },
  { value: 'turnstile', label: 'Cloudflare Turnstile' },
  { value: 'hcaptcha', label: 'hCaptcha' },
  { value: 'recaptcha', label: 'Google reCAPTCHA (v2, or v3 with a minimum score)' },
];

function status(active: boolean): SafeHtml {
  return active ? html`<span class="badge on">Active</span>` : html`<span class="badge off">Off</span>`;
}

/**
 * Without PUBLIC_BASE_URL the links and the embed snippet name the address the server guessed (often localhost),
 * which visitors cannot reach: say so where the links are copied.
 */
function baseUrlWarning(call: WorkspaceCall): SafeHtml | string {
  if (call.ctx.config.publicBaseUrlSet) return '';
  return html`<p class="notice warn" id="base-url-warning" role="note">
  <strong>PUBLIC_BASE_URL is not set.</strong> The links and the embed snippet below use <code>${
    new URL(call.ctx.config.publicBaseUrl).origin
  }</code> or the address the server last started with, which visitors on the internet may not reach. Set
  PUBLIC_BASE_URL to the address people use (see docs/operations.md) and restart.</p>`;
}

/** Sources (docs/admin-app.md): every source with its pipeline, status, lead count and last lead. */
export function sourcesPage(call: WorkspaceCall, sources: SourceListItem[]): SafeHtml {
  const base = workspacePath(call.workspace.workspaceId, 'sources');
  return html`<div class="page-head"><div><h1>Sources</h1>
  <p class="muted">Where leads come from: each source has an intake link and a hosted form.</p></div>
<a class="button" href="${base}/new">New source</a></div>
${notice(call.query.notice)}
${baseUrlWarning(call)}
<section class="card table-card" aria-labelledby="sources-heading">
<h2 id="sources-heading" class="offscreen">Lead sources</h2>
${
  sources.length === 0
    ? html`<p class="empty">No sources yet. Make one with <strong>New source</strong>.</p>`
    : html`<table class="list" id="sources">
<thead><tr><th scope="col">Source</th><th scope="col">Pipeline</th><th scope="col">Status</th><th scope="col">Leads</th>
<th scope="col">Last lead</th><th scope="col">Bot check</th></tr></thead>
<tbody>${sources.map(
        (s) => html`<tr>
<td data-label="Source"><a href="${base}/${s.id}">${s.name}</a></td>
<td data-label="Pipeline">${s.pipelineName}</td>
<td data-label="Status">${status(s.active)}</td>
<td data-label="Leads" class="num">${s.leadCount}</td>
<td data-label="Last lead">${when(s.lastLeadAt, 'none yet')}</td>
<td data-label="Bot check" class="muted">${
          s.botCheck ? PROVIDERS.find((p) => p.value === s.botCheck!.provider)?.label.split(' (')[0] : 'None'
        }</td>
</tr>`,
      )}</tbody></table>`
}
</section>
${
  sources.length
    ? html`<p class="muted small">Open a source for its intake URL, hosted form, embed snippet, bot check and
    form texts.</p>`
    : ''
}`;
}

export function newSourcePage(
  call: WorkspaceCall,
  pipelines: Array<{ id: string; name: string }>,
  values: { name?: string; pipeline?: string } = {},
  errors: FormErrors = {},
): SafeHtml {
  const base = workspacePath(call.workspace.workspaceId, 'sources');
  return html`<p class="small"><a href="${base}">← Sources</a></p>
<div class="page-head"><div><h1>New source</h1>
<p class="muted">A web form, a landing page or an automation that sends leads.</p></div></div>
<section class="card">
<form method="post" action="${base}" novalidate>
${csrfField(call.csrf)}
${field({
  name: 'name',
  label: 'Name',
  value: values.name ?? '',
  errors,
  maxlength: 120,
  hint: 'Shown to you, and as the hosted form’s heading unless you set one.',
})}
<div class="field">
<label for="f-pipeline">Pipeline</label>
<select id="f-pipeline" name="pipeline"${
    errors.pipeline ? html` aria-invalid="true" aria-describedby="f-pipeline-error"` : ''
  }>
${pipelines.map(
  (p) => html`<option value="${p.id}"${p.id === values.pipeline ? html` selected` : ''}>${p.name}</option>`,
)}
</select>
${errors.pipeline ? html`<p class="field-error" id="f-pipeline-error">${errors.pipeline}</p>` : ''}
</div>
<button type="submit">Create source</button>
</form>
</section>`;
}

function copyRow(id: string, label: string, value: string, block = false): SafeHtml {
  return html`<h3 id="${id}-label">${label}</h3>
<div class="copy-row">${
    block
      ? html`<pre id="${id}" aria-labelledby="${id}-label">${value}</pre>`
      : html`<code class="copy-value" id="${id}" aria-labelledby="${id}-label">${value}</code>`
  }
<button type="button" class="secondary" data-copy-target="#${id}" data-status="#${id}-status" hidden>Copy</button></div>
<p class="status-line" id="${id}-status" role="status" aria-live="polite"></p>`;
}

export interface SourcePageInput {
  source: SourceListItem;
  /** The hosted form's default heading. */
  workspaceName: string;
  texts: SourceTexts;
  stats: SourceStats;
  /** Leads of the last days per marketing source (campaign-counts.ts). */
  campaigns?: CampaignCounts;
  spamRules?: SpamRules;
  botCheckErrors?: FormErrors;
  textErrors?: FormErrors;
  textValues?: Record<string, string>;
  /** The workspace's business email (Settings), which the confirmation to senders is Reply-To; null when unset. */
  businessEmail?: string | null;
  confirmationErrors?: FormErrors;
}

/**
 * The confirmation to the person who sent the form (docs/notifications.md, "Confirmation to the sender"): off by
 * default; one button turns it on or off. It needs the business email, which replies go to.
 */
function confirmationSettings(call: WorkspaceCall, base: string, input: SourcePageInput): SafeHtml {
  const on = input.source.confirmSender;
  const error = input.confirmationErrors?.confirmSender;
  const settings = workspacePath(call.workspace.workspaceId, 'settings');
  return html`<section class="card" aria-labelledby="confirmation-heading" id="confirmation">
<h2 id="confirmation-heading">Confirmation to the sender</h2>
<p class="muted small">An email to the address the person typed: “We got your request”, with the business’s name
(${input.workspaceName}) and contact from <a href="${settings}">Settings</a>, Reply-To the business email. It holds
nothing they typed. Never for a post in Quarantine; at most one per address a day and 100 a day for this source.</p>
<p>Now: <strong id="confirmation-state">${on ? 'on' : 'off'}</strong>${
    input.businessEmail
      ? html`; replies go to <code>${input.businessEmail}</code>.`
      : html`. No business email is set in <a href="${settings}">Settings</a>; the confirmation needs one.`
  }</p>
${error ? html`<p class="field-error" id="f-confirmSender-error" role="alert">${error}</p>` : ''}
${actionButton({
  action: `${base}/confirmation`,
  csrf: call.csrf,
  label: on ? 'Turn off' : 'Turn on',
  kind: on ? 'secondary' : 'primary',
  fields: { confirmSender: on ? '0' : '1' },
})}
</section>`;
}

/** The intake log: requests per UTC day, accepted, caught by the honeypot, and refused by code. No personal data. */
function intakeLog(stats: SourceStats): SafeHtml {
  const cell = (label: string, value: number | string | SafeHtml) => html`<td data-label="${label}">${value}</td>`;
  const refused = (day: SourceStats['days'][number]) =>
    day.refused > 0
      ? html`${day.refused} <span class="muted small">(${Object.entries(day.refusedBy)
          .map(([code, n]) => `${code} ${n}`)
          .join(', ')})</span>`
      : day.refused;
  const rows = stats.days.map(
    (day) =>
      html`<tr>${[
        cell('Day (UTC)', day.day),
        cell('Accepted', day.accepted),
        cell('Quarantined', day.quarantined),
        cell('Refused', refused(day)),
      ]}</tr>`,
  );
  return html`<section class="card" aria-labelledby="log-heading">
<h2 id="log-heading">Intake log</h2>
<p class="muted small">Requests to this source’s intake link and hosted form over the last 14 days (UTC), counted every
few seconds. Refusals show their reason, e.g. <code>missing_contact</code> or <code>rate_limited</code>.</p>
${
  rows.length === 0
    ? html`<p class="muted">No requests in the last 14 days.</p>`
    : html`<table class="list wide-labels" id="intake-log"><thead><tr><th scope="col">Day (UTC)</th>
    <th scope="col">Accepted</th><th scope="col">Quarantined</th><th scope="col">Refused</th></tr></thead>
    <tbody>${rows}</tbody></table>`
}
</section>`;
}

/** The source's recent leads per marketing source (`utm_source`), each a link to those leads in the inbox. */
function campaignCard(
  call: WorkspaceCall,
  source: SourceListItem,
  campaigns: SourcePageInput['campaigns'],
): SafeHtml | string {
  if (!campaigns) return '';
  const inbox = workspacePath(call.workspace.workspaceId, `pipelines/${source.pipelineId}/leads`);
  const rows = campaigns.counts.map((c) => {
    const label =
      c.utmSource === null
        ? html`<span class="muted">none given</span>`
        : html`<a href="${inbox}?${new URLSearchParams({
            source: source.id,
            utm: c.utmSource,
          }).toString()}">${c.utmSource}</a>`;
    return html`<tr><td data-label="utm_source">${label}</td><td data-label="Leads">${c.leads}</td></tr>`;
  });
  if (campaigns.others > 0)
    rows.push(
      html`<tr><td data-label="utm_source"><span class="muted">others</span>
      </td><td data-label="Leads">${campaigns.others}</td></tr>`,
    );
  return html`<section class="card" aria-labelledby="campaigns-heading">
<h2 id="campaigns-heading">Campaign sources</h2>
<p class="muted small">This source’s leads of the last ${campaigns.days} days by the <code>utm_source</code> of the page
they were sent from.</p>
${
  rows.length === 0
    ? html`<p class="muted">No leads in the last ${campaigns.days} days.</p>`
    : html`<table class="list wide-labels" id="campaign-counts"><thead><tr><th scope="col">utm_source</th>
    <th scope="col">Leads</th></tr></thead><tbody>${rows}</tbody></table>`
}
</section>`;
}

/** One source: its links and embed snippet, Deactivate/Activate, bot-check settings, the hosted form's texts. */
export function sourcePage(call: WorkspaceCall, input: SourcePageInput): SafeHtml {
  const { source, texts } = input;
  const base = workspacePath(call.workspace.workspaceId, `sources/${source.id}`);
  const bot = source.botCheck;
  const botErrors = input.botCheckErrors ?? {};
  const textErrors = input.textErrors ?? {};
  const textValue = (key: keyof SourceTexts) => input.textValues?.[key] ?? texts[key] ?? '';
  return html`<p class="small"><a href="${workspacePath(call.workspace.workspaceId, 'sources')}">← Sources</a></p>
<div class="page-head"><div><h1>${source.name}</h1>
<p class="muted">Pipeline ${source.pipelineName} · ${status(source.active)} · ${source.leadCount} lead${
    source.leadCount === 1 ? '' : 's'
  }, last ${when(source.lastLeadAt, 'none yet')}</p></div>
<div class="actions">${
    source.active
      ? actionButton({
          action: `${base}/active`,
          csrf: call.csrf,
          label: 'Deactivate',
          kind: 'danger',
          fields: { active: '0' },
          confirm:
            'Switch off this intake link and hosted form? Posts to them are refused until you activate them again.',
        })
      : actionButton({
          action: `${base}/active`,
          csrf: call.csrf,
          label: 'Activate',
          kind: 'primary',
          fields: { active: '1' },
        })
  }</div></div>
${notice(call.query.notice)}
${
  source.active
    ? ''
    : html`<p class="notice error">This source is off: its intake link and hosted form answer “closed”.</p>`
}
${baseUrlWarning(call)}
<section class="card" aria-labelledby="links-heading">
<h2 id="links-heading">Links</h2>
${copyRow('intake-url', 'Intake URL (POST leads here from your own form or automation)', source.intakeUrl)}
${copyRow('form-url', 'Hosted form', source.formUrl)}
<p class="small"><a href="${source.formUrl}" target="_blank"
  rel="noopener">Open the hosted form</a> · <a href="${base}/form" id="form-editor-link">Form fields and colour</a></p>
${copyRow(
  'embed-snippet',
  'Embed the hosted form on your site',
  embedSnippet({ formUrl: source.formUrl, title: 'Contact form', token: source.token }),
  true,
)}
<p class="muted small">The frame fits the form’s height and the lead records the page it was sent from. The frame alone
(without the script) works too, at a fixed height.</p>
</section>
${intakeLog(input.stats)}
${campaignCard(call, source, input.campaigns)}
${spamRulesSummary(base, input.spamRules ?? null)}
${confirmationSettings(call, base, input)}
<div class="grid-2">
<section class="card" aria-labelledby="texts-heading">
<h2 id="texts-heading">Hosted form texts</h2>
<p class="muted small">Plain text. Leave a field empty for the default.</p>
<form method="post" action="${base}/texts" novalidate>
${csrfField(call.csrf)}
${field({
  name: 'heading',
  label: 'Heading',
  value: textValue('heading'),
  errors: textErrors,
  maxlength: SOURCE_TEXT_LIMITS.heading,
  hint: `Default: ${input.workspaceName}`,
})}
${field({
  name: 'introduction',
  label: 'Introduction',
  value: textValue('introduction'),
  errors: textErrors,
  textarea: true,
  maxlength: SOURCE_TEXT_LIMITS.introduction,
})}
${field({
  name: 'thankYou',
  label: 'Thank-you text',
  value: textValue('thankYou'),
  errors: textErrors,
  textarea: true,
  maxlength: SOURCE_TEXT_LIMITS.thankYou,
  hint: `Default: ${FORM_MESSAGES.thanks}`,
})}
<button type="submit">Save texts</button>
</form>
</section>
<section class="card" aria-labelledby="bot-heading">
<h2 id="bot-heading">Bot check</h2>
<p class="muted small">Now: ${
    bot
      ? html`<strong>${PROVIDERS.find((p) => p.value === bot.provider)?.label}</strong>, site key ${
          bot.siteKey ? html`<code>${bot.siteKey}</code>` : 'not set'
        }${bot.minScore !== null ? `, minimum score ${bot.minScore}` : ''}; secret stored (never shown)`
      : html`<strong>off</strong>`
  }.</p>
<form method="post" action="${base}/bot-check" novalidate>
${csrfField(call.csrf)}
<div class="field">
<label for="f-provider">Provider</label>
<select id="f-provider" name="provider">${PROVIDERS.map(
    (p) =>
      html`<option value="${p.value}"${
        p.value === (bot?.provider ?? 'off') ? html` selected` : ''
      }>${p.label}</option>`,
  )}</select>
</div>
${field({
  name: 'secret',
  label: 'Secret key',
  type: 'password',
  errors: botErrors,
  autocomplete: 'off',
  hint: bot
    ? 'Write-only: enter it again to save changes.'
    : 'From the provider’s dashboard. Stored encrypted, never shown again.',
})}
${field({
  name: 'siteKey',
  label: 'Site key',
  value: bot?.siteKey ?? '',
  errors: botErrors,
  hint: 'Needed for the hosted form to show the widget.',
})}
${field({
  name: 'minScore',
  label: 'Minimum score (reCAPTCHA v3 only)',
  value: bot?.minScore !== null && bot?.minScore !== undefined ? String(bot.minScore) : '',
  errors: botErrors,
  hint: '0 to 1, e.g. 0.5. Leave empty for v2.',
})}
<button type="submit">Save bot check</button>
</form>
</section>
</div>`;
}
