import { inWorkspace, type DomainContext } from '../../src/domain/context.js';
import { addInvoiceLine } from '../../src/domain/invoices/add-invoice-line.js';
import { createBlankInvoice } from '../../src/domain/invoices/create-blank-invoice.js';
import { recordPayment } from '../../src/domain/invoices/record-payment.js';
import { sendInvoice } from '../../src/domain/invoices/send-invoice.js';

/**
 * What the invoice routes need in each workspace: a draft invoice of one line, a sent invoice without payments (Void), and a
 * sent one with a payment (Delete payment, Credit note). No quote is made here, so the quote tests' numbers and lists
 * stay as the quotes fixture leaves them (Invoice on a quote that is not accepted is the verb's refusal, past the gate).
 */
export async function invoicesFixtureExtra(
  ctx: DomainContext,
  home: { workspaceId: string; leadId: string; userId: string },
  away: { workspaceId: string; leadId: string; userId: string },
): Promise<Record<string, string>> {
  const one = async (w: typeof home) => {
    const wctx = inWorkspace(ctx, w.workspaceId);
    // A draft with a line, so that Send can send it.
    const draft = await createBlankInvoice({ ctx: wctx, input: { leadId: w.leadId } });
    await addInvoiceLine({
      ctx: wctx,
      input: { invoiceId: draft.id, line: { description: 'Survey', quantity: '1', unit: 'fixed', price: '50' } },
    });
    const sentOne = async () => {
      const blank = await createBlankInvoice({ ctx: wctx, input: { leadId: w.leadId } });
      await addInvoiceLine({
        ctx: wctx,
        input: { invoiceId: blank.id, line: { description: 'Visit', quantity: '1', unit: 'fixed', price: '100' } },
      });
      return (await sendInvoice({ ctx: wctx, input: { invoiceId: blank.id, by: { userId: w.userId } } })).invoice;
    };
    const sent = await sentOne();
    const paid = await sentOne();
    const payment = await recordPayment({
      ctx: wctx,
      input: { invoiceId: paid.id, payment: { amount: '10.00', date: '2020-01-02', method: 'cash' }, receipt: false },
    });
    return {
      draftInvoiceId: draft.id,
      sentInvoiceId: sent.id,
      paidInvoiceId: paid.id,
      paymentId: payment.paymentId,
    };
  };
  const h = await one(home);
  const a = await one(away);
  const named: Record<string, string> = {};
  for (const [key, value] of Object.entries(h)) named[`home${key[0]!.toUpperCase()}${key.slice(1)}`] = value;
  for (const [key, value] of Object.entries(a)) named[`away${key[0]!.toUpperCase()}${key.slice(1)}`] = value;
  return named;
}
