import type { Selectable } from 'kysely';
import type { InvoiceTable } from '../../storage/schema.js';
import type { DomainContext, VerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { hashLinkToken, isLinkToken } from '../link-token.js';
import { getWorkspaceSettings, type TaxNumber } from '../settings/workspace-settings.js';
import { loadInvoiceView, type InvoiceView } from './invoice-view.js';

/** What the customer's page `/i/{token}` shows (no sign-in; the token is the secret). */
export interface CustomerInvoice {
  invoice: InvoiceView;
  /**
   * `open` (to be paid: sent, viewed, partly paid; `invoice.overdue` says when it is late), `paid`, `void` (the page
   * says so with the reason), `credit_note` (a credit note's page: what it credits).
   */
  state: 'open' | 'paid' | 'void' | 'credit_note';
  business: {
    name: string;
    address: string | null;
    phone: string | null;
    email: string | null;
    taxNumbers: TaxNumber[];
  };
  timeZone: string;
  /** `Q-0007 rev 2`, the quote it came from, or null. */
  quote: string | null;
  /** Whether its PDF is made yet (the page offers **Download PDF** once it is). */
  pdfReady: boolean;
}

/** The invoice a link opens: a sent one (a draft has no link); `invoice_not_found` for a link that leads nowhere. */
export async function invoiceByToken(
  db: DomainContext['store']['db'],
  token: string,
): Promise<Selectable<InvoiceTable>> {
  const row = isLinkToken(token)
    ? await db.selectFrom('invoices').selectAll().where('token_hash', '=', hashLinkToken(token)).executeTakeFirst()
    : undefined;
  if (!row || row.status === 'draft')
    throw new AppError(
      'invoice_not_found',
      'This link leads to no invoice: it may have been mistyped, or it was deleted',
    );
  return row;
}

/**
 * The customer's page's data for a link's token (docs/invoices.md, "The customer's link"): the invoice with what was
 * paid and the balance, the business's details, the quote it came from, whether its PDF is ready. Reading it changes
 * nothing: a view is recorded only when the page's script reports it (`recordInvoiceView`).
 */
export async function openInvoiceByToken({ ctx, input }: VerbArgs<{ token: string }>): Promise<CustomerInvoice> {
  const row = await invoiceByToken(ctx.store.db, input.token);
  const [invoice, settings, quote, pdf] = await Promise.all([
    loadInvoiceView(ctx, ctx.store.db, row),
    getWorkspaceSettings({ ctx, input: { workspaceId: row.workspace_id } }),
    row.quote_id
      ? ctx.store.db
          .selectFrom('quotes')
          .select(['number', 'revision'])
          .where('id', '=', row.quote_id)
          .executeTakeFirst()
      : Promise.resolve(undefined),
    ctx.store.db
      .selectFrom('documents')
      .select('state')
      .where('invoice_id', '=', row.id)
      .where('state', '=', 'done')
      .executeTakeFirst(),
  ]);
  const state: CustomerInvoice['state'] =
    row.kind === 'credit_note'
      ? 'credit_note'
      : row.status === 'void'
        ? 'void'
        : row.status === 'paid'
          ? 'paid'
          : 'open';
  return {
    invoice,
    state,
    business: {
      name: settings.name,
      address: settings.businessAddress,
      phone: settings.businessPhone,
      email: settings.businessEmail,
      taxNumbers: settings.taxNumbers,
    },
    timeZone: settings.timeZone,
    quote: quote?.number ? `${quote.number}${Number(quote.revision) > 1 ? ` rev ${quote.revision}` : ''}` : null,
    pdfReady: pdf !== undefined,
  };
}
