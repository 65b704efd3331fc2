/** The Leads, Quarantine and Stages screens' few styles, appended to admin.css. */
export const LEADS_CSS = `
/* leads inbox */
.tabs { display: flex; gap: .25rem; flex-wrap: wrap; margin: 0 0 1rem; padding: 0; list-style: none; }
.tabs a { display: inline-flex; align-items: center; gap: .4rem; padding: .4rem .75rem; border: 1px solid var(--line); border-radius: 999px; color: var(--ink); text-decoration: none; background: #fff; }
.tabs a[aria-current="page"] { border-color: var(--accent); background: var(--accent-soft); color: var(--accent); font-weight: 650; }
.count { display: inline-block; min-width: 1.4rem; padding: 0 .4rem; border-radius: 999px; background: var(--accent); color: #fff; font-size: .75rem; font-weight: 700; text-align: center; }
.filters { display: grid; grid-template-columns: repeat(auto-fit, minmax(9.5rem, 1fr)); gap: .75rem; align-items: end; }
.filters .field { margin: 0; }
input[type="search"], input[type="date"] { display: block; width: 100%; font: inherit; color: inherit; background: #fff; border: 1px solid #a3abba; border-radius: 8px; padding: .5rem .65rem; min-height: 2.5rem; }
.filters .wide { grid-column: span 2; }
.filters input, .filters select { width: 100%; max-width: none; }
tr.is-new td:first-child a { font-weight: 700; }
.badge.new { background: var(--accent); color: #fff; border-color: var(--accent); }
ol.history { margin: 0; padding-left: 1.25rem; }
ol.history li { margin: 0 0 .35rem; }
.stage-row { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; }
.stage-row input, .stage-row select { width: auto; display: inline-block; }
.stage-row label { margin: 0; }
@media (max-width: 720px) {
  .filters .wide { grid-column: auto; }
}
`;
