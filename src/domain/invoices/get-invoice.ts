import type { Selectable } from 'kysely';
import type { InvoiceTable } from '../../storage/schema.js';
import type { DomainContext, WorkspaceVerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { looksLikeId } from '../ids.js';
import { findInvoiceRow, loadInvoiceView, type InvoiceView } from './invoice-view.js';

/** An invoice or credit note of the context's workspace, by id or by number (`INV-0003`, `CN-0001`). */
export async function getInvoice({ ctx, input }: WorkspaceVerbArgs<{ ref: string }>): Promise<InvoiceView> {
  const row = await findInvoiceByRef(ctx, { workspaceId: ctx.workspaceId, ref: input.ref });
  return loadInvoiceView(ctx, ctx.store.db, row);
}

/**
 * An invoice by id or number, in a workspace or (the operator's CLI, which acts on every workspace) in the one
 * workspace that has it: a number several workspaces have needs the id. Numbers match as typed or in capitals, with
 * their digits padded to four (`inv-3` is `INV-0003`).
 */
export async function findInvoiceByRef(
  ctx: DomainContext,
  input: { workspaceId?: string; ref: string },
): Promise<Selectable<InvoiceTable>> {
  const ref = input.ref.trim();
  if (looksLikeId('ivc', ref)) {
    if (input.workspaceId !== undefined)
      return findInvoiceRow(ctx.store.db, { workspaceId: input.workspaceId, invoiceId: ref });
    const row = await ctx.store.db.selectFrom('invoices').selectAll().where('id', '=', ref).executeTakeFirst();
    if (!row) throw new AppError('invoice_not_found', `No invoice ${ref}`);
    return row;
  }
  // `INV-3` is `INV-0003`: numbers have at least four digits (document-number.ts).
  const short = /^(.*\D)?(\d{1,3})$/.exec(ref);
  const spellings = [ref, ...(short ? [`${short[1] ?? ''}${short[2]!.padStart(4, '0')}`] : [])];
  const rows = await ctx.store.db
    .selectFrom('invoices')
    .selectAll()
    .where('number', 'in', [...new Set(spellings.flatMap((n) => [n, n.toUpperCase()]))])
    .$if(input.workspaceId !== undefined, (q) => q.where('workspace_id', '=', input.workspaceId!))
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

/** The workspace an invoice reference belongs to (the CLI's resolver, before it acts inside that workspace). */
export async function workspaceOfInvoice(ctx: DomainContext, ref: string): Promise<string> {
  return (await findInvoiceByRef(ctx, { ref })).workspace_id;
}
