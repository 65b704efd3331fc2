import crypto from 'node:crypto';
import type { StaticAsset } from '../form/assets.js';

/** The customer's page's stylesheet: one calm column, readable at 390 px, and a print sheet for A4 and Letter. */
const QUOTE_CSS = `
:root {
  --ink: #1c2430; --muted: #5b6675; --line: #dfe3e8; --paper: #fff; --bg: #f3f5f7; --accent: #1f4f8f; --ok: #1e6b3a;
  --warn: #8a4b00; --bad: #9b1c1c;
}
* { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0; background: var(--bg); color: var(--ink);
  font: 16px/1.5 -apple-system, "Segoe UI", Roboto, Helvetica, Arial, sans-serif;
}
main { max-width: 820px; margin: 0 auto; padding: 16px 12px 48px; }
.sheet { background: var(--paper); border: 1px solid var(--line); border-radius: 10px; padding: 20px 16px; }
@media (min-width: 640px) { main { padding: 32px 24px 64px; } .sheet { padding: 40px 44px; } }
h1, h2, h3 { line-height: 1.25; margin: 0; }
h1 { font-size: 1.5rem; }
h2 { font-size: 1.05rem; margin: 28px 0 8px; }
p { margin: 0 0 8px; }
.muted { color: var(--muted); }
.small { font-size: .875rem; }
.pre { white-space: pre-wrap; overflow-wrap: anywhere; }
.head {
  display: flex; flex-wrap: wrap; gap: 16px 32px; justify-content: space-between; border-bottom: 2px solid var(--ink);
  padding-bottom: 16px;
}
.business { min-width: 0; flex: 1 1 260px; overflow-wrap: anywhere; }
.business .name { font-size: 1.25rem; font-weight: 700; margin-bottom: 4px; }
.business p { margin: 0; }
.meta { flex: 0 1 auto; }
.meta .kind { font-size: .8rem; letter-spacing: .12em; text-transform: uppercase; color: var(--muted); }
.meta .number { font-size: 1.5rem; font-weight: 700; }
.facts { display: grid; grid-template-columns: auto 1fr; gap: 2px 12px; margin: 8px 0 0; font-size: .925rem; }
.facts dt { color: var(--muted); }
.facts dd { margin: 0; }
.for { margin-top: 20px; overflow-wrap: anywhere; }
.for p { margin: 0; }
.strong { font-weight: 600; }
.lead-text { margin-top: 12px; }
.keep-note { margin-top: 10px; }
.buttons.spaced { margin-top: 12px; }
.title { margin: 20px 0 0; font-size: 1.3rem; overflow-wrap: anywhere; }
.notice { border-radius: 8px; padding: 12px 14px; margin: 0 0 16px; border: 1px solid; }
.notice h2 { margin: 0 0 4px; font-size: 1rem; }
.notice p:last-child { margin: 0; }
.notice.info { background: #eef4fb; border-color: #c6d8ee; }
.notice.ok { background: #edf7f0; border-color: #b9dfc6; }
.notice.warn { background: #fdf5e9; border-color: #efd3a6; }
.notice.bad { background: #fbeeee; border-color: #eec3c3; }
.notice.preview {
  background: #fff8db; border: 2px dashed #b7791f; position: sticky; top: 8px; z-index: 1;
  box-shadow: 0 2px 8px rgba(0,0,0,.08);
}
.hash {
  font-family: ui-monospace, Menlo, Consolas, monospace; font-size: .8rem; overflow-wrap: anywhere;
  word-break: break-all;
}
table.lines { width: 100%; border-collapse: collapse; margin-top: 20px; }
table.lines th {
  text-align: left; font-size: .8rem; text-transform: uppercase; letter-spacing: .06em; color: var(--muted);
  font-weight: 600; border-bottom: 1px solid var(--ink); padding: 6px 4px;
}
table.lines td { border-bottom: 1px solid var(--line); padding: 10px 4px; vertical-align: top; }
table.lines .num { text-align: right; white-space: nowrap; font-variant-numeric: tabular-nums; }
.desc { overflow-wrap: anywhere; }
.line-qty { display: none; color: var(--muted); font-size: .875rem; }
.measured { display: block; margin-top: 2px; }
tr.optional .desc { color: var(--ink); }
tr.unticked td { color: var(--muted); }
tr.section-head th, tr.section-head td { background: inherit; }
tr.section-head th {
  white-space: normal; text-transform: none; letter-spacing: 0; font-size: 1rem; color: var(--ink);
  border-bottom: 1px solid var(--line); padding-top: 18px;
}
tbody.choice-head th {
  text-transform: none; letter-spacing: 0; font-size: .95rem; color: var(--ink); border-bottom: 0; padding-top: 22px;
}
tr.section-subtotal td { color: var(--muted); font-size: .9rem; border-bottom: 0; }
tbody.alternative tr.section-head th, tbody.alternative tr.section-head td { background: #f6f7f9; }
tbody.alternative tr.section-head th { padding-left: 8px; }
tbody.not-chosen td { color: var(--muted); }
tbody.not-chosen .amount { text-decoration: line-through; }
.pick { display: inline-flex; align-items: center; gap: 8px; cursor: pointer; font-weight: 600; }
.pick input { width: 20px; height: 20px; margin: 0; }
.badge {
  display: inline-block; font-size: .75rem; font-weight: 600; padding: 1px 8px; border-radius: 999px;
  background: #e7f0ff; color: #1a4fa0; margin-left: 6px;
}
.small-button { font-size: .85rem; padding: 4px 12px; margin-left: 8px; }
.scripted [data-update] { display: none; }
tr.deposit td { font-weight: 600; }
tr.unticked .amount { text-decoration: line-through; }
.tick { display: inline-flex; align-items: center; gap: 6px; font-size: .85rem; color: var(--accent); margin-top: 4px; }
.tick input { width: 18px; height: 18px; margin: 0; }
@media (max-width: 560px) {
  table.lines .col-qty, table.lines .col-price { display: none; }
  .line-qty { display: block; }
}
.totals { margin: 12px 0 0 auto; width: 100%; max-width: 340px; border-collapse: collapse; }
.totals td { padding: 4px 4px; font-variant-numeric: tabular-nums; }
.totals td:last-child { text-align: right; white-space: nowrap; }
.totals tr.total td { border-top: 2px solid var(--ink); font-weight: 700; font-size: 1.15rem; padding-top: 8px; }
.plan-grid { display: grid; grid-template-columns: repeat(auto-fill, minmax(min(100%, 16rem), 1fr)); gap: 16px; }
figure.plan { margin: 0; border: 1px solid var(--line); border-radius: 8px; padding: 10px; break-inside: avoid; }
figure.plan figcaption { font-weight: 600; margin-bottom: 6px; overflow-wrap: anywhere; }
svg.floor-plan { display: block; width: 100%; height: auto; max-height: 22rem; }
.plan-none { margin: 0; }
.answer { margin-top: 28px; border-top: 1px solid var(--line); padding-top: 8px; }
label.field { display: block; font-weight: 600; margin: 12px 0 4px; }
input[type=text], textarea {
  width: 100%; font: inherit; padding: 10px 12px; border: 1px solid #aab3be; border-radius: 6px; background: #fff;
  color: var(--ink);
}
textarea { min-height: 90px; }
input[type=text]:focus, textarea:focus, button:focus, input[type=checkbox]:focus {
  outline: 3px solid #9cc0ec; outline-offset: 1px;
}
.agree { display: flex; gap: 10px; align-items: flex-start; margin: 14px 0; font-weight: 600; }
.agree input { width: 22px; height: 22px; margin: 1px 0 0; flex: none; }
.error { color: var(--bad); font-size: .9rem; margin: 4px 0 0; }
.buttons { display: flex; flex-wrap: wrap; gap: 12px; align-items: center; }
button {
  font: inherit; font-weight: 600; border-radius: 6px; padding: 11px 20px; cursor: pointer;
  border: 1px solid var(--accent);
}
button.primary { background: var(--accent); color: #fff; min-width: 200px; }
button.secondary { background: #fff; color: var(--bad); border-color: #c9a3a3; }
button:disabled, input:disabled, textarea:disabled { opacity: .55; cursor: not-allowed; }
details.decline { margin-top: 20px; }
details.decline summary { cursor: pointer; color: var(--muted); }
.print-only { display: none !important; }
footer.foot { margin-top: 24px; text-align: center; }
@media print {
  @page { margin: 16mm 14mm; }
  body { background: #fff; font-size: 10.5pt; }
  main { max-width: none; padding: 0; }
  .sheet { border: 0; padding: 0; border-radius: 0; }
  .no-print, form.accept, details.decline, footer.foot { display: none !important; }
  .print-only { display: inline !important; }
  .screen-only { display: none !important; }
  .tick input { display: none; }
  .plan-grid { grid-template-columns: repeat(3, 1fr); gap: 8px; }
  svg.floor-plan { max-height: 55mm; }
  table.lines .col-qty, table.lines .col-price { display: table-cell !important; }
  .line-qty { display: none !important; }
  tr, .totals, .notice { break-inside: avoid; }
  .notice { background: none !important; }
  a { color: inherit; text-decoration: none; }
}
`;

/**
 * The page's one script: reports the view once the page is shown in a browser (so mail scanners that fetch the link
 * do not count), and keeps the totals in step with the optional lines' ticks. Amounts are integers in the smallest
 * unit; taxes are worked out with BigInt and rounded half away from zero, exactly as the server does.
 */
const QUOTE_JS = `(function () {
  var body = document.body;
  if (body.hasAttribute('data-view') && window.fetch) {
    fetch(location.pathname, { method: 'POST', credentials: 'same-origin', keepalive: true,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'do=view&formToken=' + encodeURIComponent(body.getAttribute('data-form-token') || '') })
      .catch(function () {});
  }
  var totals = document.querySelector('[data-totals]');
  if (!totals || typeof BigInt === 'undefined') return;
  var locale = totals.getAttribute('data-locale');
  var currency = totals.getAttribute('data-currency');
  var digits = Number(totals.getAttribute('data-digits'));
  var fmt;
  try { fmt = new Intl.NumberFormat(locale, { style: 'currency', currency: currency }); } catch (e) { return; }
  function text(minor) {
    var n = BigInt(minor), neg = n < 0n; if (neg) n = -n;
    var s = n.toString();
    if (digits > 0) {
      while (s.length <= digits) s = '0' + s;
      s = s.slice(0, s.length - digits) + '.' + s.slice(s.length - digits);
    }
    return fmt.format((neg ? '-' : '') + s);
  }
  function divRound(a, b) {
    var q = a / b, r = a % b;
    if (r < 0n) r = -r;
    if (r * 2n >= b) q += (a < 0n ? -1n : 1n);
    return q;
  }
  function recompute() {
    var subtotal = 0n, bases = {};
    document.querySelectorAll('tbody[data-section]').forEach(function (group) {
      var radio = group.querySelector('input[type=radio]');
      var taken = !group.hasAttribute('data-choice') || !radio || radio.checked;
      group.classList.toggle('not-chosen', !taken);
      var own = 0n;
      group.querySelectorAll('tr[data-amount]').forEach(function (row) {
        var tick = row.querySelector('input[type=checkbox]');
        var counted = !tick || tick.checked;
        row.classList.toggle('unticked', !counted);
        if (!counted) return;
        var amount = BigInt(row.getAttribute('data-amount'));
        own += amount;
        if (!taken) return;
        subtotal += amount;
        (row.getAttribute('data-taxes') || '').split(',').forEach(function (name) {
          if (name) bases[name] = (bases[name] || 0n) + amount;
        });
      });
      var cell = group.querySelector('[data-section-subtotal]'); if (cell) cell.textContent = text(own);
    });
    var total = subtotal;
    document.querySelectorAll('[data-tax]').forEach(function (cell) {
      var tax = divRound(
        BigInt(cell.getAttribute('data-rate')) * (bases[cell.getAttribute('data-tax')] || 0n), 100000n);
      total += tax; cell.textContent = text(tax);
    });
    var sub = document.querySelector('[data-subtotal]'); if (sub) sub.textContent = text(subtotal);
    var tot = document.querySelector('[data-total]'); if (tot) tot.textContent = text(total);
    var dep = document.querySelector('[data-deposit]');
    if (dep) {
      var base = total < 0n ? 0n : total;
      var due = dep.hasAttribute('data-percent')
        ? divRound(base * BigInt(dep.getAttribute('data-percent')), 100000n)
        : BigInt(dep.getAttribute('data-fixed') || '0');
      if (due > base) due = base; if (due < 0n) due = 0n;
      dep.textContent = text(due);
    }
  }
  body.classList.add('scripted');
  document.querySelectorAll('tr[data-amount] input[type=checkbox], tbody[data-section] input[type=radio]')
    .forEach(function (input) { input.addEventListener('change', recompute); });
})();
`;

function asset(body: string, contentType: string): StaticAsset {
  return { body, contentType, version: crypto.createHash('sha256').update(body).digest('hex').slice(0, 16) };
}

/** Served under /q/assets/ from our own origin; the page's CSP allows no other script or style. */
export const QUOTE_ASSETS: Record<string, StaticAsset> = {
  'quote.css': asset(QUOTE_CSS, 'text/css; charset=utf-8'),
  'quote.js': asset(QUOTE_JS, 'text/javascript; charset=utf-8'),
};

/** An asset's URL relative to a page at /q/{token}. */
export function quoteAssetHref(name: 'quote.css' | 'quote.js'): string {
  return `assets/${name}?v=${QUOTE_ASSETS[name]!.version}`;
}
