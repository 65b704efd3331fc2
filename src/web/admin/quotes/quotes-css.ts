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
.drag-cell, .lines-head { display: none; }
.quote-line .optional-cell label.first { margin-left: .75rem; }
.quote-line .line-buttons { display: inline-flex; gap: .35rem; }
.quote-line.moved { box-shadow: 0 0 0 2px var(--ok-soft); border-color: #b7dfc3; }
.moved-note { color: var(--ok); font-size: .85rem; font-weight: 600; margin: 0 0 .5rem; }
.quote-line.dragging { opacity: .55; }
.quote-line.moved:focus { outline: 3px solid var(--focus); outline-offset: 1px; }
/*
 * At desktop width a section's lines are rows of one table: every row the same columns (--line-cols), the column
 * names once over them (.lines-head), each field's own label kept for screen readers only. The free line stays a
 * small form of its own.
 */
@media (min-width: 64rem) {
  .lines-card {
    --line-cols: 1.75rem minmax(11rem, 1fr) 4.75rem 5rem 6.25rem 7.25rem 5.75rem 6rem 9.25rem;
  }
  .lines-card.has-sections {
    --line-cols: 1.75rem minmax(11rem, 1fr) 4.75rem 5rem 6.25rem 7.25rem 7.5rem 5.75rem 6rem 9.25rem;
  }
  .lines-card.scripted { --line-cols: 1.75rem minmax(11rem, 1fr) 4.75rem 5rem 6.25rem 7.25rem 5.75rem 6rem 5.75rem; }
  .lines-card.scripted.has-sections {
    --line-cols: 1.75rem minmax(11rem, 1fr) 4.75rem 5rem 6.25rem 7.25rem 7.5rem 5.75rem 6rem 5.75rem;
  }
  .lines-head, .quote-section .quote-line {
    display: grid; grid-template-columns: var(--line-cols); gap: 0 .5rem; align-items: center;
  }
  .lines-head {
    font-size: .8rem; font-weight: 600; color: var(--muted); padding: 0 .25rem .3rem;
    border-bottom: 1px solid var(--line);
  }
  .lines-head .amount { text-align: right; }
  .quote-section .quote-line {
    border: 0; border-bottom: 1px solid var(--line); border-radius: 0; margin: 0; padding: .35rem .25rem;
  }
  .quote-section .quote-line.moved { background: var(--ok-soft); }
  .quote-section .quote-line > .line-grid, .quote-section .quote-line > .line-foot,
  .quote-section .quote-line .line-foot > .actions { display: contents; }
  .quote-section .quote-line .field { margin: 0; min-width: 0; }
  .quote-section .quote-line .field > label, .quote-section .quote-line .taxes-cell > .muted,
  .quote-section .quote-line .wordy {
    position: absolute; width: 1px; height: 1px; overflow: hidden; clip: rect(0 0 0 0); white-space: nowrap;
  }
  .quote-section .quote-line input[type="text"], .quote-section .quote-line select {
    min-height: 2.1rem; padding: .3rem .45rem; width: 100%; min-width: 0;
  }
  .quote-section .quote-line textarea {
    min-height: 2.1rem; padding: .3rem .45rem; field-sizing: content; max-height: 8rem; resize: vertical;
  }
  .quote-section .quote-line .drag-cell { display: block; grid-column: 1; grid-row: 1; }
  .quote-section .quote-line .description-cell { grid-column: 2; grid-row: 1; }
  .quote-section .quote-line .quantity-cell { grid-column: 3; grid-row: 1; }
  .quote-section .quote-line .unit-cell { grid-column: 4; grid-row: 1; }
  .quote-section .quote-line .price-cell { grid-column: 5; grid-row: 1; }
  .quote-section .quote-line .taxes-cell { grid-column: 6; grid-row: 1; font-size: .875rem; }
  .quote-section .quote-line .taxes-cell label.radio { display: inline-flex; gap: .2rem; margin: 0 .35rem 0 0; }
  .quote-section .quote-line .section-cell { grid-column: 7; grid-row: 1; }
  .quote-section .quote-line .optional-cell { grid-column: -4; grid-row: 1; font-size: .875rem; }
  .quote-section .quote-line .optional-cell label { display: flex; margin: 0; }
  .quote-section .quote-line .optional-cell label.first { margin: .1rem 0 0; font-size: .8rem; white-space: nowrap; }
  .quote-section .quote-line .line-amount { grid-column: -3; grid-row: 1; text-align: right; }
  .quote-section .quote-line .line-buttons { grid-column: -2; grid-row: 1; justify-content: flex-end; }
  .quote-section .quote-line .line-buttons button { min-height: 2.1rem; padding: .25rem .55rem; }
  .lines-card.scripted .quote-section .quote-line .line-buttons button.move { display: none; }
  .quote-section .quote-line > .source, .quote-section .quote-line > .moved-note {
    grid-column: 2 / -1; margin: .2rem 0 0; font-size: .8rem;
  }
  .drag-handle {
    min-height: 2.1rem; width: 1.75rem; padding: 0; border-color: transparent; color: var(--muted); cursor: grab;
    font-size: 1.1rem; background: transparent;
  }
  .drag-handle:hover { border-color: #a3abba; }
  #new-line {
    display: grid; grid-template-columns: minmax(13rem, 1fr) minmax(0, 2.3fr); gap: 0 1rem; padding: .5rem .75rem;
  }
  #new-line > legend { grid-column: 1 / -1; }
  #new-line > .field { grid-column: 1; grid-row: 1; margin: 0; }
  #new-line > .line-grid { grid-column: 2; grid-row: 1; grid-template-columns: 5.5rem 6rem 7.5rem minmax(6rem, 1fr); }
  #new-line > .line-foot { grid-column: 1 / -1; grid-row: 2; }
  #new-line textarea { min-height: 2.4rem; }
  #new-line .taxes-cell label.radio { display: inline-flex; gap: .25rem; margin: .5rem .6rem 0 0; }
  #new-line .line-grid .field { margin: 0; }
  #new-line .line-grid select, #new-line .line-grid input[type="text"] { width: 100%; min-width: 0; }
}
@media (max-width: 40rem) {
  .quote-line .line-grid { grid-template-columns: 1fr 1fr; }
  .quote-line .line-grid label { white-space: normal; }
  .quote-line .taxes-cell label.radio { display: inline-flex; gap: .25rem; margin: .35rem .75rem 0 0; }
  table.quotes thead { display: none; }
  table.quotes tr { display: block; border-bottom: 1px solid var(--line); padding: .5rem 0; }
  table.quotes td { display: block; border: 0; padding: .15rem .75rem; }
  table.quotes td[data-label]::before { content: attr(data-label) ": "; color: var(--muted); font-size: .8rem; }
  table.quotes td.amount { text-align: left; }
}
`;
