import { amountText, rateText } from '../../../domain/money.js';
import { INVOICE_SETTINGS } from '../../../domain/settings/invoice-settings.js';
import { updateWorkspaceSettings } from '../../../domain/settings/update-workspace-settings.js';
import { getWorkspaceSettings, type WorkspaceSettings } from '../../../domain/settings/workspace-settings.js';
import { html, type SafeHtml } from '../../html.js';
import type { AdminArea, WorkspaceCall } from '../admin-route.js';
import { workspacePath } from '../admin-route.js';
import { csrfField, field, type FormErrors } from '../form-controls.js';
import { notice } from '../notices.js';

interface Values {
  invoicePrefix: string;
  paymentTerms: string;
  paymentInstructions: string;
  deposit: string;
}

/** The deposit as the field takes it: `30%`, `500.00`, or empty for none. */
function depositText(s: WorkspaceSettings): string {
  if (!s.deposit) return '';
  if (s.deposit.percent !== null) return `${rateText(s.deposit.percent)}%`;
  return s.deposit.fixed !== null ? amountText(s.deposit.fixed, s.currency) : '';
}

function invoiceSettingsPage(call: WorkspaceCall, values: Values, currency: string, errors: FormErrors = {}): SafeHtml {
  const settings = workspacePath(call.workspace.workspaceId, 'settings');
  return html`<div class="page-head"><div><h1>Invoices</h1>
  <p class="muted">How invoices are numbered, when they are due, how the customer pays, and the deposit new quotes
  ask.</p></div>
<div class="actions"><a class="button secondary" href="${settings}">Settings</a></div></div>
${notice(call.query.notice)}
<section class="card" aria-labelledby="invoice-settings-heading">
<h2 id="invoice-settings-heading" class="offscreen">Invoice settings</h2>
<form method="post" action="${workspacePath(call.workspace.workspaceId, 'settings/invoices')}" novalidate>
${csrfField(call.csrf)}
<div class="grid-2">
<div>${field({
    name: 'invoicePrefix',
    label: 'Number prefix',
    value: values.invoicePrefix,
    errors,
    maxlength: INVOICE_SETTINGS.prefix.max,
    hint:
      'What invoice numbers start with, e.g. INV- or 2026/. A change applies to the next number; credit notes ' +
      'are CN-.',
  })}</div>
<div>${field({
    name: 'paymentTerms',
    label: 'Payment terms (days)',
    value: values.paymentTerms,
    errors,
    maxlength: 3,
    hint: 'A new invoice is due this many days after it is sent; 0 is due on receipt. Each draft can change its own.',
  })}</div>
</div>
${field({
  name: 'paymentInstructions',
  label: 'Payment instructions',
  value: values.paymentInstructions,
  errors,
  maxlength: INVOICE_SETTINGS.paymentInstructions.max,
  textarea: true,
  hint: 'Printed on every invoice and its page, e.g. “Bank transfer to …”. Frozen on each invoice when it is sent.',
})}
${field({
  name: 'deposit',
  label: `Deposit new quotes ask`,
  value: values.deposit,
  errors,
  maxlength: 20,
  hint:
    `A percentage of the total (30%) or an amount in ${currency} (500.00); empty for none. An accepted quote ` +
    `with a deposit is invoiced as Invoice deposit, then Invoice the rest.`,
})}
<button type="submit">Save invoice settings</button>
</form>
</section>`;
}

const postedValues = (call: WorkspaceCall): Values => ({
  invoicePrefix: call.body.invoicePrefix ?? '',
  paymentTerms: call.body.paymentTerms ?? '',
  paymentInstructions: call.body.paymentInstructions ?? '',
  deposit: call.body.deposit ?? '',
});

/**
 * Settings → Invoices (owners; docs/admin-app.md, "Invoices"): the number prefix, the payment terms, the payment
 * instructions and the deposit default, through the verb `leadscan workspace settings` uses.
 */
export const invoiceSettingsArea: AdminArea = {
  routes: [
    {
      method: 'GET',
      path: '/w/:workspaceId/settings/invoices',
      access: 'owner',
      handler: async (call) => {
        const s = await getWorkspaceSettings({ ctx: call.ctx, input: { workspaceId: call.workspace.workspaceId } });
        const values = {
          invoicePrefix: s.invoicePrefix,
          paymentTerms: String(s.paymentTermsDays),
          paymentInstructions: s.paymentInstructions ?? '',
          deposit: depositText(s),
        };
        return call.render(200, {
          title: 'Invoice settings',
          area: 'settings',
          body: invoiceSettingsPage(call, values, s.currency),
        });
      },
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/settings/invoices',
      access: 'owner',
      handler: async (call) => {
        const workspaceId = call.workspace.workspaceId;
        const values = postedValues(call);
        await updateWorkspaceSettings({
          ctx: call.ctx,
          input: { workspaceId, ...values, deposit: values.deposit.trim() === '' ? 'none' : values.deposit },
        });
        return call.redirect(workspacePath(workspaceId, 'settings/invoices'), 'settings-saved');
      },
      form: {
        field: 'invoicePrefix',
        rerender: async (call, { status, errors }) => {
          const s = await getWorkspaceSettings({ ctx: call.ctx, input: { workspaceId: call.workspace.workspaceId } });
          return call.render(status, {
            title: 'Invoice settings',
            area: 'settings',
            body: invoiceSettingsPage(call, postedValues(call), s.currency, errors),
          });
        },
      },
    },
  ],
};
