/** The Leads, Quarantine and Stages screens' few styles, appended to admin.css. */
export const LEADS_CSS = `
/* leads inbox */
.tabs { display: flex; gap: .25rem; flex-wrap: wrap; margin: 0 0 1rem; padding: 0; list-style: none; }
.tabs a {
  display: inline-flex; align-items: center; gap: .4rem; padding: .4rem .75rem; border: 1px solid var(--line);
  border-radius: 999px; color: var(--ink); text-decoration: none; background: #fff;
}
.tabs a[aria-current="page"] {
  border-color: var(--accent); background: var(--accent-soft); color: var(--accent); font-weight: 650;
}
.count {
  display: inline-block; min-width: 1.4rem; padding: 0 .4rem; border-radius: 999px; background: var(--accent);
  color: #fff; font-size: .75rem; font-weight: 700; text-align: center;
}
.count.quiet { background: var(--muted); }
.filters { display: grid; grid-template-columns: repeat(auto-fit, minmax(9.5rem, 1fr)); gap: .75rem; align-items: end; }
.filters .field { margin: 0; }
/* Filters: a fold on a phone (a button; the fields under it when open), wide the fields sit in the grid
   (details.unfold) */
.filter-fold > summary {
  list-style: none; cursor: pointer; display: inline-flex; align-items: center; gap: .4rem; min-height: 2.5rem;
  padding: .45rem .95rem; border: 1px solid #a3abba; border-radius: 8px; font-weight: 600; background: #fff;
  white-space: nowrap;
}
.filter-fold > summary::-webkit-details-marker { display: none; }
.filter-fold > summary::after { content: "▾"; color: var(--muted); }
.filter-fold[open] > summary::after { content: "▴"; }
.filter-fields {
  display: grid; grid-template-columns: repeat(auto-fit, minmax(9.5rem, 1fr)); gap: .75rem; align-items: end;
  margin: .75rem 0 0;
}
@media (min-width: 721px) {
  @supports selector(::details-content) {
    .filter-fields { display: contents; }
  }
}
input[type="search"], input[type="date"] {
  display: block; width: 100%; font: inherit; color: inherit; background: #fff; border: 1px solid #a3abba;
  border-radius: 8px; padding: .5rem .65rem; min-height: 2.5rem;
}
.filters .wide { grid-column: span 2; }
.filters input, .filters select { width: 100%; max-width: none; }
tr.is-new td:first-child a { font-weight: 700; }
/* a row: the name with its marks, the message's first line under it (one line, ended by an ellipsis) */
table.leads td.lead-cell { width: 32%; max-width: 0; overflow-wrap: anywhere; }
table.leads td { overflow-wrap: break-word; }
.preview {
  display: block; margin-top: .1rem; color: var(--muted); font-size: .875rem; overflow: hidden; text-overflow: ellipsis;
  white-space: nowrap;
}
.mark {
  display: inline-block; font-size: .75rem; font-weight: 650; line-height: 1.2; padding: .05rem .35rem;
  border-radius: 4px; vertical-align: .1em; white-space: nowrap;
}
.mark.ok { color: var(--ok); background: var(--ok-soft); }
.mark.warn { color: #7a4b00; background: #fff7e6; }
.badge.new { background: var(--accent); color: #fff; border-color: var(--accent); }
ol.history { margin: 0; padding-left: 1.25rem; }
ol.history li { margin: 0 0 .35rem; }
.stage-row { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
.stage-row input, .stage-row select { width: auto; display: inline-block; }
.stage-row label { margin: 0; }
/* stages: every cell centred on the row's controls; Up, Down and Remove keep their own column */
table.stages td { vertical-align: middle; }
table.stages th.num, table.stages td.num { text-align: right; width: 5rem; }
table.stages .order { display: grid; grid-template-columns: repeat(2, 4.5rem); gap: .5rem; }
table.stages .order .up { grid-column: 1; }
table.stages .order .down { grid-column: 2; }
table.stages .order button { width: 100%; }
table.stages .stage-row.remove { display: grid; grid-template-columns: 8.75rem 10rem max-content; align-items: center; }
table.stages .stage-row.remove button { grid-column: 3; }
@media (max-width: 720px) {
  .filters { display: flex; flex-wrap: wrap; align-items: flex-start; }
  .filters .wide { flex: 1 1 100%; }
  .filter-fold { flex: 0 1 auto; }
  .filter-fold[open] { flex-basis: 100%; }
  .filters > .actions { min-height: 2.5rem; }
  /* a lead on a phone: name and marks, the message, then contact, then source, stage and time in small type */
  table.leads tr { display: flex; flex-wrap: wrap; align-items: baseline; gap: .15rem .75rem; padding: .7rem .9rem; }
  table.leads td, table.leads td[data-label] {
    display: block; width: auto; max-width: 100%; min-height: 0; padding: 0;
  }
  table.leads td[data-label]::before { content: none; }
  table.leads td.lead-cell { flex: 1 1 100%; max-width: 100%; }
  table.leads td:empty { display: none; }
  table.leads td.meta { font-size: .8rem; color: var(--muted); }
  table.leads tr::before { content: ""; flex-basis: 100%; height: 0; order: 1; }
  table.leads td.meta { order: 2; }
  table.stages td.num { width: 100%; text-align: left; }
  table.stages .stage-row.remove { grid-template-columns: max-content minmax(0, 10rem); }
  table.stages .stage-row.remove button { grid-column: 1; }
}
`;
