/** Styles of the Report (appended to admin.css): the summary's tiles, the range form, the chart, the breakdowns. */
export const REPORT_CSS = `
h2.report-period { font-size: 1.05rem; margin: 0 0 .75rem; }
form.report-range { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: flex-end; margin: 0 0 1.25rem; }
form.report-range .field { margin: 0; }
form.report-range input[type="date"] { width: 11rem; }
dl.report-tiles {
  display: grid; grid-template-columns: repeat(auto-fill, minmax(11rem, 1fr)); gap: 1rem 1.25rem; margin: 0;
}
dl.report-tiles .tile { margin: 0; }
dl.report-tiles dt { color: var(--muted); font-size: .85rem; }
dl.report-tiles dd { margin: .15rem 0 0; }
dl.report-tiles .value { display: block; font-size: 1.5rem; font-weight: 700; font-variant-numeric: tabular-nums; }
dl.report-tiles .note { display: block; color: var(--muted); font-size: .8rem; }
svg.win-rate-chart { display: block; width: 100%; max-width: 28rem; height: auto; margin: .5rem 0 0; }
svg.win-rate-chart text { font-weight: 400; }
svg.win-rate-chart .month { font-size: 15px; fill: var(--ink); }
svg.win-rate-chart .rate { font-size: 15px; font-weight: 700; fill: var(--ink); }
svg.win-rate-chart .count { font-size: 13px; fill: var(--muted); }
svg.win-rate-chart .track { fill: var(--soft); }
svg.win-rate-chart .bar { fill: var(--accent); }
section.report-table > .hint { margin: 0; padding: 0 .75rem .6rem; }
.report-scroll { overflow-x: auto; }
@media (min-width: 40.01rem) { table.report th, table.report td { padding: .55rem .6rem; } }
table.report thead th { vertical-align: bottom; }
table.report td.num, table.report th.num { text-align: right; font-variant-numeric: tabular-nums; }
table.report tr:last-child th { border-bottom: none; }
table.report tbody th {
  font-size: 1rem; text-transform: none; letter-spacing: normal; color: var(--ink); background: none; font-weight: 600;
}
@media (max-width: 40rem) {
  dl.report-tiles { grid-template-columns: 1fr 1fr; gap: .75rem; }
  dl.report-tiles .value { font-size: 1.25rem; }
  table.report tbody th { display: block; padding: .2rem .9rem .35rem; }
  table.report td.num, table.report td.amount { text-align: left; }
}
`;
