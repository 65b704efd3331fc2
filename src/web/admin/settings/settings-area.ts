import { updateWorkspaceSettings } from '../../../domain/settings/update-workspace-settings.js';
import {
  getWorkspaceSettings,
  MAX_TAXES,
  RETENTION_MONTHS,
  timeZones,
  type WorkspaceSettings,
} from '../../../domain/settings/workspace-settings.js';
import type { TaxChange, TaxNumberChange } from '../../../domain/settings/quote-settings.js';
import { rateText } from '../../../domain/money.js';
import { html, type SafeHtml } from '../../html.js';
import type { AdminArea, WorkspaceCall } from '../admin-route.js';
import { fileOf, workspacePath } from '../admin-route.js';
import {
  checkLogo,
  documentSettings,
  MAX_LOGO_BYTES,
  setDocumentSettings,
} from '../../../domain/settings/business-logo.js';
import type { Paper } from '../../../domain/document-model.js';
import { csrfField, field, selectField, type FormErrors } from '../form-controls.js';
import { notice } from '../notices.js';

interface Values {
  name: string;
  timeZone: string;
  units: string;
  leadRetention: string;
  scanRetention: string;
  quotes: QuoteValues;
}

/** The Quotes part of the form, as typed (kept on a refusal so nothing typed is lost). */
interface QuoteValues {
  currency: string;
  locale: string;
  quoteValidDays: string;
  quoteTerms: string;
  businessAddress: string;
  businessPhone: string;
  businessEmail: string;
  taxes: Array<{ name: string; rate: string; onByDefault: boolean }>;
  taxNumbers: Array<{ name: string; value: string }>;
}

/**
 * The currencies to choose from: every ISO 4217 code this runtime knows, named in English ("CAD — Canadian
 * Dollar"), with the workspace's own first if the list lacks it.
 */
function currencyOptions(current: string): Array<[string, string]> {
  const names = new Intl.DisplayNames('en', { type: 'currency' });
  const codes = Intl.supportedValuesOf('currency');
  const code = current.toUpperCase();
  const list = codes.includes(code) || code === '' ? codes : [code, ...codes];
  return list.map((c) => [c, `${c} — ${names.of(c) ?? c}`]);
}

/** Common formats for a contractor's customers; the workspace's own stays offered when it is another. */
const LOCALES = [
  'en-US',
  'en-CA',
  'fr-CA',
  'en-GB',
  'en-AU',
  'en-NZ',
  'en-IE',
  'fr-FR',
  'fr-BE',
  'fr-CH',
  'de-DE',
  'de-AT',
  'de-CH',
  'es-ES',
  'es-MX',
  'es-US',
  'it-IT',
  'nl-NL',
  'nl-BE',
  'pt-PT',
  'pt-BR',
  'sv-SE',
  'da-DK',
  'nb-NO',
  'fi-FI',
  'pl-PL',
];

function localeOptions(current: string): Array<[string, string]> {
  const names = new Intl.DisplayNames('en', { type: 'language' });
  const sample = new Date(Date.UTC(2026, 10, 27, 12));
  const list = LOCALES.includes(current) || current === '' ? LOCALES : [current, ...LOCALES];
  return list.map((tag) => {
    let example = '';
    try {
      example = ` (${new Intl.NumberFormat(tag).format(1234.5)} · ${new Intl.DateTimeFormat(tag, {
        dateStyle: 'long',
        timeZone: 'UTC',
      }).format(sample)})`;
    } catch {
      // a tag this runtime cannot format is still offered as it was saved
    }
    let name = tag;
    try {
      name = names.of(tag) ?? tag;
    } catch {
      // likewise
    }
    return [tag, `${name}${example}`];
  });
}

/** Rows shown for tax numbers (the domain keeps up to five). */
const TAX_NUMBER_ROWS = 3;

const rows = <T>(list: T[], count: number, empty: T): T[] => Array.from({ length: count }, (_, i) => list[i] ?? empty);

function quoteFields(values: QuoteValues, errors: FormErrors): SafeHtml {
  const taxRows = rows(values.taxes, MAX_TAXES, { name: '', rate: '', onByDefault: true });
  const numberRows = rows(values.taxNumbers, TAX_NUMBER_ROWS, { name: '', value: '' });
  return html`<fieldset class="quotes" aria-describedby="quotes-hint">
<legend>Quotes</legend>
<p class="hint" id="quotes-hint">What new quotes are priced in and printed with. A change never re-prices a quote
already made.</p>
${selectField('currency', 'Currency', currencyOptions(values.currency), values.currency.toUpperCase(), errors)}
${selectField(
  'locale',
  'Number and date format',
  localeOptions(values.locale),
  values.locale,
  errors,
  'How amounts and dates read on pages, quotes and emails.',
)}
<fieldset class="taxes"${errors.taxes ? html` aria-describedby="f-taxes-error"` : ''}>
<legend>Taxes (up to ${MAX_TAXES})</legend>
${taxRows.map((t, i) => {
  // Each row's problem beside its own field (docs/admin-app.md, "Settings").
  const nameError = errors[`taxName${i + 1}`];
  const rateError = errors[`taxRate${i + 1}`];
  return html`<div class="tax-row">
<label>Name <input type="text" name="taxName${i + 1}" value="${t.name}" maxlength="40"${
    nameError ? html` aria-invalid="true" aria-describedby="f-taxName${i + 1}-error"` : ''
  }></label>
<label>Rate (%) <input type="text" inputmode="decimal" name="taxRate${i + 1}" value="${t.rate}" maxlength="9"${
    rateError ? html` aria-invalid="true" aria-describedby="f-taxRate${i + 1}-error"` : ''
  }></label>
<label><input type="checkbox" name="taxDefault${i + 1}" value="on"${
    t.onByDefault ? html` checked` : ''
  }> On new lines by default</label>
${nameError ? html`<p class="field-error" id="f-taxName${i + 1}-error">${nameError}</p>` : ''}${
    rateError ? html`<p class="field-error" id="f-taxRate${i + 1}-error">${rateError}</p>` : ''
  }
</div>`;
})}
${errors.taxes ? html`<p class="field-error" id="f-taxes-error">${errors.taxes}</p>` : ''}
</fieldset>
${field({
  name: 'quoteValidDays',
  label: 'Quotes are valid for (days)',
  value: values.quoteValidDays,
  errors,
  maxlength: 3,
})}
${field({
  name: 'quoteTerms',
  label: 'Terms of new quotes',
  value: values.quoteTerms,
  errors,
  maxlength: 5000,
  textarea: true,
})}
${field({
  name: 'businessAddress',
  label: 'Business address',
  value: values.businessAddress,
  errors,
  maxlength: 500,
  textarea: true,
})}
${field({
  name: 'businessPhone',
  label: 'Business phone',
  value: values.businessPhone,
  errors,
  maxlength: 40,
  type: 'tel',
})}
${field({
  name: 'businessEmail',
  label: 'Business email',
  value: values.businessEmail,
  errors,
  maxlength: 254,
  type: 'email',
})}
<fieldset class="tax-numbers"${errors.taxNumbers ? html` aria-describedby="f-taxNumbers-error"` : ''}>
<legend>Tax registration numbers</legend>
${numberRows.map(
  (n, i) => html`<div class="tax-row">
<label>Name <input type="text" name="taxNumberName${i + 1}" value="${n.name}" maxlength="40"></label>
<label>Number <input type="text" name="taxNumberValue${i + 1}" value="${n.value}" maxlength="60"></label>
</div>`,
)}
${errors.taxNumbers ? html`<p class="field-error" id="f-taxNumbers-error">${errors.taxNumbers}</p>` : ''}
</fieldset>
</fieldset>`;
}

const RETENTION_OPTIONS: Array<[string, string]> = [
  ['off', 'Keep them (off)'],
  ...RETENTION_MONTHS.map((m): [string, string] => [String(m), `${m} months`]),
];

/**
 * Settings → Business: the logo on the customer's page and PDFs, and the paper of PDFs (docs/documents.md). A form of
 * its own: it posts a file (multipart), and its refusals show beside its fields.
 */
function documentsCard(call: WorkspaceCall, docs: DocumentSettingsView, errors: FormErrors = {}): SafeHtml {
  const ws = call.workspace.workspaceId;
  return html`<section class="card" aria-labelledby="business-docs-heading" id="business-documents">
<h2 id="business-docs-heading">Business: logo and paper</h2>
<p class="hint">Your logo heads the quotes you send: their page and their PDF. A PDF already sent keeps the logo and
paper it was made with.</p>
<form method="post" action="${workspacePath(ws, 'settings/documents')}" enctype="multipart/form-data" novalidate>
${csrfField(call.csrf)}
${
  docs.logo
    ? html`<p class="small">Current logo: ${docs.logo.type.toUpperCase()}, ${String(docs.logo.width)} ×
    ${String(docs.logo.height)} px. <label><input type="checkbox" name="removeLogo" value="on"> Remove it</label></p>`
    : html`<p class="small muted">No logo yet.</p>`
}
<div class="field${
    errors.logo ? ' has-error' : ''
  }"><label for="f-logo">Logo (PNG or JPEG, up to 1 MB and 2000 pixels either way)</label>
<input type="file" id="f-logo" name="logo" accept="image/png,image/jpeg"${
    errors.logo ? html` aria-invalid="true" aria-describedby="f-logo-error"` : ''
  }>
${errors.logo ? html`<p class="field-error" id="f-logo-error">${errors.logo}</p>` : ''}</div>
${selectField(
  'paper',
  'Paper of PDFs',
  [
    ['', 'By the number format (Letter in the US, Canada, Mexico, the Philippines; else A4)'],
    ['A4', 'A4'],
    ['LETTER', 'Letter'],
  ],
  docs.paper ?? '',
  errors,
)}
<button type="submit">Save logo and paper</button>
</form></section>`;
}

type DocumentSettingsView = Awaited<ReturnType<typeof documentSettings>>;

function settingsPage(
  call: WorkspaceCall,
  values: Values,
  errors: FormErrors = {},
  docs?: DocumentSettingsView,
): SafeHtml {
  const zones = timeZones();
  // A zone the list lacks (sent by hand) is still shown as chosen, next to its error.
  const zoneOptions: Array<[string, string]> = (
    zones.includes(values.timeZone) ? zones : [values.timeZone, ...zones]
  ).map((z) => [z, z.replaceAll('_', ' ')]);
  return html`<div class="page-head"><div><h1>Settings</h1>
  <p class="muted">How ${call.workspace.workspaceName} shows times and measurements, how long it keeps leads and scans,
  and what its quotes are priced in.</p></div>
<div class="actions"><a class="button secondary" href="${workspacePath(
    call.workspace.workspaceId,
    'settings/price-list',
  )}" id="price-list-link">Price list</a><a class="button secondary" href="${workspacePath(
    call.workspace.workspaceId,
    'settings/follow-ups',
  )}" id="follow-ups-link">Follow-ups</a><a class="button secondary" href="${workspacePath(
    call.workspace.workspaceId,
    'settings/invoices',
  )}" id="invoice-settings-link">Invoices</a></div></div>
${notice(call.query.notice)}
<section class="card" aria-labelledby="settings-heading">
<h2 id="settings-heading" class="offscreen">Workspace settings</h2>
<form method="post" action="${workspacePath(call.workspace.workspaceId, 'settings')}" novalidate>
${csrfField(call.csrf)}
${field({
  name: 'name',
  label: 'Workspace name',
  value: values.name,
  errors,
  maxlength: 120,
  hint:
    'Your business’s name: it heads your public lead forms (unless a source sets its own heading), names you on ' +
    'the quotes you send, and names this workspace in the switcher and on the CLI (--workspace).',
})}
${selectField(
  'timeZone',
  'Time zone',
  zoneOptions,
  values.timeZone,
  errors,
  'Pages show times in your browser’s zone; emails write times in this one, and the daily summary goes out at its ' +
    '08:00.',
)}
${selectField(
  'units',
  'Units',
  [
    ['metric', 'Metric (m, m²)'],
    ['imperial', 'Imperial (ft-in, ft²)'],
  ],
  values.units,
  errors,
  'Scan measurements are kept in metres and shown in these units.',
)}
<fieldset class="retention" aria-describedby="retention-hint">
<legend>Retention</legend>
<p class="hint" id="retention-hint">Once a day, leads and scans received longer ago than this are deleted for good,
and each run is counted in the Audit log. Quarantined submissions are always deleted after 30 days.</p>
${selectField('leadRetention', 'Delete leads older than', RETENTION_OPTIONS, values.leadRetention, errors)}
${selectField('scanRetention', 'Delete scans older than', RETENTION_OPTIONS, values.scanRetention, errors)}
</fieldset>
${quoteFields(values.quotes, errors)}
<button type="submit">Save settings</button>
</form>
</section>
${docs ? documentsCard(call, docs) : ''}`;
}

const valuesOf = (s: WorkspaceSettings): Values => ({
  name: s.name,
  timeZone: s.timeZone,
  units: s.units,
  leadRetention: s.leadRetentionMonths ? String(s.leadRetentionMonths) : 'off',
  scanRetention: s.scanRetentionMonths ? String(s.scanRetentionMonths) : 'off',
  quotes: {
    currency: s.currency,
    locale: s.locale,
    quoteValidDays: String(s.quoteValidDays),
    quoteTerms: s.quoteTerms ?? '',
    businessAddress: s.businessAddress ?? '',
    businessPhone: s.businessPhone ?? '',
    businessEmail: s.businessEmail ?? '',
    taxes: s.taxes.map((t) => ({ name: t.name, rate: rateText(t.rate), onByDefault: t.onByDefault })),
    taxNumbers: s.taxNumbers,
  },
});

/** The Quotes part of a posted form; undefined when the form had none (an older page, a script posting the rest). */
function postedQuoteValues(body: Record<string, string | undefined>): QuoteValues | undefined {
  if (body.currency === undefined) return undefined;
  return {
    currency: body.currency,
    locale: body.locale ?? '',
    quoteValidDays: body.quoteValidDays ?? '',
    quoteTerms: body.quoteTerms ?? '',
    businessAddress: body.businessAddress ?? '',
    businessPhone: body.businessPhone ?? '',
    businessEmail: body.businessEmail ?? '',
    taxes: Array.from({ length: MAX_TAXES }, (_, i) => ({
      name: (body[`taxName${i + 1}`] ?? '').trim(),
      rate: (body[`taxRate${i + 1}`] ?? '').trim(),
      onByDefault: body[`taxDefault${i + 1}`] === 'on',
    })),
    taxNumbers: Array.from({ length: TAX_NUMBER_ROWS }, (_, i) => ({
      name: (body[`taxNumberName${i + 1}`] ?? '').trim(),
      value: (body[`taxNumberValue${i + 1}`] ?? '').trim(),
    })).filter((n) => n.name !== '' || n.value !== ''),
  };
}

/**
 * The form lists every tax and number, so a save replaces them: what was there and is no longer is removed, the rows
 * are set. (The verb takes changes, as `--tax` gives them.)
 */
function quoteInput(values: QuoteValues, current: WorkspaceSettings) {
  const taxes: TaxChange[] = [
    ...current.taxes
      .filter((t) => !values.taxes.some((v) => v.name.toLowerCase() === t.name.toLowerCase()))
      .map((t) => ({ name: t.name, rate: 'off' })),
    // Rows keep their place, so a refusal is said beside the row it is about; empty rows are no tax.
    ...values.taxes.flatMap((t, i) =>
      t.name === '' && t.rate === ''
        ? []
        : [
            {
              name: t.name,
              rate: t.rate,
              onByDefault: t.onByDefault,
              fields: { name: `taxName${i + 1}`, rate: `taxRate${i + 1}` },
            },
          ],
    ),
  ];
  const taxNumbers: TaxNumberChange[] = [
    ...current.taxNumbers
      .filter((n) => !values.taxNumbers.some((v) => v.name.toLowerCase() === n.name.toLowerCase()))
      .map((n) => ({ name: n.name, value: '' })),
    ...values.taxNumbers,
  ];
  const { taxes: _t, taxNumbers: _n, ...rest } = values;
  return { ...rest, taxes, taxNumbers };
}

/**
 * Settings (owners): the workspace's name, time zone, units, retention and what quotes use (docs/quotes.md,
 * "Settings"), with the verb `leadscan workspace settings` uses.
 */
/** The workspace fields of a posted Settings form, as typed. */
function postedValues(call: WorkspaceCall) {
  return {
    name: call.body.name ?? '',
    timeZone: call.body.timeZone ?? '',
    units: call.body.units ?? '',
    leadRetention: call.body.leadRetention ?? 'off',
    scanRetention: call.body.scanRetention ?? 'off',
  };
}

export const settingsArea: AdminArea = {
  nav: { area: 'settings', label: 'Settings', path: 'settings', access: 'owner' },
  routes: [
    {
      method: 'GET',
      path: '/w/:workspaceId/settings',
      access: 'owner',
      handler: async (call) => {
        const settings = await getWorkspaceSettings({
          ctx: call.ctx,
          input: { workspaceId: call.workspace.workspaceId },
        });
        const docs = await documentSettings({ ctx: call.ctx, input: undefined });
        return call.render(200, {
          title: 'Settings',
          area: 'settings',
          body: settingsPage(call, valuesOf(settings), {}, docs),
        });
      },
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/settings',
      access: 'owner',
      handler: async (call) => {
        const workspaceId = call.workspace.workspaceId;
        const current = await getWorkspaceSettings({ ctx: call.ctx, input: { workspaceId } });
        const posted = postedQuoteValues(call.body);
        await updateWorkspaceSettings({
          ctx: call.ctx,
          input: { workspaceId, ...postedValues(call), ...(posted ? quoteInput(posted, current) : {}) },
        });
        return call.redirect(workspacePath(workspaceId, 'settings'), 'settings-saved');
      },
      form: {
        field: 'name',
        rerender: async (call, { status, errors }) => {
          const current = await getWorkspaceSettings({
            ctx: call.ctx,
            input: { workspaceId: call.workspace.workspaceId },
          });
          const shown = { ...postedValues(call), quotes: postedQuoteValues(call.body) ?? valuesOf(current).quotes };
          const docs = await documentSettings({ ctx: call.ctx, input: undefined });
          return call.render(status, {
            title: 'Settings',
            area: 'settings',
            body: settingsPage(call, shown, errors, docs),
          });
        },
      },
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/settings/documents',
      access: 'owner',
      // A little over the logo's limit, so a larger file is told apart from a cut one (the verb says 1 MB).
      upload: { maxBytes: MAX_LOGO_BYTES + 1 },
      handler: async (call) => {
        const file = fileOf(call, 'logo');
        if (file?.truncated) checkLogo(Buffer.alloc(MAX_LOGO_BYTES + 1));
        const paper = call.body.paper ?? '';
        await setDocumentSettings({
          ctx: call.ctx,
          input: {
            ...(file ? { logo: file.data } : call.body.removeLogo === 'on' ? { logo: 'remove' as const } : {}),
            paper: paper === 'A4' || paper === 'LETTER' ? paper : paper === '' ? null : (paper as Paper),
          },
        });
        return call.redirect(workspacePath(call.workspace.workspaceId, 'settings'), 'settings-saved');
      },
      form: {
        field: 'logo',
        rerender: async (call, { status, errors }) => {
          const settings = await getWorkspaceSettings({
            ctx: call.ctx,
            input: { workspaceId: call.workspace.workspaceId },
          });
          const docs = await documentSettings({ ctx: call.ctx, input: undefined });
          return call.render(status, {
            title: 'Settings',
            area: 'settings',
            body: html`${settingsPage(call, valuesOf(settings))}${documentsCard(call, docs, errors)}`,
          });
        },
      },
    },
  ],
};
