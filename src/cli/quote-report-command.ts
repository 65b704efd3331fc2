import type { Command } from 'commander';
import { amountText } from '../domain/money.js';
import { quoteReport, type QuoteReport, type ReportFigures } from '../domain/reports/quote-report.js';
import { checkPeriod } from '../domain/reports/report-period.js';
import type { CliKit, Render } from './kit.js';
import { table } from './render.js';
import { workspaceContextOf } from './resolve.js';

const rate = (value: number | null) => (value === null ? '—' : `${value} %`);
const days = (value: number | null) => (value === null ? '—' : String(value));

/** The report as text: the period's figures, then a table by lead source and one by campaign. */
export const reportText: Render = ((r: QuoteReport) => {
  const money = (minor: number) => `${amountText(minor, r.currency)} ${r.currency}`;
  const head = `Quotes first sent from ${r.from} to ${r.to}`;
  if (r.sent === 0) return `${head}: none.\n`;
  const columns = <T extends ReportFigures>(): Array<[string, (row: T) => string]> => [
    ['SENT', (row) => String(row.sent)],
    ['ACCEPTED', (row) => String(row.accepted)],
    ['DECLINED', (row) => String(row.declined)],
    ['UNANSWERED', (row) => String(row.unanswered)],
    ['WON/ANSWERED', (row) => rate(row.winRate.ofAnswered)],
    ['WON/SENT', (row) => rate(row.winRate.ofSent)],
    ['VALUE SENT', (row) => amountText(row.valueSent, r.currency)],
    ['VALUE WON', (row) => amountText(row.valueWon, r.currency)],
    ['MEDIAN DAYS', (row) => days(row.medianDaysToAnswer)],
  ];
  return [
    `${head}:`,
    `  sent ${r.sent}, accepted ${r.accepted}, declined ${r.declined}, unanswered ${r.unanswered}`,
    `  win rate ${rate(r.winRate.ofAnswered)} of answered, ${rate(r.winRate.ofSent)} of sent`,
    `  value sent ${money(r.valueSent)}, won ${money(r.valueWon)}, paid ${money(r.valuePaid)}`,
    `  median days to an answer: ${days(r.medianDaysToAnswer)}`,
    ...r.otherCurrencies.map(
      (o) =>
        `  also ${o.sent} in ${o.currency} (values not above): sent ${amountText(o.valueSent, o.currency)}, ` +
        `won ${amountText(o.valueWon, o.currency)} ${o.currency}`,
    ),
    '',
    'By lead source:',
    table(r.bySource, [['SOURCE', (s) => s.name], ...columns<QuoteReport['bySource'][number]>()]).trimEnd(),
    '',
    'By campaign:',
    table(r.byCampaign, [
      ['CAMPAIGN', (c) => c.utmCampaign ?? '(none)'],
      ['UTM SOURCE', (c) => c.utmSource ?? '(none)'],
      ...columns<QuoteReport['byCampaign'][number]>(),
    ]).trimEnd(),
    '',
  ].join('\n');
}) as Render;

/**
 * `leadscan quotes report --workspace W [--from D --to D] [--period P]`: the Quotes screen's Report (docs/quotes.md,
 * "What wins"), the same verb and figures; `--json` in the shape docs/cli.md gives, money in the smallest unit.
 */
export function registerQuoteReportCommand(quotes: Command, { run, withJson }: CliKit) {
  withJson(quotes.command('report'))
    .description('what wins: quotes sent, accepted, declined, win rates and values, by lead source and campaign')
    .requiredOption('--workspace <workspace>', 'workspace id or name')
    .option('--from <day>', 'first day (YYYY-MM-DD, in the workspace’s time zone) of the quotes’ first send')
    .option('--to <day>', 'last day (default: today, with --from)')
    .option('--period <period>', 'without --from: month (this month), 3-months (the default) or 12-months')
    .action(
      run(async (ctx, opts: { workspace: string; from?: string; to?: string; period?: string }) => {
        const inWs = await workspaceContextOf(ctx, opts.workspace);
        return quoteReport({
          ctx: inWs,
          input: {
            ...(opts.period !== undefined ? { period: checkPeriod(opts.period) } : {}),
            ...(opts.from !== undefined ? { from: opts.from } : {}),
            ...(opts.to !== undefined ? { to: opts.to } : {}),
          },
        });
      }, reportText),
    );
}
