/** Styles of the Price list, the quote builder and the Quotes screen (appended to admin.css). */
export const QUOTES_CSS = `
.grid-3 { display: grid; grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr)); gap: 0 1rem; }
table.list td.actions { white-space: nowrap; }
table.list td.amount, table.list th.amount { text-align: right; white-space: nowrap; }
.status { display: inline-block; padding: .1rem .5rem; border-radius: 999px; font-size: .8rem; font-weight: 650; background: var(--soft); color: var(--muted); }
.status.sent, .status.viewed { background: var(--accent-soft); color: var(--accent); }
.status.accepted { background: var(--ok-soft); color: var(--ok); }
.status.declined, .status.withdrawn, .status.expired { background: var(--danger-soft); color: var(--danger); }
.status-filters { display: flex; flex-wrap: wrap; gap: .35rem; margin: 0 0 1rem; padding: 0; list-style: none; }
.status-filters a { display: inline-block; padding: .35rem .7rem; border: 1px solid var(--line); border-radius: 999px; text-decoration: none; color: var(--ink); background: #fff; }
.status-filters a[aria-current="page"] { background: var(--accent); border-color: var(--accent); color: #fff; }
.quote-line { border: 1px solid var(--line); border-radius: var(--radius); padding: .75rem; margin: 0 0 .75rem; background: #fff; }
.quote-line .line-grid { display: grid; grid-template-columns: 8rem 7rem 11rem 1fr; gap: .5rem 1rem; align-items: end; }
.quote-line .line-grid label { white-space: nowrap; }
.quote-line .field { margin: 0 0 .5rem; }
.quote-line textarea { width: 100%; max-width: none; min-height: 3rem; }
.quote-line .line-foot { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; justify-content: space-between; }
.quote-line .line-foot label { display: inline-flex; gap: .35rem; align-items: center; font-weight: 400; margin: 0; }
.quote-line .line-foot input[type="checkbox"] { width: 1rem; height: 1rem; }
.quote-line .source { font-size: .85rem; color: var(--muted); margin: 0 0 .5rem; }
.read-only-lines .source { display: block; }
.read-only-lines .pre, dd.pre { white-space: pre-wrap; overflow-wrap: anywhere; }
.pick-rooms .figures { display: block; }
.item-description { display: block; white-space: pre-wrap; overflow-wrap: anywhere; }
.line-amount { font-weight: 650; white-space: nowrap; }
dl.totals { display: grid; grid-template-columns: 1fr max-content; gap: .3rem 1.5rem; margin: 0; max-width: 22rem; margin-left: auto; }
dl.totals dt { color: var(--muted); }
dl.totals dd { margin: 0; text-align: right; white-space: nowrap; }
dl.totals .grand { font-weight: 700; color: var(--ink); font-size: 1.1rem; }
.pick-rooms label, .pick-items label { display: flex; gap: .5rem; align-items: flex-start; font-weight: 400; margin: 0 0 .35rem; }
.pick-rooms input, .pick-items input { width: 1rem; height: 1rem; margin-top: .2rem; flex: none; }
.read-only-lines td { vertical-align: top; }
@media (max-width: 40rem) {
  .quote-line .line-grid { grid-template-columns: 1fr 1fr; }
  .quote-line .line-grid label { white-space: normal; }
  .quote-line .line-grid .taxes-cell { grid-column: 1 / -1; }
  table.quotes thead { display: none; }
  table.quotes tr { display: block; border-bottom: 1px solid var(--line); padding: .5rem 0; }
  table.quotes td { display: block; border: 0; padding: .15rem .75rem; }
  table.quotes td[data-label]::before { content: attr(data-label) ": "; color: var(--muted); font-size: .8rem; }
  table.quotes td.amount { text-align: left; }
}
`;
