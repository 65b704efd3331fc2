/**
 * The admin app's only stylesheet (no inline styles: the CSP forbids them). Calm and legible: system fonts, one
 * accent colour, visible focus (3:1 against the page), tables that turn into stacked rows below 720 px.
 */
export const ADMIN_CSS = `
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
:root {
  --ink: #1b2230; --muted: #5a6478; --line: #dfe3ea; --soft: #f5f6f8; --card: #fff;
  --accent: #1f5fd1; --accent-ink: #fff; --accent-soft: #e8f0fe; --danger: #b3261e; --danger-soft: #fdecea;
  --ok: #1e6b3a; --ok-soft: #e6f4ea; --focus: #7aa7ff; --radius: 10px;
}
body {
  margin: 0; background: var(--soft); color: var(--ink);
  font: 15px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
a { color: var(--accent); text-underline-offset: 2px; }
a:focus-visible, button:focus-visible, input:focus-visible, select:focus-visible, textarea:focus-visible,
summary:focus-visible {
  outline: 3px solid var(--focus); outline-offset: 2px;
}
code, .mono { font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace; font-size: .9em; }
h1 { font-size: 1.5rem; line-height: 1.25; margin: 0 0 .25rem; }
h2 { font-size: 1.1rem; margin: 0 0 .75rem; }
h3 { font-size: 1rem; margin: 1rem 0 .5rem; }
p { margin: 0 0 .75rem; }
.muted { color: var(--muted); }
.small { font-size: .875rem; }

/* top bar: one line (brand, workspace, screens, person); on a phone the screens fold into a Menu under the bar */
.topbar { position: relative; background: #fff; border-bottom: 1px solid var(--line); }
.topbar-inner {
  max-width: 72rem; margin: 0 auto; padding: .5rem 1rem; display: flex; align-items: center; gap: .5rem .75rem;
  flex-wrap: wrap;
}
.brand {
  position: relative; font-weight: 700; color: var(--ink); text-decoration: none; letter-spacing: -.01em; display: flex;
  align-items: center; gap: .5rem; flex: none;
}
.brand-mark {
  position: relative; width: 1.5rem; height: 1.5rem; border-radius: 6px; background: var(--accent);
  display: inline-block; flex: none;
}
.brand-mark::after { content: ""; position: absolute; inset: 28%; border-radius: 3px; background: #fff; opacity: .9; }
.nav { display: flex; gap: .15rem; flex-wrap: wrap; margin: 0; padding: 0; list-style: none; }
.nav a {
  display: flex; align-items: center; gap: .3rem; padding: .45rem .55rem; border-radius: 8px; color: var(--muted);
  text-decoration: none; font-weight: 550; white-space: nowrap;
}
.nav a:hover { background: var(--soft); color: var(--ink); }
.nav a[aria-current="page"] { background: var(--accent-soft); color: var(--accent); }
.topbar-end { margin-left: auto; display: flex; align-items: center; gap: .5rem; flex: none; }
.topbar-end button { min-height: 2.25rem; padding: .3rem .75rem; }
/* The person as initials (the email is the link's name, its title and on Account), so the bar stays one line. */
.who { position: relative; display: inline-flex; align-items: center; text-decoration: none; border-radius: 50%; }
.who-email {
  position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap;
}
.who-initials {
  display: inline-flex; align-items: center; justify-content: center; width: 2.25rem; height: 2.25rem;
  border-radius: 50%; background: var(--accent-soft); color: var(--accent); font-weight: 700; font-size: .8rem;
}
.who:hover .who-initials { background: #d5e3fc; }
.who[aria-current="page"] .who-initials { background: var(--accent); color: #fff; }
.switcher { position: relative; min-width: 0; }
.switcher summary {
  list-style: none; cursor: pointer; padding: .4rem .7rem; border: 1px solid var(--line); border-radius: 8px;
  font-weight: 600; max-width: 16rem; overflow: hidden; text-overflow: ellipsis; white-space: nowrap;
}
.workspace-name {
  display: block; padding: .4rem .7rem; font-weight: 600; max-width: 16rem; overflow: hidden; text-overflow: ellipsis;
  white-space: nowrap;
}
.switcher summary::-webkit-details-marker { display: none; }
.switcher summary::after { content: " ▾"; color: var(--muted); }
.switcher ul {
  position: absolute; z-index: 10; margin: .25rem 0 0; padding: .35rem; list-style: none; background: #fff;
  border: 1px solid var(--line); border-radius: 10px; box-shadow: 0 8px 24px rgba(16,24,40,.12); min-width: 14rem;
}
.switcher li a { display: block; padding: .45rem .6rem; border-radius: 6px; color: var(--ink); text-decoration: none; }
.switcher li a:hover { background: var(--soft); }
.switcher li a[aria-current="true"] { font-weight: 700; }

/* A fold (<details class="unfold">) that is folded on a phone only: wider, where the browser can style the details'
   content, the summary goes and the content sits in the page as if there were no fold. (A browser that cannot keeps
   the fold, which still works.) The top bar's Menu and the inbox's Filters. */
@media (min-width: 721px) {
  @supports selector(::details-content) {
    details.unfold { display: contents; }
    details.unfold > summary { display: none; }
    details.unfold::details-content { content-visibility: visible; display: contents; }
  }
}
/* The Menu: a button in the bar; open, the screens drop under the bar as one tall list (big enough to tap). */
.menu > summary {
  list-style: none; cursor: pointer; display: inline-flex; align-items: center; gap: .5rem; min-height: 2.25rem;
  padding: .3rem .7rem; border: 1px solid #a3abba; border-radius: 8px; font-weight: 600; color: var(--ink);
  white-space: nowrap;
}
.menu > summary::-webkit-details-marker { display: none; }
.menu-icon {
  position: relative; display: inline-block; width: 1rem; height: 2px; background: currentColor; border-radius: 1px;
  box-shadow: 0 -5px 0 currentColor, 0 5px 0 currentColor;
}
.menu[open] > summary { background: var(--accent-soft); border-color: var(--accent); color: var(--accent); }
.menu > .screens {
  position: absolute; z-index: 20; left: 0; right: 0; top: 100%; background: #fff; border-bottom: 1px solid var(--line);
  box-shadow: 0 12px 24px rgba(16,24,40,.14); padding: .4rem .75rem .75rem;
}
.menu > .screens > .nav { flex-direction: column; max-width: 72rem; margin: 0 auto; }
.menu > .screens > .nav a { padding: .65rem .75rem; font-size: 1rem; }
@media (min-width: 721px) {
  @supports selector(::details-content) {
    .menu > .screens { position: static; padding: 0; border: 0; box-shadow: none; background: none; }
    .menu > .screens > .nav { flex-direction: row; margin: 0; }
    .menu > .screens > .nav a { padding: .45rem .55rem; font-size: inherit; }
  }
}

/* Below this width the full nav of an owner would wrap: the brand keeps its mark, its name stays the link's name. */
@media (max-width: 85rem) {
  .brand-name {
    position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap;
  }
}
/* Wide enough for every screen on one line: a long workspace name gives way (ellipsis) rather than wrap the bar.
   The bar may run wider than the page's column, so the name keeps as much of itself as the screen allows. */
@media (min-width: 75rem) {
  .topbar-inner { flex-wrap: nowrap; max-width: 84rem; }
  .switcher { flex: 0 1 auto; min-width: 5rem; max-width: 20rem; }
  .switcher summary, .workspace-name { max-width: 100%; }
  .nav { flex-wrap: nowrap; }
}

main { max-width: 72rem; margin: 0 auto; padding: 1.5rem 1rem 4rem; }
.page-head {
  display: flex; align-items: flex-end; justify-content: space-between; gap: 1rem; flex-wrap: wrap;
  margin-bottom: 1.25rem;
}
.page-head p { margin: 0; }
.card {
  background: var(--card); border: 1px solid var(--line); border-radius: var(--radius); padding: 1.25rem;
  margin: 0 0 1.25rem; box-shadow: 0 1px 2px rgba(16,24,40,.04);
}
.card > :last-child { margin-bottom: 0; }
.grid-2 {
  display: grid; grid-template-columns: repeat(auto-fit, minmax(18rem, 1fr)); gap: 1.25rem; margin: 0 0 1.25rem;
}
.grid-2 > .card { margin: 0; }

/* forms and buttons */
form.inline { display: inline; }
.field { margin: 0 0 1rem; }
label { display: block; font-weight: 600; margin: 0 0 .3rem; }
.hint { color: var(--muted); font-size: .875rem; margin: .25rem 0 0; }
input[type="text"], input[type="email"], input[type="tel"], input[type="password"], input[type="url"],
input[type="number"], select, textarea {
  display: block; width: 100%; max-width: 32rem; font: inherit; color: inherit; background: #fff;
  border: 1px solid #a3abba; border-radius: 8px; padding: .5rem .65rem; min-height: 2.5rem;
}
textarea { min-height: 5rem; resize: vertical; }
input[type="color"] {
  display: block; width: 4.5rem; height: 2.75rem; padding: 2px; border: 1px solid #a3abba; border-radius: 8px;
  background: #fff;
}
[aria-invalid="true"] { border-color: var(--danger); border-width: 2px; }
.field-error { color: var(--danger); font-weight: 600; font-size: .9rem; margin: .3rem 0 0; }
.button, button {
  display: inline-flex; align-items: center; justify-content: center; gap: .35rem; font: inherit; font-weight: 600;
  min-height: 2.5rem; padding: .45rem .95rem; border-radius: 8px; border: 1px solid var(--accent);
  background: var(--accent); color: var(--accent-ink); cursor: pointer; text-decoration: none; white-space: nowrap;
}
.button:hover, button:hover { filter: brightness(.95); }
.button.secondary, button.secondary { background: #fff; color: var(--ink); border-color: #a3abba; }
.button.danger, button.danger { background: #fff; color: var(--danger); border-color: #d9a3a0; }
button.link {
  background: none; border: none; color: var(--accent); padding: 0; min-height: 0; font-weight: 550;
  text-decoration: underline; text-underline-offset: 2px;
}
.actions { display: flex; gap: .5rem; flex-wrap: wrap; align-items: center; }
.actions select { width: auto; }
[hidden] { display: none !important; }

/* notices */
.notice { padding: .75rem 1rem; border-radius: 8px; margin: 0 0 1.25rem; border: 1px solid; }
.notice.ok { background: var(--ok-soft); color: var(--ok); border-color: #b7dfc3; }
.notice.error { background: var(--danger-soft); color: var(--danger); border-color: #f1c0bb; }
.notice.info { background: var(--accent-soft); color: #183f8a; border-color: #c4d7fb; }
.notice.warn { background: #fff7e6; color: #7a4b00; border-color: #f0d49a; }
.error-text { color: var(--danger); }

/* a choice among a few: one radio per line, its hint under the label */
fieldset.field { border: 0; padding: 0; margin: 0 0 1.25rem; min-width: 0; }
fieldset.field legend { font-weight: 600; padding: 0; margin: 0 0 .4rem; }
fieldset.retention, fieldset.quotes, fieldset.taxes, fieldset.tax-numbers {
  border: 1px solid var(--line); border-radius: var(--radius); padding: .75rem 1rem .25rem; margin: 0 0 1.25rem;
  min-width: 0;
}
fieldset.retention legend, fieldset.quotes legend, fieldset.taxes legend, fieldset.tax-numbers legend {
  font-weight: 650; padding: 0 .35rem;
}
fieldset.retention > .hint, fieldset.quotes > .hint { margin: 0 0 1rem; }
.tax-row { display: flex; flex-wrap: wrap; gap: .5rem 1rem; align-items: end; margin: 0 0 .75rem; }
.tax-row label { display: flex; flex-direction: column; gap: .25rem; font-weight: 600; }
.tax-row label:has(input[type="checkbox"]) {
  flex-direction: row; align-items: center; font-weight: 400; padding-bottom: .5rem;
}
table.audit td.ids code { word-break: break-all; font-size: .8rem; }
table.audit td code { font-size: .85rem; }
label.radio {
  display: flex; gap: .6rem; align-items: flex-start; font-weight: 400; margin: 0 0 .45rem; cursor: pointer;
}
label.radio input { margin: .3rem 0 0; flex: none; width: 1rem; height: 1rem; }
label.radio .hint { display: block; }

/* key and copyable values */
.secret { display: flex; gap: .5rem; align-items: center; flex-wrap: wrap; }
.secret code { flex: 1 1 12rem; min-width: 0; }
.secret code, .copy-value {
  background: var(--soft); border: 1px solid var(--line); border-radius: 8px; padding: .45rem .6rem;
  overflow-wrap: anywhere; word-break: break-all;
}
pre {
  background: #161b26; color: #e8ebf2; padding: .85rem 1rem; border-radius: 8px; overflow-x: auto; font-size: .85rem;
  line-height: 1.45; margin: 0 0 .75rem; white-space: pre-wrap; word-break: break-all;
}
.copy-row { display: flex; gap: .5rem; align-items: flex-start; margin: 0 0 .75rem; }
.copy-row > :first-child { flex: 1; min-width: 0; margin: 0; }
.status-line { font-size: .875rem; color: var(--ok); margin: .25rem 0 .5rem; }
.status-line:empty { margin: 0; }
dl.facts { display: grid; grid-template-columns: max-content 1fr; gap: .35rem 1rem; margin: 0 0 1rem; }
dl.facts dt { color: var(--muted); }
dl.facts dd { margin: 0; overflow-wrap: anywhere; }

/* tables */
table.list { width: 100%; border-collapse: collapse; background: #fff; }
table.list th, table.list td {
  text-align: left; padding: .65rem .75rem; border-bottom: 1px solid var(--line); vertical-align: top;
}
table.list th {
  font-size: .8rem; text-transform: uppercase; letter-spacing: .04em; color: var(--muted); font-weight: 650;
  background: #fafbfc;
}
table.list tr:last-child td { border-bottom: none; }
table.list td.num { white-space: nowrap; }
.table-card { padding: 0; overflow: hidden; }
.table-card > h2 { margin: 0; padding: .9rem .75rem .6rem; font-size: 1.05rem; }
.table-card > .tabs { padding: .75rem .75rem 0; margin: 0 0 .75rem; }
.table-head {
  display: flex; justify-content: space-between; align-items: center; gap: .75rem; flex-wrap: wrap;
  padding: .75rem .75rem .5rem;
}
.table-head h2 { margin: 0; font-size: 1.05rem; }
.table-scroll { overflow-x: auto; }
table.measurements td.num, table.measurements th.num { text-align: right; white-space: nowrap; }
table.measurements td.rooms { min-width: 10rem; }
table.measurements td.room-details dl.facts { margin: .4rem 0; font-size: .85rem; }
table.measurements td.room-details summary { cursor: pointer; white-space: nowrap; }
table.measurements th, table.measurements td { padding-left: .5rem; padding-right: .5rem; }
table.measurements tfoot th, table.measurements tfoot td {
  font-weight: 650; border-top: 2px solid var(--line); background: #fafbfc;
}
tr.unrecognized td { color: var(--muted); }
/* A row's buttons stand apart, on a phone too (where the cells stack as blocks). */
table.list td.actions, table.list td.actions form { display: flex; gap: .5rem; flex-wrap: wrap; align-items: center; }
/* The price list's item fields: as many columns as fit, "Measured by" as wide as its longest choice. */
.item-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 14rem), 1fr)); gap: 0 1rem; }
.item-grid .field:has(#f-measure) { grid-column: span 2; }
@media (max-width: 720px) { .item-grid .field:has(#f-measure) { grid-column: auto; } }
.item-grid select { width: 100%; }
details.rename { margin-top: .2rem; font-size: .85rem; }
details.rename > summary { cursor: pointer; color: var(--accent); width: max-content; }
.rename-form { display: flex; flex-wrap: wrap; gap: .4rem; align-items: center; margin-top: .4rem; max-width: 22rem; }
.rename-form label { flex-basis: 100%; margin: 0; font-weight: 600; }
.rename-form input { flex: 1 1 9rem; min-width: 0; }
.rename-form .field-error { flex-basis: 100%; margin: 0; }
.plans h2 { font-size: 1.15rem; margin: 1.5rem 0 .75rem; }
.plan-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 22rem), 1fr)); gap: 1rem; }
figure.plan { margin: 0; }
figure.plan figcaption { margin-bottom: .5rem; }
svg.floor-plan { display: block; width: 100%; height: auto; max-height: 28rem; background: #fff; }
pre.room-json {
  max-height: 20rem; overflow: auto; background: var(--soft); padding: .6rem; border-radius: 8px; font-size: .8rem;
  white-space: pre-wrap; overflow-wrap: anywhere;
}
@media print {
  .topbar, .actions, form, .button, .pager, .tabs { display: none !important; }
  .card { box-shadow: none; border-color: #999; break-inside: avoid; }
  svg.floor-plan { max-height: none; }
}
ul.plain { list-style: none; margin: 0; padding: 0; }
ul.plain > li + li { border-top: 1px solid var(--line); margin-top: .75rem; padding-top: .75rem; }
ol.form-fields { list-style: none; margin: 0 0 1rem; padding: 0; }
.form-field-row {
  display: flex; gap: 1rem; align-items: center; justify-content: space-between; flex-wrap: wrap; padding: .75rem 0;
}
.form-field-row + .form-field-row { border-top: 1px solid var(--line); }
.form-field-text {
  display: flex; flex-direction: column; gap: .15rem; min-width: 12rem; flex: 1; overflow-wrap: anywhere;
}
.form-field-row.hidden-field strong { color: var(--muted); text-decoration: line-through; }
/* A field's open Edit form takes the row's whole width, under its name and buttons. */
.form-field-row details.edit-field[open] { flex-basis: 100%; }
.form-field-row details.edit-field[open] form { max-width: 32rem; }
.contrast-hint { font-weight: 600; margin: .25rem 0 .5rem; }
.contrast-hint.ok { color: var(--ok); }
.contrast-hint.bad { color: var(--danger); }
.field.check { display: flex; align-items: center; gap: .5rem; }
.field.check input { width: auto; margin: 0; }
.field.check label { margin: 0; }
.rooms { overflow-wrap: anywhere; }
.badge {
  display: inline-block; padding: .1rem .5rem; border-radius: 999px; font-size: .8rem; font-weight: 650;
  background: var(--soft); color: var(--muted); border: 1px solid var(--line);
}
.badge.on { background: var(--ok-soft); color: var(--ok); border-color: #b7dfc3; }
.badge.off { background: var(--danger-soft); color: var(--danger); border-color: #f1c0bb; }
.pager { display: flex; justify-content: space-between; align-items: center; gap: 1rem; padding: .75rem; }
.empty { padding: 2rem 1rem; text-align: center; color: var(--muted); }

/* sign-in pages */
.auth { max-width: 24rem; margin: 8vh auto 0; }
.auth .card { padding: 1.75rem 1.5rem; }
.auth h1 { margin-bottom: 1rem; }
.auth input { max-width: none; }
.auth button { width: 100%; }

@media (max-width: 720px) {
  main { padding: 1rem .75rem 3rem; }
  .topbar-inner {
    display: grid; grid-template-columns: auto minmax(0, 1fr) auto auto; grid-template-areas: "brand switcher menu end";
    gap: .5rem; padding: .45rem .75rem;
  }
  .brand { grid-area: brand; }
  .brand-mark { width: 1.75rem; height: 1.75rem; }
  .switcher { grid-area: switcher; justify-self: start; max-width: 100%; }
  .switcher summary, .workspace-name { max-width: 100%; }
  .workspace-name { padding-left: .25rem; padding-right: .25rem; }
  .topbar-end { grid-area: end; margin-left: 0; gap: .4rem; }
  .menu { grid-area: menu; }
  /* The three bars alone (the word stays the button's name), so a long workspace name keeps room. */
  .menu > summary { padding: .3rem .6rem; min-width: 2.5rem; justify-content: center; }
  .menu-label {
    position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap;
  }
  table.list thead { display: none; }
  table.list, table.list tbody, table.list tr, table.list td { display: block; width: 100%; }
  /* A scan's totals stack like a room does (they once stayed a table row, their figures overlapping). */
  table.list tfoot, table.list tfoot th { display: block; width: 100%; }
  table.list tfoot th { padding: .2rem .9rem; }
  table.list td.empty-cell { display: none; }
  table.measurements td.num { text-align: left; }
  table.list tr { border-bottom: 1px solid var(--line); padding: .5rem 0; }
  table.list td { border: none; padding: .2rem .9rem; }
  /* The label sits in its own column, so a long value (room names, a device) wraps beside it, not under it. */
  table.list td[data-label] { position: relative; padding-left: 7rem; min-height: 1.6rem; }
  table.list td[data-label]::before {
    content: attr(data-label); position: absolute; left: .9rem; top: .35rem; width: 5.6rem; font-size: .75rem;
    text-transform: uppercase; letter-spacing: .04em; color: var(--muted); font-weight: 650;
  }
  /* Labels longer than the default column ("Quarantined"): a wider one, so figures never run into them. */
  table.list.wide-labels td[data-label] { padding-left: 9rem; }
  table.list.wide-labels td[data-label]::before { width: 7.6rem; }
  .grid-2 { grid-template-columns: 1fr; }
  dl.facts { grid-template-columns: 1fr; gap: 0; }
  dl.facts dd { margin-bottom: .5rem; }
  .copy-row { flex-direction: column; align-items: stretch; }
}
`;
