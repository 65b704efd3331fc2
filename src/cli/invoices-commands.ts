import { once } from 'node:events';
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import type { Command } from 'commander';
import type { DomainContext, WorkspaceContext } from '../domain/context.js';
import { AppError } from '../domain/errors.js';
import { addInvoiceLine } from '../domain/invoices/add-invoice-line.js';
import { createBlankInvoice } from '../domain/invoices/create-blank-invoice.js';
import { createCreditNote } from '../domain/invoices/create-credit-note.js';
import { createInvoiceFromQuote, type QuoteInvoiceKind } from '../domain/invoices/create-invoice-from-quote.js';
import { deletePayment } from '../domain/invoices/delete-payment.js';
import { checkBooksFormat, exportInvoices } from '../domain/invoices/export-invoices.js';
import { getInvoice } from '../domain/invoices/get-invoice.js';
import { invoicePdfForCli } from '../domain/invoices/invoice-pdf.js';
import type { InvoiceView } from '../domain/invoices/invoice-view.js';
import {
  checkInvoiceFilter,
  listInvoices,
  outstandingTotals,
  LIST_LIMIT,
  type InvoiceSummary,
} from '../domain/invoices/list-invoices.js';
import { recordPayment } from '../domain/invoices/record-payment.js';
import { voidInvoice } from '../domain/invoices/void-invoice.js';
import { amountText, rateText } from '../domain/money.js';
import type { CliKit, Render } from './kit.js';
import { table } from './render.js';
import { invoiceContextOf, leadContextOf, quoteContextOf, workspaceContextOf } from './resolve.js';

/**
 * An invoice as `invoices show --json` prints it (docs/invoices.md, "The CLI"): exactly these keys, money as integers
 * in the smallest unit, quantities and rates as numbers as shown; `overdue: true` only when it is.
 */
export function invoiceJson(i: InvoiceView) {
  return {
    id: i.id,
    number: i.number,
    kind: i.kind,
    status: i.status,
    quoteId: i.quoteId,
    leadId: i.leadId,
    currency: i.currency,
    customer: i.customer,
    lines: i.lines.map((l) => ({
      id: l.id,
      description: l.description,
      quantity: l.quantity / 100,
      unit: l.unit,
      unitPrice: l.unitPrice,
      amount: l.amount,
      taxes: l.taxes,
    })),
    subtotal: i.subtotal,
    taxes: i.taxes.map((t) => ({ name: t.name, rate: Number(rateText(t.rate)), amount: t.amount })),
    total: i.total,
    paid: i.paid,
    balance: i.balance,
    issueDate: i.issueDate,
    dueDate: i.dueDate,
    sentAt: i.sentAt,
    voidReason: i.voidReason,
    customerUrl: i.customerUrl,
    payments: i.payments.map((p) => ({
      id: p.id,
      date: p.date,
      amount: p.amount,
      method: p.method,
      reference: p.reference,
    })),
    credits: i.credits.map((c) => c.id),
    ...(i.overdue ? { overdue: true as const } : {}),
  };
}

type InvoiceJson = ReturnType<typeof invoiceJson>;

const money = (minor: number, currency: string) => `${amountText(minor, currency)} ${currency}`;

const KIND_WORDS: Record<string, string> = {
  invoice: 'invoice',
  deposit: 'deposit invoice',
  final: 'invoice of the rest',
  credit_note: 'credit note',
};

const shown: Render = ((i: InvoiceJson) => {
  const head =
    `${i.number ?? 'Draft'} (${i.id}): ${KIND_WORDS[i.kind] ?? i.kind}, ` +
    `${i.status.replace('_', ' ')}${i.overdue ? ', OVERDUE' : ''}\n` +
    `Customer: ${i.customer.name ?? '—'}\n` +
    (i.issueDate ? `Date: ${i.issueDate}${i.dueDate ? `, due ${i.dueDate}` : ''}\n` : '');
  const lines =
    i.lines.length === 0
      ? '(no lines)\n'
      : table(i.lines, [
          ['ID', (l) => l.id],
          ['DESCRIPTION', (l) => l.description.replace(/\s+/g, ' ')],
          ['QTY', (l) => `${l.quantity} ${l.unit}`],
          ['PRICE', (l) => amountText(l.unitPrice, i.currency)],
          ['AMOUNT', (l) => amountText(l.amount, i.currency)],
          ['TAXES', (l) => l.taxes.join(', ')],
        ]);
  const totals = [
    `Subtotal: ${money(i.subtotal, i.currency)}`,
    ...i.taxes.map((t) => `${t.name} ${t.rate} %: ${money(t.amount, i.currency)}`),
    `Total: ${money(i.total, i.currency)}`,
    ...(i.kind === 'credit_note'
      ? []
      : [
          `Paid: ${money(i.paid, i.currency)}`,
          i.balance < 0
            ? `Owed back to the customer: ${money(-i.balance, i.currency)}`
            : `Balance: ${money(i.balance, i.currency)}`,
        ]),
  ];
  const payments = i.payments.map(
    (p) =>
      `Payment ${p.id}: ${money(p.amount, i.currency)} on ${p.date} ` +
      `by ${p.method.replace('_', ' ')}${p.reference ? ` (${p.reference})` : ''}`,
  );
  return `${head}${lines}${[...totals, ...payments].join('\n')}\n${i.voidReason ? `Void: ${i.voidReason}\n` : ''}${
    i.customerUrl ? `Customer link: ${i.customerUrl}\n` : ''
  }`;
}) as Render;

const listed: Render = ((rows: InvoiceSummary[]) =>
  table(rows, [
    ['ID', (r) => r.id],
    ['NUMBER', (r) => r.number ?? '—'],
    ['KIND', (r) => r.kind],
    ['STATUS', (r) => `${r.status}${r.overdue ? ' (overdue)' : ''}`],
    ['CUSTOMER', (r) => r.customerName ?? ''],
    ['TOTAL', (r) => money(r.total, r.currency)],
    ['BALANCE', (r) => (r.kind === 'credit_note' ? '' : money(r.balance, r.currency))],
    ['DUE', (r) => r.dueDate ?? ''],
  ])) as Render;

const pdfWritten: Render = ((r: { file: string; fileName: string; size: number; sha256: string }) =>
  r.file === '-' ? '' : `${r.fileName} written to ${r.file} (${r.size} bytes, SHA-256 ${r.sha256})\n`) as Render;

const collect = (value: string, previous: string[]) => [...previous, value];

/** The workspace an invoice reference belongs to, as the context its verbs run in (the CLI acts on every workspace). */
async function invoiceContext(ctx: DomainContext, ref: string): Promise<{ wctx: WorkspaceContext; id: string }> {
  const invoice = await invoiceContextOf(ctx, ref);
  return { wctx: invoice.ctx, id: invoice.invoiceId };
}

/**
 * `leadscan invoices …` (docs/invoices.md, "The CLI"): drafts, payments, void and credit notes. There is no
 * `invoices send`: sending is a person's sign-off on the invoice's page.
 */
export function registerInvoicesCommands(program: Command, kit: CliKit) {
  const { run, withJson, io } = kit;
  const invoices = program
    .command('invoices')
    .description('invoices and credit notes (drafts here; a person sends them from the admin app)');
  withJson(invoices.command('list'))
    .description("a workspace's invoices and credit notes, newest first; the outstanding totals on stderr")
    .requiredOption('--workspace <workspace>', 'workspace id or name')
    .option('--status <status>', 'draft, sent, overdue, partly_paid, paid or void')
    .action(
      run(async (ctx, opts: { workspace: string; status?: string }) => {
        const wctx = await workspaceContextOf(ctx, opts.workspace);
        const rows = await listInvoices({
          ctx: wctx,
          input: {
            limit: LIST_LIMIT.max,
            ...(opts.status !== undefined ? { status: checkInvoiceFilter(opts.status) } : {}),
          },
        });
        if (!kit.jsonMode) {
          const totals = await outstandingTotals({ ctx: wctx, input: {} });
          io.stderr.write(
            `Outstanding: ${money(totals.outstanding, totals.currency)} (${totals.outstandingCount}); ` +
              `overdue: ${money(totals.overdue, totals.currency)} (${totals.overdueCount})\n`,
          );
        }
        return rows;
      }, listed),
    );
  withJson(invoices.command('show <invoice>'))
    .description('an invoice or credit note by id or number (INV-0003, CN-0001)')
    .action(
      run(async (ctx, ref: string) => {
        const { wctx, id } = await invoiceContext(ctx, ref);
        return invoiceJson(await getInvoice({ ctx: wctx, input: { ref: id } }));
      }, shown),
    );
  withJson(invoices.command('create'))
    .description(
      'a draft invoice from an accepted quote (whole; --deposit; --rest: the rest, less earlier invoices), ' +
        'or a blank one for a lead',
    )
    .option('--quote <quote>', 'an accepted quote, by id or number (Q-0007)')
    .option('--deposit', "invoice the quote's deposit")
    .option('--rest', 'invoice the rest of the quote (its lines less the invoices before)')
    .option('--lead <lead>', 'a blank invoice for this lead (its customer details)')
    .action(
      run(async (ctx, opts: { quote?: string; deposit?: boolean; rest?: boolean; lead?: string }) => {
        if ((opts.quote === undefined) === (opts.lead === undefined))
          throw new AppError(
            'invalid_arguments',
            'Give --quote Q (an accepted quote) or --lead LEAD (a blank invoice)',
          );
        if (opts.deposit && opts.rest) throw new AppError('invalid_arguments', 'Give --deposit or --rest, not both');
        if (opts.lead !== undefined) {
          if (opts.deposit || opts.rest)
            throw new AppError('invalid_arguments', '--deposit and --rest invoice a quote: give --quote');
          return invoiceJson(
            await createBlankInvoice({ ctx: await leadContextOf(ctx, opts.lead), input: { leadId: opts.lead } }),
          );
        }
        const quote = await quoteContextOf(ctx, opts.quote!);
        const kind: QuoteInvoiceKind = opts.deposit ? 'deposit' : opts.rest ? 'final' : 'invoice';
        return invoiceJson(await createInvoiceFromQuote({ ctx: quote.ctx, input: { quoteId: quote.quoteId, kind } }));
      }, shown),
    );
  withJson(invoices.command('add-line <invoice>'))
    .description('add a line to a draft (a negative price is a discount); invoice by id')
    .requiredOption('--description <text>', 'what the line is')
    .requiredOption('--quantity <n>', 'a decimal, rounded to 2 decimals')
    .requiredOption('--unit <unit>', 'm2, ft2, m, ft, m3, ft3, each, hour or fixed')
    .requiredOption('--price <amount>', "unit price as a decimal in the invoice's currency, e.g. 42.50")
    .option('--taxes <names>', 'comma-separated tax names (default: the taxes on by default); "" for none')
    .action(
      run(
        async (
          ctx,
          ref: string,
          opts: { description: string; quantity: string; unit: string; price: string; taxes?: string },
        ) => {
          const { wctx, id } = await invoiceContext(ctx, ref);
          const { taxes, ...line } = opts;
          return invoiceJson(
            await addInvoiceLine({
              ctx: wctx,
              input: {
                invoiceId: id,
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
            }),
          );
        },
        shown,
      ),
    );
  withJson(invoices.command('record-payment <invoice>'))
    .description('record a payment on a sent invoice (at most its balance); the customer gets a receipt with email on')
    .requiredOption('--amount <amount>', "a decimal in the invoice's currency, e.g. 123.45")
    .requiredOption('--date <date>', 'when it was paid, YYYY-MM-DD')
    .requiredOption('--method <method>', 'bank_transfer, card, cash, cheque or other')
    .option('--reference <text>', "the payment's reference (a transfer's, a cheque's number)")
    .option('--no-receipt', 'send the customer no receipt')
    .action(
      run(
        async (
          ctx,
          ref: string,
          opts: { amount: string; date: string; method: string; reference?: string; receipt: boolean },
        ) => {
          const { wctx, id } = await invoiceContext(ctx, ref);
          const { receipt, ...payment } = opts;
          return invoiceJson((await recordPayment({ ctx: wctx, input: { invoiceId: id, payment, receipt } })).invoice);
        },
        shown,
      ),
    );
  withJson(invoices.command('delete-payment <invoice> <payment>'))
    .description('delete a payment recorded by mistake (audited); the status is computed again')
    .action(
      run(async (ctx, ref: string, paymentId: string) => {
        const { wctx, id } = await invoiceContext(ctx, ref);
        return invoiceJson(await deletePayment({ ctx: wctx, input: { invoiceId: id, paymentId } }));
      }, shown),
    );
  withJson(invoices.command('void <invoice>'))
    .description('void a draft, or a sent invoice without payments (it keeps its number)')
    .requiredOption('--reason <text>', 'why (shown on its link and in the books)')
    .action(
      run(async (ctx, ref: string, opts: { reason: string }) => {
        const { wctx, id } = await invoiceContext(ctx, ref);
        return invoiceJson(await voidInvoice({ ctx: wctx, input: { invoiceId: id, reason: opts.reason } }));
      }, shown),
    );
  withJson(invoices.command('credit <invoice>'))
    .description('a draft credit note for an invoice with payments: the lines given, or all (a person sends it)')
    .option(
      '--line <id>',
      'a line of the invoice to credit (repeatable; default: every line not credited yet)',
      collect,
      [],
    )
    .requiredOption('--reason <text>', 'why (printed on the credit note)')
    .action(
      run(async (ctx, ref: string, opts: { line: string[]; reason: string }) => {
        const { wctx, id } = await invoiceContext(ctx, ref);
        return invoiceJson(
          await createCreditNote({
            ctx: wctx,
            input: { invoiceId: id, reason: opts.reason, ...(opts.line.length > 0 ? { lineIds: opts.line } : {}) },
          }),
        );
      }, shown),
    );
  invoices
    .command('export')
    .description(
      'export for the accountant: the invoices and credit notes issued from --from to --to, ' +
        'as CSV (or with --summary the tax summary) or an .xlsx of both; to stdout without --out',
    )
    .requiredOption('--workspace <workspace>', 'workspace id or name')
    .requiredOption('--from <day>', 'the first issue date, YYYY-MM-DD')
    .requiredOption('--to <day>', 'the last issue date, YYYY-MM-DD (included)')
    .option('--format <format>', 'csv (the default) or xlsx (two sheets, Invoices and Tax summary)', 'csv')
    .option('--summary', 'CSV: the tax summary (tax,rate,net,tax and a total row) instead of the rows')
    .option('--out <file>', 'the file to write (standard output without it)')
    .action(
      run(
        async (
          ctx,
          opts: { workspace: string; from: string; to: string; format: string; summary?: boolean; out?: string },
        ) => {
          const format = checkBooksFormat(opts.format);
          const wctx = await workspaceContextOf(ctx, opts.workspace);
          const file = await exportInvoices({
            ctx: wctx,
            input: { from: opts.from, to: opts.to, format, ...(opts.summary ? { summary: true } : {}) },
          });
          if (opts.out !== undefined) {
            await pipeline(file, fs.createWriteStream(opts.out));
            io.stderr.write(`Wrote ${opts.out}\n`);
          } else {
            for await (const chunk of file) {
              if (!io.stdout.write(chunk as Buffer)) await once(io.stdout, 'drain');
            }
          }
          return Buffer.alloc(0);
        },
      ),
    );
  withJson(invoices.command('pdf <invoice>'))
    .description("write a sent invoice's or credit note's PDF to a file; a draft is refused")
    .requiredOption('--out <file>', 'the file to write (`-` for standard output)')
    .action(
      run(async (ctx, ref: string, opts: { out: string }) => {
        const invoice = await invoiceContextOf(ctx, ref);
        const doc = await invoicePdfForCli({ ctx: invoice.ctx, input: { ref: invoice.invoiceId } });
        if (opts.out === '-') io.stdout.write(Buffer.from(doc.pdf!));
        else fs.writeFileSync(opts.out, doc.pdf!);
        return { file: opts.out, fileName: doc.fileName, size: doc.size, sha256: doc.sha256 };
      }, pdfWritten),
    );
}
