import type { QuoteChain } from '../../../domain/invoices/invoice-chain.js';
import type { InvoiceSummary } from '../../../domain/invoices/list-invoices.js';
import { formatMoney } from '../../../domain/money.js';
import type { QuoteView } from '../../../domain/quotes/quote-view.js';
import { html, type SafeHtml } from '../../html.js';
import type { WorkspaceCall } from '../admin-route.js';
import { workspacePath } from '../admin-route.js';
import { actionButton, csrfField } from '../form-controls.js';
import { chainList, invoicesTable } from './invoice-pages.js';

/**
 * Which of Invoice, Invoice deposit and Invoice the rest the accepted quote still takes (the verb has the last word).
 */
function buttonsOf(quote: QuoteView, chain: QuoteChain): Array<{ kind: string; label: string }> {
  const live = (kind: string) => chain.documents.some((d) => d.kind === kind && d.status !== 'void');
  if (!quote.deposit) return live('invoice') ? [] : [{ kind: 'invoice', label: 'Invoice' }];
  return [
    ...(live('deposit') || live('final') ? [] : [{ kind: 'deposit', label: 'Invoice deposit' }]),
    ...(live('final') ? [] : [{ kind: 'final', label: 'Invoice the rest' }]),
  ];
}

/**
 * The quote page's Invoices block (an accepted quote): the buttons that make a draft invoice of it, a refusal beside
 * them, and the chain of documents made from it.
 */
export function quoteInvoicesCard(
  call: WorkspaceCall,
  input: { quote: QuoteView; chain: QuoteChain; locale: string; error?: string },
): SafeHtml | string {
  const { quote, chain } = input;
  if (quote.status !== 'accepted' && chain.documents.length === 0) return '';
  const action = `${workspacePath(call.workspace.workspaceId)}/quotes/${quote.id}/invoices`;
  const buttons = quote.status === 'accepted' ? buttonsOf(quote, chain) : [];
  const deposit = quote.deposit ? formatMoney(quote.deposit.amount, quote.currency, input.locale) : null;
  return html`<section class="card" aria-labelledby="quote-invoices-heading" id="quote-invoices">
<h2 id="quote-invoices-heading">Invoices</h2>
${
  deposit
    ? html`<p class="muted small">The quote asks a deposit of ${deposit}: invoice the deposit, then the rest.</p>`
    : ''
}
${
  buttons.length
    ? html`<form method="post" action="${action}" class="actions"
      id="invoice-quote">${csrfField(call.csrf)}${buttons.map(
        (b) => html`<button type="submit" name="kind" value="${b.kind}" class="secondary">${b.label}</button>`,
      )}</form>`
    : ''
}
${input.error ? html`<p class="field-error" id="f-kind-error">${input.error}</p>` : ''}
${
  chain.documents.length
    ? chainList(call, chain, input.locale, quote.currency, quote.id)
    : html`<p class="muted small">No invoice yet. Each button makes a draft you check before sending.</p>`
}
</section>`;
}

/** The lead page's Invoices block: its invoices and credit notes, and New invoice (a blank draft). */
export function leadInvoicesCard(
  call: WorkspaceCall,
  leadId: string,
  invoices: InvoiceSummary[],
  locale: string,
): SafeHtml {
  const ws = workspacePath(call.workspace.workspaceId);
  return html`<section class="card${
    invoices.length ? ' table-card' : ''
  }" aria-labelledby="lead-invoices-heading" id="lead-invoices">
<div class="page-head" style="margin:0;padding:${
    invoices.length ? '.9rem .75rem .6rem' : '0 0 .75rem'
  }"><h2 id="lead-invoices-heading" style="margin:0">Invoices</h2>
${actionButton({ action: `${ws}/leads/${leadId}/invoices`, csrf: call.csrf, label: 'New invoice' })}</div>
${
  invoices.length === 0
    ? html`<p class="muted small">No invoice yet. Invoice an accepted quote from its page, or New invoice starts a blank
    draft with the customer’s details.</p>`
    : invoicesTable(call, invoices, locale, 'lead-invoices-list')
}
</section>`;
}
