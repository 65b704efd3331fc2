/** Styles of the Price list, the quote builder and the Quotes screen (appended to admin.css). */
export const QUOTES_CSS = `
.grid-3 { display: grid; grid-template-columns: repeat(auto-fit, minmax(12rem, 1fr)); gap: 0 1rem; }
table.list td.actions { white-space: nowrap; }
table.list td.amount, table.list th.amount { text-align: right; white-space: nowrap; }
.status {
  display: inline-block; padding: .1rem .5rem; border-radius: 999px; font-size: .8rem; font-weight: 650;
  background: var(--soft); color: var(--muted);
}
.status.sent, .status.viewed { background: var(--accent-soft); color: var(--accent); }
.status.accepted { background: var(--ok-soft); color: var(--ok); }
.status.declined, .status.withdrawn, .status.expired { background: var(--danger-soft); color: var(--danger); }
.status-filters { display: flex; flex-wrap: wrap; gap: .35rem; margin: 0 0 1rem; padding: 0; list-style: none; }
.status-filters a {
  display: inline-block; padding: .35rem .7rem; border: 1px solid var(--line); border-radius: 999px;
  text-decoration: none; color: var(--ink); background: #fff;
}
.status-filters a[aria-current="page"] { background: var(--accent); border-color: var(--accent); color: #fff; }
.quote-line {
  border: 1px solid var(--line); border-radius: var(--radius); padding: .75rem; margin: 0 0 .75rem; background: #fff;
}
.quote-line .line-grid { display: grid; grid-template-columns: 8rem 7rem 11rem 1fr; gap: .5rem 1rem; align-items: end; }
.quote-line .line-grid label { white-space: nowrap; }
.quote-line .field { margin: 0 0 .5rem; }
.quote-line textarea { width: 100%; max-width: none; min-height: 3rem; }
.quote-line .line-foot {
  display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: center; justify-content: space-between;
}
.quote-line .line-foot label { display: inline-flex; gap: .35rem; align-items: center; font-weight: 400; margin: 0; }
.quote-line .line-foot input[type="checkbox"] { width: 1rem; height: 1rem; }
.quote-line .source { font-size: .85rem; color: var(--muted); margin: 0 0 .5rem; }
.read-only-lines .source { display: block; }
.read-only-lines .pre, dd.pre { white-space: pre-wrap; overflow-wrap: anywhere; }
.pick-rooms .figures { display: block; }
.item-description { display: block; white-space: pre-wrap; overflow-wrap: anywhere; }
.line-amount { font-weight: 650; white-space: nowrap; }
dl.totals {
  display: grid; grid-template-columns: 1fr max-content; gap: .3rem 1.5rem; margin: 0; max-width: 22rem;
  margin-left: auto;
}
dl.totals dt { color: var(--muted); }
dl.totals dd { margin: 0; text-align: right; white-space: nowrap; }
dl.totals .grand { font-weight: 700; color: var(--ink); font-size: 1.1rem; }
.pick-rooms label, .pick-items label {
  display: flex; gap: .5rem; align-items: flex-start; font-weight: 400; margin: 0 0 .35rem;
}
.pick-rooms input, .pick-items input { width: 1rem; height: 1rem; margin-top: .2rem; flex: none; }
.read-only-lines td { vertical-align: top; }
.quote-section { border-left: 3px solid var(--line); padding: .25rem 0 .25rem .75rem; margin: 0 0 1rem; }
.quote-section.alternative { border-left-color: var(--accent); }
.section-head {
  display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; justify-content: space-between; margin: 0 0 .5rem;
}
.section-head .section-title { margin: 0; flex: 1 1 14rem; }
.section-head .section-title input { font-weight: 650; }
.section-head .actions { display: flex; flex-wrap: wrap; gap: .35rem .5rem; align-items: center; }
.section-head label.radio { display: inline-flex; gap: .3rem; align-items: center; font-weight: 400; margin: 0; }
.section-subtotal { white-space: nowrap; }
.badge {
  display: inline-block; padding: .05rem .5rem; border-radius: 999px; font-size: .8rem; background: var(--accent-soft);
  color: var(--accent);
}
.section-tools { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; margin: .5rem 0 1rem; }
.section-tools .field { margin: 0; }
@media (min-width: 64rem) {
  .quote-line {
    display: grid; grid-template-columns: minmax(13rem, 1fr) minmax(0, 2.3fr); gap: 0 1rem; padding: .4rem .6rem;
    margin: 0 0 .4rem;
  }
  .quote-line > .description-cell { grid-column: 1; grid-row: 1; margin: 0; }
  .quote-line > .line-grid {
    grid-column: 2; grid-row: 1; grid-template-columns: 5.5rem 6rem 7.5rem minmax(6rem, 1fr) minmax(7rem, 10rem);
  }
  .quote-line > .source { grid-column: 1 / -1; grid-row: 2; margin: .15rem 0 0; }
  .quote-line > .line-foot { grid-column: 1 / -1; grid-row: 3; }
  .quote-line textarea { min-height: 2.4rem; }
  .quote-line .line-grid .field { margin: 0; }
  .quote-line .line-grid select, .quote-line .line-grid input[type="text"] { width: 100%; min-width: 0; }
}
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
