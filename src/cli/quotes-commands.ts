import fs from 'node:fs';
import type { Command } from 'commander';
import { addQuoteLine } from '../domain/quotes/add-quote-line.js';
import { createQuote } from '../domain/quotes/create-quote.js';
import { getQuote } from '../domain/quotes/get-quote.js';
import { checkListStatus, listQuotes, type QuoteSummary } from '../domain/quotes/list-quotes.js';
import { amountText, rateText } from '../domain/money.js';
import type { QuoteView } from '../domain/quotes/quote-view.js';
import { withdrawQuote } from '../domain/quotes/withdraw-quote.js';
import { quotePdfForCli } from '../domain/quotes/quote-pdf.js';
import { positiveInteger, type CliKit, type Render } from './kit.js';
import { table } from './render.js';
import { leadContextOf, quoteContextOf, workspaceIdOf } from './resolve.js';
import { registerQuoteReportCommand } from './quote-report-command.js';
import { registerQuoteSectionCommands } from './quote-sections-commands.js';

/** A quote as `quotes show --json` prints it (docs/quotes.md, "The CLI"): exactly these keys, money as integers. */
export function quoteJson(q: QuoteView) {
  return {
    id: q.id,
    number: q.number,
    revision: q.revision,
    status: q.status,
    leadId: q.leadId,
    currency: q.currency,
    customer: q.customer,
    sections: q.sections.map((s) => ({
      id: s.id,
      title: s.title,
      subtotal: s.subtotal,
      choice: s.choice,
      recommended: s.recommended,
      chosen: s.chosen,
    })),
    lines: q.lines.map((l) => ({
      id: l.id,
      description: l.description,
      quantity: l.quantity / 100,
      unit: l.unit,
      unitPrice: l.unitPrice,
      amount: l.amount,
      taxes: l.taxes,
      optional: l.optional,
      chosen: l.chosen,
      source: l.source,
      sectionId: l.sectionId,
    })),
    subtotal: q.subtotal,
    taxes: q.taxes.map((t) => ({ name: t.name, rate: Number(rateText(t.rate)), amount: t.amount })),
    total: q.total,
    deposit: q.deposit
      ? { percent: q.deposit.percent === null ? null : Number(rateText(q.deposit.percent)), amount: q.deposit.amount }
      : null,
    validUntil: q.validUntil,
    sentAt: q.sentAt,
    viewedAt: q.viewedAt,
    acceptedAt: q.acceptedAt,
    acceptedName: q.acceptedName,
    declinedAt: q.declinedAt,
    declineReason: q.declineReason,
    customerUrl: q.customerUrl,
  };
}

type QuoteJson = ReturnType<typeof quoteJson>;

const money = (minor: number, currency: string) => `${amountText(minor, currency)} ${currency}`;

const shown: Render = ((q: QuoteJson) => {
  const head =
    `${q.number ?? 'Draft'}${q.revision > 1 ? ` rev ${q.revision}` : ''} (${q.id}): ${q.status}, ` +
    `valid until ${q.validUntil}\n` +
    `Customer: ${q.customer.name ?? '—'}\n`;
  const lineTable = (lines: QuoteJson['lines']) =>
    table(lines, [
      ['ID', (l) => l.id],
      // The staff's view: what the customer reads, and how a measured quantity was measured after it.
      [
        'DESCRIPTION',
        (l) =>
          `${l.optional ? (l.chosen ? '[x] ' : '[ ] ') : ''}${l.description.replace(/\s+/g, ' ')}` +
          `${l.source?.note ? ` (${l.source.note})` : ''}`,
      ],
      ['QTY', (l) => `${l.quantity} ${l.unit}`],
      ['PRICE', (l) => amountText(l.unitPrice, q.currency)],
      ['AMOUNT', (l) => amountText(l.amount, q.currency)],
      ['TAXES', (l) => l.taxes.join(', ')],
    ]);
  // One section without a heading reads as the flat list it was before sections.
  const plain = q.sections.length === 1 && q.sections[0]!.title === null;
  const body = plain
    ? lineTable(q.lines)
    : q.sections
        .map((s) => {
          const marks = s.choice
            ? ` [choice ${s.choice}${s.recommended ? ', recommended' : ''}${s.chosen ? ', chosen' : ''}]`
            : '';
          const lines = q.lines.filter((l) => l.sectionId === s.id);
          return (
            `== ${s.title ?? '(no heading)'} (${s.id})${marks}: ${money(s.subtotal, q.currency)}\n` +
            (lines.length > 0 ? lineTable(lines) : '   (no lines)\n')
          );
        })
        .join('');
  const totals = [
    `Subtotal: ${money(q.subtotal, q.currency)}`,
    ...q.taxes.map((t) => `${t.name} ${t.rate} %: ${money(t.amount, q.currency)}`),
    `Total: ${money(q.total, q.currency)}`,
    ...(q.deposit
      ? [
          `Deposit due on acceptance${q.deposit.percent !== null ? ` (${q.deposit.percent} %)` : ''}: ` +
            `${money(q.deposit.amount, q.currency)}`,
        ]
      : []),
  ];
  return `${head}${body}${totals.join('\n')}\n${q.customerUrl ? `Customer link: ${q.customerUrl}\n` : ''}`;
}) as Render;

const pdfWritten: Render = ((r: { file: string; fileName: string; size: number; sha256: string }) =>
  r.file === '-' ? '' : `${r.fileName} written to ${r.file} (${r.size} bytes, SHA-256 ${r.sha256})\n`) as Render;

const listed: Render = ((rows: QuoteSummary[]) =>
  table(rows, [
    ['ID', (r) => r.id],
    ['NUMBER', (r) => (r.number ? `${r.number}${r.revision > 1 ? ` rev ${r.revision}` : ''}` : '—')],
    ['STATUS', (r) => r.status],
    ['CUSTOMER', (r) => r.customerName ?? ''],
    ['TOTAL', (r) => money(r.total, r.currency)],
    ['CREATED', (r) => r.createdAt],
    ['VALID UNTIL', (r) => r.validUntil],
  ])) as Render;

const collect = (value: string, previous: string[]) => [...previous, value];

/**
 * `leadscan quotes …`: drafts a person finishes in the builder. There is no `quotes send`: sending is a person's
 * sign-off on the quote's page (docs/quotes.md).
 */
export function registerQuotesCommands(program: Command, kit: CliKit) {
  const { run, withJson, io } = kit;
  const quotes = program.command('quotes').description('quotes (drafts here; a person sends them from the admin app)');
  withJson(quotes.command('list'))
    .description("a workspace's quotes, newest first, one row per quote (its latest revision)")
    .requiredOption('--workspace <workspace>', 'workspace id or name')
    .option('--status <status>', 'draft, sent, viewed, accepted, declined, withdrawn, expired or needs-follow-up')
    .action(
      run(async (ctx, opts: { workspace: string; status?: string }) => {
        const workspaceId = await workspaceIdOf(ctx, opts.workspace);
        return listQuotes({
          ctx,
          input: { workspaceId, ...(opts.status !== undefined ? { status: checkListStatus(opts.status) } : {}) },
        });
      }, listed),
    );
  withJson(quotes.command('create'))
    .description(
      'a draft quote for a lead (customer from the lead); with scans, one line per room × measured price-list item',
    )
    .requiredOption('--lead <lead>', 'the lead id')
    .option('--scan <scan>', 'a scan attached to the lead (repeatable)', collect, [])
    .option('--item <item>', 'a price-list item id (repeatable; default with --scan: every measured item)', collect, [])
    .option('--room <index>', "a room's index in the scan, from 1 (repeatable; default: every room)", collect, [])
    .option('--deposit <deposit>', "the deposit it asks: 30%, an amount (500.00) or none (default: the workspace's)")
    .action(
      run(async (ctx, opts: { lead: string; scan: string[]; item: string[]; room: string[]; deposit?: string }) => {
        const view = await createQuote({
          ctx: await leadContextOf(ctx, opts.lead),
          input: {
            leadId: opts.lead,
            scanIds: opts.scan,
            itemIds: opts.item,
            rooms: opts.room.map((r) => positiveInteger(r)),
            ...(opts.deposit !== undefined ? { deposit: opts.deposit } : {}),
          },
        });
        return quoteJson(view);
      }, shown),
    );
  withJson(quotes.command('add-line <quote>'))
    .description('add a free line to a draft (a negative price is a discount); quote by id or number')
    .requiredOption('--description <text>', 'what the line is')
    .requiredOption('--quantity <n>', 'a decimal, rounded to 2 decimals')
    .requiredOption('--unit <unit>', 'm2, ft2, m, ft, m3, ft3, each, hour or fixed')
    .requiredOption('--price <amount>', "unit price as a decimal in the quote's currency, e.g. 42.50")
    .option(
      '--taxes <names>',
      'comma-separated tax names (default: the workspace\'s taxes that are on by default); "" for none',
    )
    .action(
      run(
        async (
          ctx,
          ref: string,
          opts: { description: string; quantity: string; unit: string; price: string; taxes?: string },
        ) => {
          const quote = await quoteContextOf(ctx, ref);
          const { taxes, ...line } = opts;
          const view = await addQuoteLine({
            ctx: quote.ctx,
            input: {
              quoteId: quote.quoteId,
              line: {
                ...line,
                ...(taxes !== undefined
                  ? {
                      taxes: taxes
                        .split(',')
                        .map((t) => t.trim())
                        .filter(Boolean),
                    }
                  : {}),
              },
            },
          });
          return quoteJson(view);
        },
        shown,
      ),
    );
  withJson(quotes.command('show <quote>'))
    .description('a quote by id or number (Q-0007: its latest revision)')
    .action(
      run(async (ctx, ref: string) => {
        const quote = await quoteContextOf(ctx, ref);
        return quoteJson(await getQuote({ ctx: quote.ctx, input: { ref: quote.quoteId } }));
      }, shown),
    );
  withJson(quotes.command('pdf <quote>'))
    .description(
      "write the latest sent revision's PDF (docs/documents.md), or with --accepted its accepted copy, " +
        'to a file; a draft is refused',
    )
    .requiredOption('--out <file>', 'the file to write (`-` for standard output)')
    .option('--accepted', 'the accepted copy (the same pages and the acceptance page)')
    .action(
      run(async (ctx, ref: string, opts: { out: string; accepted?: boolean }) => {
        const quote = await quoteContextOf(ctx, ref);
        const doc = await quotePdfForCli({
          ctx: quote.ctx,
          input: { ref: quote.quoteId, accepted: opts.accepted === true },
        });
        if (opts.out === '-') io.stdout.write(Buffer.from(doc.pdf!));
        else fs.writeFileSync(opts.out, doc.pdf!);
        return { file: opts.out, fileName: doc.fileName, size: doc.size, sha256: doc.sha256 };
      }, pdfWritten),
    );
  withJson(quotes.command('withdraw <quote>'))
    .description('take a sent quote back: its link then says it was withdrawn')
    .action(
      run(async (ctx, ref: string) => {
        const quote = await quoteContextOf(ctx, ref);
        return quoteJson(await withdrawQuote({ ctx: quote.ctx, input: { quoteId: quote.quoteId } }));
      }, shown),
    );
  registerQuoteSectionCommands(quotes, kit, { json: quoteJson as (view: never) => unknown, shown });
  registerQuoteReportCommand(quotes, kit);
}
