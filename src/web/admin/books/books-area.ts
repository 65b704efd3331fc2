import { exportInvoices, type BooksFormat } from '../../../domain/invoices/export-invoices.js';
import { todayIn } from '../../../domain/quotes/quote-view.js';
import { getWorkspaceSettings } from '../../../domain/settings/workspace-settings.js';
import { html, type SafeHtml } from '../../html.js';
import type { AdminArea, FormRefusal, WorkspaceCall } from '../admin-route.js';
import { workspacePath } from '../admin-route.js';
import { sendAttachment, XLSX_CONTENT_TYPE } from '../attachment.js';
import { field, type FormErrors } from '../form-controls.js';

interface BooksForm {
  from: string;
  to: string;
  errors: FormErrors;
}

/**
 * Invoices → Export for the accountant (docs/invoices.md, "The books"): a range of issue dates (last year unless
 * told) and three downloads, as plain links of one GET form (no script needed): the .xlsx of both sheets, the rows as
 * CSV, the tax summary as CSV.
 */
export function booksPage(call: WorkspaceCall, form: BooksForm): SafeHtml {
  const base = workspacePath(call.workspace.workspaceId, 'invoices/export');
  return html`<div class="page-head"><div><h1>Export for the accountant</h1>
<p class="muted">Every invoice and credit note issued in the range, one row each (credit notes negative, void ones at
0), and a summary per tax and rate. The sums equal the rows.</p></div>
<div class="actions"><a class="button secondary" href="${workspacePath(
    call.workspace.workspaceId,
    'invoices',
  )}">Invoices</a></div></div>
<section class="card">
<form method="get" action="${base}.xlsx" class="report-range" novalidate>
${field({ name: 'from', label: 'From', type: 'date', value: form.from, errors: form.errors })}
${field({
  name: 'to',
  label: 'To',
  type: 'date',
  value: form.to,
  errors: form.errors,
  hint: 'Issue dates, both days included',
})}
<div class="actions">
<button type="submit" id="export-xlsx">Download Excel</button>
<button type="submit" class="secondary" id="export-csv" formaction="${base}.csv">Download CSV</button>
<button type="submit" class="secondary" id="export-summary"
  formaction="${base}.csv" name="summary" value="1">Tax summary (CSV)</button>
</div>
</form>
</section>`;
}

function formOf(call: WorkspaceCall, timeZone: string): BooksForm {
  // Last calendar year unless told: what an accountant asks for first.
  const year = Number(todayIn(timeZone, call.ctx.clock.now()).slice(0, 4)) - 1;
  const pick = (value: string | undefined, fallback: string) => (value === undefined ? fallback : value.slice(0, 10));
  return { from: pick(call.query.from, `${year}-01-01`), to: pick(call.query.to, `${year}-12-31`), errors: {} };
}

async function renderForm(call: WorkspaceCall, status: number, errors: FormErrors) {
  const settings = await getWorkspaceSettings({ ctx: call.ctx, input: { workspaceId: call.workspace.workspaceId } });
  return call.render(status, {
    title: 'Export for the accountant',
    area: 'invoices',
    body: booksPage(call, { ...formOf(call, settings.timeZone), errors }),
  });
}

async function download(call: WorkspaceCall, format: BooksFormat) {
  const summary = format === 'csv' && call.query.summary === '1';
  const from = call.query.from ?? '';
  const to = call.query.to ?? '';
  const body = await exportInvoices({ ctx: call.ctx, input: { from, to, format, ...(summary ? { summary } : {}) } });
  const name = `invoices-${from}-to-${to}${summary ? '-tax-summary' : ''}.${format}`;
  const contentType = format === 'xlsx' ? XLSX_CONTENT_TYPE : 'text/csv; charset=utf-8';
  return sendAttachment(call.reply, { contentType, filename: name, body, noStore: true });
}

/** A refused range shows the form again with the message beside its field. */
const rangeForm = {
  field: 'from',
  rerender: (call: WorkspaceCall, { status, errors }: FormRefusal) => renderForm(call, status, errors),
};

export const booksArea: AdminArea = {
  routes: [
    {
      method: 'GET',
      path: '/w/:workspaceId/invoices/export',
      access: 'member',
      handler: (call) => renderForm(call, 200, {}),
    },
    {
      method: 'GET',
      path: '/w/:workspaceId/invoices/export.xlsx',
      access: 'member',
      handler: (call) => download(call, 'xlsx'),
      form: rangeForm,
    },
    {
      method: 'GET',
      path: '/w/:workspaceId/invoices/export.csv',
      access: 'member',
      handler: (call) => download(call, 'csv'),
      form: rangeForm,
    },
  ],
};
