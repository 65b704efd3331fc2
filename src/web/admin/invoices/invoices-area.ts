import { AppError, type FieldError } from '../../../domain/errors.js';
import { addInvoiceLine } from '../../../domain/invoices/add-invoice-line.js';
import { createBlankInvoice } from '../../../domain/invoices/create-blank-invoice.js';
import { createCreditNote } from '../../../domain/invoices/create-credit-note.js';
import { createInvoiceFromQuote, type QuoteInvoiceKind } from '../../../domain/invoices/create-invoice-from-quote.js';
import { deletePayment } from '../../../domain/invoices/delete-payment.js';
import { getInvoice } from '../../../domain/invoices/get-invoice.js';
import { invoiceChain } from '../../../domain/invoices/invoice-chain.js';
import { checkInvoiceLine, type InvoiceLineFields } from '../../../domain/invoices/invoice-line-fields.js';
import { invoicePdf, retryInvoicePdf } from '../../../domain/invoices/invoice-pdf.js';
import type { InvoiceView } from '../../../domain/invoices/invoice-view.js';
import {
  checkInvoiceFilter,
  INVOICE_FILTERS,
  listInvoices,
  outstandingTotals,
  type InvoiceFilter,
} from '../../../domain/invoices/list-invoices.js';
import { recordPayment } from '../../../domain/invoices/record-payment.js';
import { removeInvoiceLine } from '../../../domain/invoices/remove-invoice-line.js';
import { sendInvoice } from '../../../domain/invoices/send-invoice.js';
import { updateInvoice, type InvoiceDetails } from '../../../domain/invoices/update-invoice.js';
import { updateInvoiceLine } from '../../../domain/invoices/update-invoice-line.js';
import { voidInvoice } from '../../../domain/invoices/void-invoice.js';
import { leadLabel } from '../../../domain/leads/find-lead.js';
import { checkQuoteDetails } from '../../../domain/quotes/quote-details.js';
import { todayIn } from '../../../domain/quotes/quote-view.js';
import { checkPaymentTerms } from '../../../domain/settings/invoice-settings.js';
import { getWorkspaceSettings } from '../../../domain/settings/workspace-settings.js';
import { httpStatusOf } from '../../../http/error-statuses.js';
import type { AdminArea, PageForm, WorkspaceCall } from '../admin-route.js';
import { workspacePath } from '../admin-route.js';
import { sendAttachment } from '../attachment.js';
import { isFormError, type FormErrors } from '../form-controls.js';
import { renderQuote } from '../quotes/quotes-area.js';
import { getQuote } from '../../../domain/quotes/get-quote.js';
import { invoicePage, invoicesScreen, type InvoiceForm } from './invoice-pages.js';

const invoicePath = (call: WorkspaceCall, invoiceId: string) =>
  workspacePath(call.workspace.workspaceId, `invoices/${invoiceId}`);

const PAGE_SIZE = 50;

/** The invoice of the URL: by its id only (a number such as `INV-0003` is the CLI's way to name one). */
async function loadInvoice(call: WorkspaceCall): Promise<InvoiceView> {
  const ref = call.params.invoiceId ?? '';
  const notFound = () => new AppError('invoice_not_found', 'No such invoice');
  if (!/^ivc_[A-Za-z0-9_-]{1,80}$/.test(ref)) throw notFound();
  const invoice = await getInvoice({ ctx: call.ctx, input: { ref } });
  if (invoice.id !== ref) throw notFound();
  return invoice;
}

async function renderInvoice(call: WorkspaceCall, status: number, invoice: InvoiceView, form: InvoiceForm = {}) {
  const workspaceId = call.workspace.workspaceId;
  const [settings, lead, chain, document] = await Promise.all([
    getWorkspaceSettings({ ctx: call.ctx, input: { workspaceId } }),
    invoice.leadId ? leadLabel({ ctx: call.ctx, input: { id: invoice.leadId } }) : null,
    invoice.quoteId ? invoiceChain({ ctx: call.ctx, input: { quoteId: invoice.quoteId } }) : undefined,
    invoice.status === 'draft'
      ? undefined
      : invoicePdf({ ctx: call.ctx, input: { invoiceId: invoice.id, withBytes: false } }).catch(() => undefined),
  ]);
  return call.render(status, {
    title: invoice.number ?? 'Draft invoice',
    area: 'invoices',
    body: invoicePage(call, {
      invoice,
      leadName: lead,
      ...(chain ? { chain } : {}),
      ...(document ? { document } : {}),
      emailOn: Boolean(call.ctx.mail),
      today: todayIn(settings.timeZone, call.ctx.clock.now()),
      form,
    }),
  });
}

/** Whether the invoice's page shows `form` in the invoice's state (else a refusal of it is shown above the page). */
function formShown(form: NonNullable<InvoiceForm['form']>, invoice: InvoiceView): boolean {
  switch (form) {
    case 'draft':
      return invoice.status === 'draft';
    case 'payment':
      return invoice.kind !== 'credit_note' && invoice.status !== 'draft';
    case 'void':
      return invoice.status !== 'void';
    case 'credit':
      return invoice.kind !== 'credit_note' && invoice.payments.length > 0 && invoice.status !== 'void';
  }
}

/** A refusal shown on the invoice's page: beside its field in the form it is of, or above the page. */
async function refused(
  call: WorkspaceCall,
  error: unknown,
  form: NonNullable<InvoiceForm['form']>,
  extra?: FormErrors,
) {
  if (!isFormError(error)) throw error;
  const invoice = await loadInvoice(call);
  const errors: FormErrors = { ...extra };
  for (const fe of error.fieldErrors ?? ([] as FieldError[])) errors[fe.field] ??= fe.message;
  const shown = formShown(form, invoice);
  const problem = !shown || Object.keys(errors).length === 0 ? error.detail : undefined;
  return renderInvoice(call, httpStatusOf(error), invoice, { body: call.body, errors, form, problem });
}

const pageForm = (form: NonNullable<InvoiceForm['form']>, field: string): PageForm<WorkspaceCall> => ({
  field,
  rerender: (call, { error }) => refused(call, error, form),
});

const taxNames = (invoice: InvoiceView, body: Record<string, string>, prefix: string) =>
  invoice.taxRates.filter((_t, i) => body[`${prefix}-tax${i + 1}`] === 'on').map((t) => t.name);

/**
 * Applies the draft's form (docs/admin-app.md, "Invoices"): its details, every line shown, and a new line when one
 * was typed. Every field is checked first, by the verbs' own rules, and every refusal comes back at once (a line's
 * fields prefixed `line-{id}-`, the new line's `new-`) with nothing saved; then the verbs save it.
 */
async function applyDraftForm(call: WorkspaceCall, invoice: InvoiceView): Promise<{ errors: FieldError[] }> {
  const body = call.body;
  const errors: FieldError[] = [];
  const details: InvoiceDetails | undefined =
    body.title !== undefined
      ? {
          title: body.title,
          note: body.note,
          customerName: body.customerName,
          customerEmail: body.customerEmail,
          customerPhone: body.customerPhone,
          customerAddress: body.customerAddress,
          ...(body.sendMessage !== undefined ? { sendMessage: body.sendMessage } : {}),
          ...(body.paymentTermsDays !== undefined ? { paymentTermsDays: body.paymentTermsDays } : {}),
        }
      : undefined;
  if (details) {
    const { paymentTermsDays, ...rest } = details;
    errors.push(...checkQuoteDetails(rest, '0000-00-00').errors);
    if (paymentTermsDays !== undefined) {
      try {
        checkPaymentTerms(paymentTermsDays, 'paymentTermsDays');
      } catch (error) {
        if (!(error instanceof AppError)) throw error;
        errors.push(...(error.fieldErrors ?? []));
      }
    }
  }
  const check = (fields: InvoiceLineFields, prefix: string) => {
    try {
      return checkInvoiceLine(fields, invoice.currency, invoice.taxRates);
    } catch (error) {
      if (!(error instanceof AppError) || error.code !== 'invalid_fields') throw error;
      for (const fe of error.fieldErrors ?? []) errors.push({ ...fe, field: `${prefix}-${fe.field}` });
      return undefined;
    }
  };
  const changed = invoice.lines
    .filter((line) => body[`line-${line.id}-present`] === '1')
    .map((line) => {
      const p = `line-${line.id}`;
      const fields: InvoiceLineFields = {
        description: body[`${p}-description`] ?? '',
        quantity: body[`${p}-quantity`] ?? '',
        unit: body[`${p}-unit`] ?? '',
        price: body[`${p}-price`] ?? '',
        taxes: taxNames(invoice, body, p),
      };
      const values = check(fields, p);
      const same =
        values !== undefined &&
        values.description === line.description &&
        values.quantity === line.quantity &&
        values.unit === line.unit &&
        values.unitPrice === line.unitPrice &&
        fields.taxes!.join('\n') === line.taxes.join('\n');
      return { line, fields, same };
    })
    .filter((l) => !l.same);
  const typed = (body['new-description'] ?? '').trim() !== '' || (body['new-price'] ?? '').trim() !== '';
  let added: InvoiceLineFields | undefined;
  if (typed || body.do === 'add-line') {
    added = {
      description: body['new-description'] ?? '',
      quantity: body['new-quantity'] || '1',
      unit: body['new-unit'] || 'each',
      price: body['new-price'] ?? '',
      ...(body['new-taxes-shown'] === '1' ? { taxes: taxNames(invoice, body, 'new') } : {}),
    };
    check(added, 'new');
  }
  if (errors.length > 0) return { errors };
  const invoiceId = invoice.id;
  if (details) await updateInvoice({ ctx: call.ctx, input: { invoiceId, details } });
  for (const { line, fields } of changed)
    await updateInvoiceLine({ ctx: call.ctx, input: { invoiceId, lineId: line.id, line: fields } });
  if (added) await addInvoiceLine({ ctx: call.ctx, input: { invoiceId, line: added } });
  return { errors: [] };
}

function draftRefusal(errors: FieldError[]): AppError {
  return new AppError('invalid_fields', errors.map((e) => e.message).join('; '), errors);
}

/** Ticked boxes repeat their name; the gate's body keeps one value a name, so the list is read from the request. */
function many(call: WorkspaceCall, name: string): string[] {
  const raw = call.request.body as Record<string, unknown> | undefined;
  return [raw?.[name] ?? []].flat().filter((v): v is string => typeof v === 'string');
}

/** The quote of the URL, by a revision's id only (as the quote's own pages take it). */
async function loadQuote(call: WorkspaceCall) {
  const ref = call.params.quoteId ?? '';
  if (!/^[A-Za-z0-9_-]{1,80}$/.test(ref) || /^Q-/i.test(ref)) throw new AppError('quote_not_found', 'No such quote');
  return getQuote({ ctx: call.ctx, input: { ref } });
}

const KINDS: readonly QuoteInvoiceKind[] = ['invoice', 'deposit', 'final'];

/**
 * Invoices (docs/admin-app.md, "Invoices"): the Invoices screen, an invoice's page (a draft's editor and Send; a sent
 * one's payments, Void, Credit note, PDF), and the buttons that make one from an accepted quote or a lead.
 */
export const invoicesArea: AdminArea = {
  nav: { area: 'invoices', label: 'Invoices', path: 'invoices', access: 'member' },
  routes: [
    {
      method: 'GET',
      path: '/w/:workspaceId/invoices',
      access: 'member',
      handler: async (call) => {
        const raw = call.query.status;
        const status: InvoiceFilter | undefined =
          raw && (INVOICE_FILTERS as readonly string[]).includes(raw) ? checkInvoiceFilter(raw) : undefined;
        const cursor = /^[^~]{1,40}~[A-Za-z0-9_-]{1,80}$/.test(call.query.after ?? '') ? call.query.after : undefined;
        const [at = '', id = ''] = cursor?.split('~') ?? [];
        const [rows, totals] = await Promise.all([
          listInvoices({
            ctx: call.ctx,
            input: { status, limit: PAGE_SIZE + 1, ...(cursor ? { after: { at, id } } : {}) },
          }),
          outstandingTotals({ ctx: call.ctx, input: {} }),
        ]);
        const invoices = rows.slice(0, PAGE_SIZE);
        const last = invoices[invoices.length - 1];
        const next =
          rows.length > PAGE_SIZE && last
            ? `${status === 'overdue' ? (last.dueDate ?? '') : last.createdAt}~${last.id}`
            : null;
        return call.render(200, {
          title: 'Invoices',
          area: 'invoices',
          // The locale as read with the person's access (the workspace's row, once a request).
          body: invoicesScreen(call, {
            invoices,
            status,
            totals,
            locale: call.workspace.locale ?? 'en-US',
            cursor,
            next,
          }),
        });
      },
    },
    {
      method: 'GET',
      path: '/w/:workspaceId/invoices/:invoiceId',
      access: 'member',
      handler: async (call) => renderInvoice(call, 200, await loadInvoice(call)),
    },
    {
      // The draft's Save, Add line and Remove (named by the button pressed, `do`).
      method: 'POST',
      path: '/w/:workspaceId/invoices/:invoiceId',
      access: 'member',
      handler: async (call) => {
        const invoice = await loadInvoice(call);
        if (invoice.status !== 'draft')
          // The verb's own refusal, in its words ("INV-0003 is sent: a sent invoice is never changed; …").
          await updateInvoice({ ctx: call.ctx, input: { invoiceId: invoice.id, details: {} } });
        const { errors } = await applyDraftForm(call, invoice);
        if (errors.length > 0) return refused(call, draftRefusal(errors), 'draft');
        const [verb, lineId = ''] = (call.body.do ?? '').split(':');
        if (verb === 'remove') await removeInvoiceLine({ ctx: call.ctx, input: { invoiceId: invoice.id, lineId } });
        return call.redirect(invoicePath(call, invoice.id), 'invoice-saved');
      },
      form: pageForm('draft', 'lines'),
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/invoices/:invoiceId/send',
      access: 'member',
      handler: async (call) => {
        const invoice = await loadInvoice(call);
        if (invoice.status === 'draft') {
          // Send is the editor's other button: what was typed is saved first, and a refusal stops the send.
          const { errors } = await applyDraftForm(call, invoice);
          if (errors.length > 0) return refused(call, draftRefusal(errors), 'draft');
        }
        const sent = await sendInvoice({
          ctx: call.ctx,
          input: {
            invoiceId: invoice.id,
            by: { userId: call.user.userId },
            email: { replyTo: call.user.email, senderName: call.user.displayName || call.user.email },
          },
        });
        const emailed = Boolean(call.ctx.mail && sent.invoice.customer.email);
        return call.redirect(invoicePath(call, invoice.id), emailed ? 'invoice-sent-email' : 'invoice-sent');
      },
      form: pageForm('draft', 'send'),
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/invoices/:invoiceId/payments',
      access: 'member',
      handler: async (call) => {
        const invoice = await loadInvoice(call);
        const receipt = call.body.receipt === 'on';
        await recordPayment({
          ctx: call.ctx,
          input: {
            invoiceId: invoice.id,
            payment: {
              amount: call.body.amount ?? '',
              date: call.body.date ?? '',
              method: call.body.method ?? '',
              reference: call.body.reference ?? '',
            },
            receipt,
          },
        });
        const mailed = receipt && Boolean(call.ctx.mail && invoice.customer.email);
        return call.redirect(invoicePath(call, invoice.id), mailed ? 'payment-recorded-receipt' : 'payment-recorded');
      },
      form: pageForm('payment', 'amount'),
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/invoices/:invoiceId/payments/:paymentId/delete',
      access: 'member',
      handler: async (call) => {
        const invoice = await loadInvoice(call);
        await deletePayment({
          ctx: call.ctx,
          input: { invoiceId: invoice.id, paymentId: call.params.paymentId ?? '' },
        });
        return call.redirect(invoicePath(call, invoice.id), 'payment-deleted');
      },
      form: pageForm('payment', 'amount'),
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/invoices/:invoiceId/void',
      access: 'member',
      handler: async (call) => {
        const invoice = await loadInvoice(call);
        await voidInvoice({ ctx: call.ctx, input: { invoiceId: invoice.id, reason: call.body.reason ?? '' } });
        return call.redirect(invoicePath(call, invoice.id), 'invoice-voided');
      },
      form: pageForm('void', 'reason'),
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/invoices/:invoiceId/credit',
      access: 'member',
      handler: async (call) => {
        const invoice = await loadInvoice(call);
        const lineIds = many(call, 'line');
        const note = await createCreditNote({
          ctx: call.ctx,
          input: {
            invoiceId: invoice.id,
            reason: call.body.reason ?? '',
            ...(lineIds.length > 0 ? { lineIds } : {}),
          },
        });
        return call.redirect(invoicePath(call, note.id), 'credit-created');
      },
      form: pageForm('credit', 'reason'),
    },
    {
      method: 'GET',
      path: '/w/:workspaceId/invoices/:invoiceId/pdf',
      access: 'member',
      handler: async (call) => {
        const invoice = await loadInvoice(call);
        if (invoice.status === 'draft') return call.redirect(invoicePath(call, invoice.id));
        const doc = await invoicePdf({ ctx: call.ctx, input: { invoiceId: invoice.id } });
        if (doc.state !== 'done' || !doc.pdf) return call.redirect(invoicePath(call, invoice.id), 'pdf-pending');
        return sendAttachment(call.reply, {
          contentType: 'application/pdf',
          filename: doc.fileName,
          body: Buffer.from(doc.pdf),
          noStore: true,
        });
      },
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/invoices/:invoiceId/pdf/retry',
      access: 'member',
      handler: async (call) => {
        const invoice = await loadInvoice(call);
        await retryInvoicePdf({ ctx: call.ctx, input: { invoiceId: invoice.id } });
        return call.redirect(invoicePath(call, invoice.id), 'pdf-retried');
      },
    },
    {
      // An accepted quote's Invoice, Invoice deposit and Invoice the rest: a draft, or the refusal beside the buttons.
      method: 'POST',
      path: '/w/:workspaceId/quotes/:quoteId/invoices',
      access: 'member',
      handler: async (call) => {
        const quote = await loadQuote(call);
        const kind = call.body.kind ?? '';
        if (!(KINDS as readonly string[]).includes(kind))
          throw new AppError('invalid_fields', 'Choose Invoice, Invoice deposit or Invoice the rest', [
            { field: 'kind', code: 'invalid', message: 'Choose Invoice, Invoice deposit or Invoice the rest' },
          ]);
        const invoice = await createInvoiceFromQuote({
          ctx: call.ctx,
          input: { quoteId: quote.id, kind: kind as QuoteInvoiceKind },
        });
        return call.redirect(invoicePath(call, invoice.id), 'invoice-created');
      },
      form: {
        field: 'kind',
        rerender: async (call, { status, errors, error }) => {
          const quote = await loadQuote(call);
          return renderQuote(call, status, quote, {}, errors.kind ?? error.detail);
        },
      },
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/leads/:leadId/invoices',
      access: 'member',
      handler: async (call) => {
        const invoice = await createBlankInvoice({ ctx: call.ctx, input: { leadId: call.params.leadId ?? '' } });
        return call.redirect(invoicePath(call, invoice.id), 'invoice-created');
      },
    },
  ],
};
