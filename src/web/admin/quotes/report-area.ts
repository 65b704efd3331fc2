import { formatDay } from '../../../domain/dates.js';
import { formatMoney } from '../../../domain/money.js';
import { quoteReport, type QuoteReport, type ReportFigures } from '../../../domain/reports/quote-report.js';
import { checkPeriod, REPORT_PERIODS, type ReportPeriod } from '../../../domain/reports/report-period.js';
import { getWorkspaceSettings } from '../../../domain/settings/workspace-settings.js';
import { html, type SafeHtml } from '../../html.js';
import type { AdminArea, WorkspaceCall } from '../admin-route.js';
import { workspacePath } from '../admin-route.js';
import type { FormErrors } from '../form-controls.js';
import { winRateChart } from './win-rate-chart.js';

const PERIOD_LABELS: Record<ReportPeriod, string> = {
  month: 'This month',
  '3-months': 'Last 3 months',
  '12-months': '12 months',
};

const percent = (value: number | null) => (value === null ? '—' : `${value} %`);
const days = (value: number | null) => (value === null ? '—' : `${value}`);

function dayText(day: string, locale: string): string {
  return formatDay(day, locale);
}

/** One figure of the summary: a label above a large value, a note below. */
const tile = (label: string, value: string, note?: string) =>
  html`<div class="tile"><dt>${label}</dt><dd><span class="value">${value}</span>${
    note ? html`<span class="note">${note}</span>` : ''
  }</dd></div>`;

/** The columns every breakdown shares, in the order of the summary. */
function figureCells(row: ReportFigures, money: (minor: number) => string): SafeHtml {
  return html`<td data-label="Sent" class="num">${row.sent}</td>
<td data-label="Accepted" class="num">${row.accepted}</td>
<td data-label="Declined" class="num">${row.declined}</td>
<td data-label="Unanswered" class="num">${row.unanswered}</td>
<td data-label="Won/answered" class="num">${percent(row.winRate.ofAnswered)}</td>
<td data-label="Won/sent" class="num">${percent(row.winRate.ofSent)}</td>
<td data-label="Value sent" class="amount">${money(row.valueSent)}</td>
<td data-label="Value won" class="amount">${money(row.valueWon)}</td>
<td data-label="Median days" class="num">${days(row.medianDaysToAnswer)}</td>`;
}

const FIGURE_HEADS = html`<th scope="col" class="num">Sent</th><th scope="col" class="num">Accepted</th>
<th scope="col" class="num">Declined</th><th scope="col" class="num">Unanswered</th>
<th scope="col" class="num">Won / answered</th><th scope="col" class="num">Won / sent</th>
<th scope="col" class="amount">Value sent</th><th scope="col" class="amount">Value won</th>
<th scope="col" class="num">Median days</th>`;

interface ReportForm {
  period: ReportPeriod | undefined;
  from: string;
  to: string;
  errors: FormErrors;
}

function periodNav(call: WorkspaceCall, form: ReportForm): SafeHtml {
  const base = workspacePath(call.workspace.workspaceId, 'quotes/report');
  const current = form.from ? undefined : (form.period ?? '3-months');
  return html`<nav aria-label="Period"><ul class="status-filters">
${REPORT_PERIODS.map(
  (p) =>
    html`<li><a href="${base}?period=${p}"${
      current === p ? html` aria-current="page"` : ''
    }>${PERIOD_LABELS[p]}</a></li>`,
)}
</ul></nav>
<form method="get" action="${base}" class="report-range" novalidate>
<div class="field"><label for="f-from">From</label><input type="date" id="f-from" name="from" value="${form.from}"${
    form.errors.from ? html` aria-invalid="true" aria-describedby="f-from-error"` : ''
  }>${form.errors.from ? html`<p class="field-error" id="f-from-error">${form.errors.from}</p>` : ''}</div>
<div class="field"><label for="f-to">To</label><input type="date" id="f-to" name="to" value="${form.to}"${
    form.errors.to ? html` aria-invalid="true" aria-describedby="f-to-error"` : ''
  }>${form.errors.to ? html`<p class="field-error" id="f-to-error">${form.errors.to}</p>` : ''}</div>
<button type="submit" class="secondary">Show</button>
</form>`;
}

export function reportPage(
  call: WorkspaceCall,
  input: { report: QuoteReport | undefined; form: ReportForm; locale: string },
): SafeHtml {
  const { report, locale } = input;
  const ws = workspacePath(call.workspace.workspaceId);
  const head = html`<div class="page-head"><div><h1>Report</h1>
  <p class="muted">What wins: each quote counted once, in the month it was first sent, with what came of it.</p></div>
<div class="actions"><a class="button secondary" href="${ws}/quotes">Quotes</a></div></div>
${periodNav(call, input.form)}`;
  if (!report) return head;
  const money = (minor: number) => formatMoney(minor, report.currency, locale);
  const period = html`<h2 class="report-period">${dayText(report.from, locale)} – ${dayText(report.to, locale)}</h2>`;
  if (report.sent === 0)
    return html`${head}${period}<section class="card"><p class="empty">No quotes were first sent in this period.</p>
    </section>`;
  const answered = report.accepted + report.declined;
  return html`${head}${period}
<section class="card" aria-labelledby="summary-heading">
<h2 id="summary-heading" class="offscreen">Summary</h2>
<dl class="report-tiles">
${tile('Sent', String(report.sent))}
${tile('Accepted', String(report.accepted))}
${tile('Declined', String(report.declined))}
${tile('Unanswered', String(report.unanswered), 'open, expired or withdrawn')}
${tile(
  'Win rate',
  percent(report.winRate.ofAnswered),
  `of answered (${report.accepted} of ${answered}); ${percent(report.winRate.ofSent)} of sent`,
)}
${tile('Value sent', money(report.valueSent))}
${tile('Value won', money(report.valueWon))}
${tile('Value paid', money(report.valuePaid), 'recorded on their invoices')}
${tile(
  'Median days to an answer',
  days(report.medianDaysToAnswer),
  report.medianDaysToAnswer === null ? 'none answered yet' : 'from the first send',
)}
</dl>
${report.otherCurrencies.map(
  (o) =>
    html`<p class="hint">Also ${o.sent} quote${o.sent === 1 ? '' : 's'} made in ${o.currency}, counted above but
    not in the values: ${formatMoney(
      o.valueSent,
      o.currency,
      locale,
    )} sent, ${formatMoney(o.valueWon, o.currency, locale)} won.</p>`,
)}
</section>
<section class="card" aria-labelledby="chart-heading">
<h2 id="chart-heading">Win rate by month</h2>
<p class="hint">Accepted out of the quotes answered, by the month they were first sent.</p>
${winRateChart(report, locale)}
</section>
<section class="card table-card report-table" aria-labelledby="sources-heading">
<h2 id="sources-heading">By lead source</h2>
<div class="report-scroll"><table class="list report wide-labels" id="by-source">
<thead><tr><th scope="col">Lead source</th>${FIGURE_HEADS}</tr></thead>
<tbody>${report.bySource.map(
    (s) =>
      html`<tr><th scope="row" data-label="Lead source"><a href="${ws}/sources/${s.sourceId}">${s.name}</a>
      </th>${figureCells(s, money)}</tr>`,
  )}</tbody>
</table></div>
</section>
<section class="card table-card report-table" aria-labelledby="campaigns-heading">
<h2 id="campaigns-heading">By campaign</h2>
<p class="hint">The utm_campaign and utm_source of the page the lead was sent from.</p>
<div class="report-scroll"><table class="list report wide-labels" id="by-campaign">
<thead><tr><th scope="col">Campaign</th><th scope="col">Source</th>${FIGURE_HEADS}</tr></thead>
<tbody>${report.byCampaign.map(
    (c) =>
      html`<tr><th scope="row" data-label="Campaign">${
        c.utmCampaign ??
        (c.utmSource
          ? html`<span class="muted">(no campaign)</span>`
          : html`<span class="muted">Not from a campaign</span>`)
      }</th><td data-label="Source">${
        c.utmSource ?? html`<span class="muted">—</span>`
      }</td>${figureCells(c, money)}</tr>`,
  )}</tbody>
</table></div>
</section>`;
}

/** What the query asks: a preset, or a range (days). */
function formOf(call: WorkspaceCall): ReportForm {
  const raw = call.query.period;
  return {
    period: raw && (REPORT_PERIODS as readonly string[]).includes(raw) ? checkPeriod(raw) : undefined,
    from: (call.query.from ?? '').slice(0, 10),
    to: (call.query.to ?? '').slice(0, 10),
    errors: {},
  };
}

/** The Quotes screen's Report (docs/admin-app.md, "Quotes"): the same verb as `leadscan quotes report`. */
export const reportArea: AdminArea = {
  routes: [
    {
      method: 'GET',
      path: '/w/:workspaceId/quotes/report',
      access: 'member',
      handler: async (call) => {
        const form = formOf(call);
        const settings = await getWorkspaceSettings({
          ctx: call.ctx,
          input: { workspaceId: call.workspace.workspaceId },
        });
        const report = await quoteReport({
          ctx: call.ctx,
          input: {
            ...(form.period ? { period: form.period } : {}),
            ...(form.from ? { from: form.from, to: form.to } : {}),
          },
        });
        return call.render(200, {
          title: 'Report',
          area: 'quotes',
          body: reportPage(call, { report, form, locale: settings.locale }),
        });
      },
      form: {
        field: 'from',
        rerender: async (call, { status, errors }) => {
          const settings = await getWorkspaceSettings({
            ctx: call.ctx,
            input: { workspaceId: call.workspace.workspaceId },
          });
          return call.render(status, {
            title: 'Report',
            area: 'quotes',
            body: reportPage(call, { report: undefined, form: { ...formOf(call), errors }, locale: settings.locale }),
          });
        },
      },
    },
  ],
};
