import type { QuoteReport } from '../../../domain/reports/quote-report.js';
import { html, type SafeHtml } from '../../html.js';

/** Geometry of the chart, in its own units (the SVG scales to its box, which CSS keeps between 18 and 36 rem). */
const WIDTH = 380;
const ROW = 40;
const LABEL = 80;
const VALUE = 124;
const BAR = WIDTH - LABEL - VALUE;

/** `2026-08` as the workspace's people read a month: "Aug 2026". */
export function monthLabel(month: string, locale: string): string {
  return new Intl.DateTimeFormat(locale, { month: 'short', year: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${month}-15T12:00:00Z`),
  );
}

/**
 * Win rate by month (docs/admin-app.md, "Quotes"), drawn on the server: one row a month, the month on the left, a bar
 * as long as the share of the month's answered quotes that were accepted, and the percent with its counts on the
 * right. Rows rather than columns, so the labels keep their size on a 390 px phone. Every label goes through `html`;
 * the figures are also the chart's text (its `desc` and each row's `title`), for screen readers.
 */
export function winRateChart(report: QuoteReport, locale: string): SafeHtml {
  const height = report.byMonth.length * ROW + 8;
  const rows = report.byMonth.map((m, i) => {
    const y = i * ROW + 4;
    const rate = m.winRate.ofAnswered;
    const answered = m.accepted + m.declined;
    const label = monthLabel(m.month, locale);
    const detail =
      rate === null
        ? m.sent === 0
          ? 'none sent'
          : `${m.sent} sent, none answered`
        : `${m.accepted} of ${answered} answered`;
    const width = rate === null ? 0 : Math.max(rate === 0 ? 0 : 2, (BAR * rate) / 100);
    return html`<g><title>${label}: ${rate === null ? '—' : `${rate} %`} (${detail})</title>
<text x="0" y="${y + 24}" class="month">${label}</text>
<rect x="${LABEL}" y="${y + 9}" width="${BAR}" height="20" rx="3" class="track"></rect>
${
  width > 0
    ? html`<rect x="${LABEL}" y="${y + 9}" width="${width.toFixed(1)}" height="20" rx="3" class="bar"></rect>`
    : ''
}
<text x="${LABEL + BAR + 8}" y="${y + 17}" class="rate">${rate === null ? '—' : `${rate} %`}</text>
<text x="${LABEL + BAR + 8}" y="${y + 33}" class="count">${detail}</text></g>`;
  });
  const desc = report.byMonth
    .map(
      (m) =>
        `${monthLabel(m.month, locale)}: ${m.winRate.ofAnswered === null ? 'no answers' : `${m.winRate.ofAnswered} %`}`,
    )
    .join('; ');
  return html`<svg class="win-rate-chart" viewBox="0 0 ${WIDTH} ${height}" role="img"
    aria-labelledby="win-rate-title win-rate-desc" xmlns="http://www.w3.org/2000/svg">
<title id="win-rate-title">Win rate by month</title>
<desc id="win-rate-desc">${desc}</desc>
${rows}
</svg>`;
}
