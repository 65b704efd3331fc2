import { sql } from 'kysely';
import { recordAudit } from '../audit/record-audit.js';
import { nowIso, type VerbArgs } from '../context.js';
import { ISSUED_STATES, invoiceStates, lockInvoiceByToken } from './invoice-states.js';

/**
 * The customer's page reports that it was shown in a browser (its script posts this, so mail scanners that only fetch
 * the link do not count; the page must not call it for a signed-in member of the workspace). The first view of a sent
 * invoice marks it viewed (a partly paid or paid one keeps its state); each view of an issued invoice adds to the
 * count. Answers whether this was the first. A draft's or void one's link records nothing.
 */
export async function recordInvoiceView({
  ctx,
  input,
}: VerbArgs<{ token: string }>): Promise<{ invoiceId: string; workspaceId: string; first: boolean }> {
  return ctx.store.writer.write(async (trx) => {
    const row = await lockInvoiceByToken(ctx, trx, input.token);
    const answer = { invoiceId: row.id, workspaceId: row.workspace_id };
    if (!(ISSUED_STATES as readonly string[]).includes(row.status)) return { ...answer, first: false };
    const first = row.viewed_at === null;
    const at = nowIso(ctx);
    await trx
      .updateTable('invoices')
      .set({
        view_count: sql<number>`view_count + 1`,
        // The view move (sent → viewed), on its condition; an invoice further on keeps its state.
        status: sql<string>`case when status in (${sql.join(
          invoiceStates.moveFrom('view'),
        )}) then ${invoiceStates.moves.view.to} else status end`,
        ...(first ? { viewed_at: at } : {}),
      })
      .where('id', '=', row.id)
      .where('status', 'in', ISSUED_STATES)
      .execute();
    if (first)
      await recordAudit(trx, ctx, {
        action: 'invoice.viewed',
        workspaceId: row.workspace_id,
        targetIds: [row.id, ...(row.lead_id ? [row.lead_id] : [])],
      });
    return { ...answer, first };
  });
}
