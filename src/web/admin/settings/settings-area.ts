import { httpStatusOf } from '../../../http/error-statuses.js';
import { updateWorkspaceSettings } from '../../../domain/settings/update-workspace-settings.js';
import { getWorkspaceSettings, RETENTION_MONTHS, timeZones, type WorkspaceSettings } from '../../../domain/settings/workspace-settings.js';
import { html, type SafeHtml } from '../../html.js';
import type { AdminArea, WorkspaceCall } from '../routes.js';
import { workspacePath } from '../routes.js';
import { csrfField, field, formErrorsOf, isFormError, notice, type FormErrors } from '../ui.js';

interface Values {
  name: string;
  timeZone: string;
  units: string;
  leadRetention: string;
  scanRetention: string;
}

const RETENTION_OPTIONS: Array<[string, string]> = [['off', 'Keep them (off)'], ...RETENTION_MONTHS.map((m): [string, string] => [String(m), `${m} months`])];

function choice(name: string, label: string, options: Array<[string, string]>, selected: string, errors: FormErrors, hint?: string): SafeHtml {
  const id = `f-${name}`;
  const error = errors[name];
  const describedBy = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ');
  return html`<div class="field">
<label for="${id}">${label}</label>
<select id="${id}" name="${name}"${error ? html` aria-invalid="true"` : ''}${describedBy ? html` aria-describedby="${describedBy}"` : ''}>${options.map(
    ([value, text]) => html`<option value="${value}"${value === selected ? html` selected` : ''}>${text}</option>`,
  )}</select>
${hint ? html`<p class="hint" id="${id}-hint">${hint}</p>` : ''}
${error ? html`<p class="field-error" id="${id}-error">${error}</p>` : ''}
</div>`;
}

function settingsPage(call: WorkspaceCall, values: Values, errors: FormErrors = {}): SafeHtml {
  const zones = timeZones();
  // A zone the list lacks (sent by hand) is still shown as chosen, next to its error.
  const zoneOptions: Array<[string, string]> = (zones.includes(values.timeZone) ? zones : [values.timeZone, ...zones]).map((z) => [z, z.replaceAll('_', ' ')]);
  return html`<div class="page-head"><div><h1>Settings</h1><p class="muted">How ${call.workspace.workspaceName} shows times and measurements, and how long it keeps leads and scans.</p></div></div>
${notice(call.query.notice)}
<section class="card" aria-labelledby="settings-heading">
<h2 id="settings-heading" class="offscreen">Workspace settings</h2>
<form method="post" action="${workspacePath(call.workspace.workspaceId, 'settings')}" novalidate>
${csrfField(call.csrf)}
${field({ name: 'name', label: 'Workspace name', value: values.name, errors, maxlength: 120, hint: 'Shown in the workspace switcher and on the CLI.' })}
${choice('timeZone', 'Time zone', zoneOptions, values.timeZone, errors, 'Pages show times in your browser’s zone; emails write times in this one, and the daily summary goes out at its 08:00.')}
${choice('units', 'Units', [['metric', 'Metric (m, m²)'], ['imperial', 'Imperial (ft-in, ft²)']], values.units, errors, 'Scan measurements are kept in metres and shown in these units.')}
<fieldset class="retention" aria-describedby="retention-hint">
<legend>Retention</legend>
<p class="hint" id="retention-hint">Once a day, leads and scans received longer ago than this are deleted for good, and each run is counted in the Audit log. Quarantined submissions are always deleted after 30 days.</p>
${choice('leadRetention', 'Delete leads older than', RETENTION_OPTIONS, values.leadRetention, errors)}
${choice('scanRetention', 'Delete scans older than', RETENTION_OPTIONS, values.scanRetention, errors)}
</fieldset>
<button type="submit">Save settings</button>
</form>
</section>`;
}

const valuesOf = (s: WorkspaceSettings): Values => ({
  name: s.name,
  timeZone: s.timeZone,
  units: s.units,
  leadRetention: s.leadRetentionMonths ? String(s.leadRetentionMonths) : 'off',
  scanRetention: s.scanRetentionMonths ? String(s.scanRetentionMonths) : 'off',
});

/** Settings (owners): the workspace's name, time zone, units and retention, with the verb `leadscan workspace settings` uses. */
export const settingsArea: AdminArea = {
  nav: { area: 'settings', label: 'Settings', path: 'settings', access: 'owner' },
  routes: [
    {
      method: 'GET',
      path: '/w/:workspaceId/settings',
      access: 'owner',
      handler: async (call) => {
        const settings = await getWorkspaceSettings({ ctx: call.ctx, input: { workspaceId: call.workspace.workspaceId } });
        return call.render(200, { title: 'Settings', area: 'settings', body: settingsPage(call, valuesOf(settings)) });
      },
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/settings',
      access: 'owner',
      handler: async (call) => {
        const workspaceId = call.workspace.workspaceId;
        const values = {
          name: call.body.name ?? '',
          timeZone: call.body.timeZone ?? '',
          units: call.body.units ?? '',
          leadRetention: call.body.leadRetention ?? 'off',
          scanRetention: call.body.scanRetention ?? 'off',
        };
        try {
          await updateWorkspaceSettings({ ctx: call.ctx, input: { workspaceId, ...values } });
        } catch (error) {
          if (!isFormError(error)) throw error;
          return call.render(httpStatusOf(error), { title: 'Settings', area: 'settings', body: settingsPage(call, values, formErrorsOf(error, 'name')) });
        }
        return call.redirect(workspacePath(workspaceId, 'settings'), 'settings-saved');
      },
    },
  ],
};
