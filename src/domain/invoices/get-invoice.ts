import type { Selectable } from 'kysely';
import type { InvoiceTable } from '../../storage/schema.js';
import type { DomainContext, WorkspaceContext, WorkspaceVerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { looksLikeId } from '../ids.js';
import { findInvoiceRow, loadInvoiceView, type InvoiceView } from './invoice-view.js';

/** An invoice or credit note of the context's workspace, by id or by number (`INV-0003`, `CN-0001`). */
export async function getInvoice({ ctx, input }: WorkspaceVerbArgs<{ ref: string }>): Promise<InvoiceView> {
  return loadInvoiceView(ctx, ctx.store.db, await findInvoiceByRef(ctx, input.ref));
}

/**
 * The row of an invoice of the context's workspace by id or number; another workspace's is `invoice_not_found`.
 * Numbers match as typed or in capitals, with their digits padded to four (`inv-3` is `INV-0003`).
 */
export async function findInvoiceByRef(ctx: WorkspaceContext, ref: string): Promise<Selectable<InvoiceTable>> {
  const trimmed = ref.trim();
  if (looksLikeId('ivc', trimmed))
    return findInvoiceRow(ctx.store.db, { workspaceId: ctx.workspaceId, invoiceId: trimmed });
  return invoiceByNumber(ctx, trimmed, ctx.workspaceId);
}

/**
 * The workspace of an invoice named by id or number, for the operator's CLI, which names any invoice and then acts
 * inside the invoice's own workspace. A number that several workspaces have needs the invoice's id.
 */
export async function workspaceOfInvoice(ctx: DomainContext, ref: string): Promise<string> {
  const trimmed = ref.trim();
  if (!looksLikeId('ivc', trimmed)) return (await invoiceByNumber(ctx, trimmed, 'any')).workspace_id;
  const row = await ctx.store.db
    .selectFrom('invoices')
    .select('workspace_id')
    .where('id', '=', trimmed)
    .executeTakeFirst();
  if (!row) throw new AppError('invoice_not_found', `No invoice ${trimmed}`);
  return row.workspace_id;
}

async function invoiceByNumber(
  ctx: DomainContext,
  ref: string,
  workspaceId: string | 'any',
): Promise<Selectable<InvoiceTable>> {
  // `INV-3` is `INV-0003`: numbers have at least four digits (document-number.ts).
  const short = /^(.*\D)?(\d{1,3})$/.exec(ref);
  const spellings = [ref, ...(short ? [`${short[1] ?? ''}${short[2]!.padStart(4, '0')}`] : [])];
  const rows = await ctx.store.db
    .selectFrom('invoices')
    .selectAll()
    .where('number', 'in', [...new Set(spellings.flatMap((n) => [n, n.toUpperCase()]))])
    .$if(workspaceId !== 'any', (q) => q.where('workspace_id', '=', workspaceId))
    .execute();
  if (rows.length === 0) throw new AppError('invoice_not_found', `No invoice ${ref.slice(0, 40)}`);
  if (new Set(rows.map((r) => r.workspace_id)).size > 1)
    throw new AppError(
      'invoice_not_found',
      `Several workspaces have a ${ref.slice(0, 40)}: give the invoice's id (see \`leadscan invoices list ` +
        `--workspace W\`)`,
    );
  return rows[0]!;
}
