/** Styles of the Invoices screen, an invoice's page and the chain blocks (appended to admin.css). */
export const INVOICES_CSS = `
.invoice-totals { display: grid; grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr)); gap: 0 1rem; }
.invoice-totals .stat h2 { font-size: .85rem; color: var(--muted); margin: 0 0 .25rem; font-weight: 600; }
.invoice-totals .figure { font-size: 1.5rem; font-weight: 700; margin: 0; white-space: nowrap; }
.invoice-totals .figure.late { color: var(--danger); }
.invoice-totals #other-currencies { grid-column: 1 / -1; }
.status.inv-sent, .status.inv-viewed { background: var(--accent-soft); color: var(--accent); }
.status.inv-partly_paid { background: var(--accent-soft); color: var(--ink); }
.status.inv-paid { background: var(--ok-soft); color: var(--ok); }
.status.inv-void, .status.overdue { background: var(--danger-soft); color: var(--danger); }
ol.chain { margin: 0; padding-left: 1.25rem; }
ol.chain li { margin: 0 0 .35rem; }
#quote-invoices form.actions { display: flex; flex-wrap: wrap; gap: .5rem; margin: 0 0 .75rem; }
table.payments td.actions { text-align: right; }
#record-payment { margin-top: 1rem; border-top: 1px solid var(--line); padding-top: .75rem; }
#record-payment h3 { margin: 0 0 .5rem; font-size: 1rem; }
#pdf code { overflow-wrap: anywhere; word-break: break-all; }
.pick-items .pre { white-space: pre-wrap; overflow-wrap: anywhere; }
@media (max-width: 40rem) {
  table.invoices thead, table.payments thead { display: none; }
  table.invoices tr, table.payments tr { display: block; border-bottom: 1px solid var(--line); padding: .5rem 0; }
  table.invoices td, table.payments td { display: block; border: 0; padding: .15rem .75rem; }
  table.invoices td[data-label]::before, table.payments td[data-label]::before {
    content: attr(data-label) ": "; color: var(--muted); font-size: .8rem;
  }
  table.invoices td.amount, table.payments td.amount, table.payments td.actions { text-align: left; }
}
`;
