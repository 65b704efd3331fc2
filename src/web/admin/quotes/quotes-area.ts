import { AppError, type FieldError } from '../../../domain/errors.js';
import { openLead } from '../../../domain/leads/open-lead.js';
import { leadName } from '../../../domain/leads/lead-view.js';
import { listPriceList } from '../../../domain/price-list/list-price-list.js';
import { addItemLines } from '../../../domain/quotes/add-item-lines.js';
import { copyQuote } from '../../../domain/quotes/copy-quote.js';
import { createQuote } from '../../../domain/quotes/create-quote.js';
import { getQuote } from '../../../domain/quotes/get-quote.js';
import { roomsOfLeadScans } from '../../../domain/quotes/lead-rooms.js';
import type { LineFields } from '../../../domain/quotes/line-fields.js';
import { checkListStatus, LIST_FILTERS, listQuotes } from '../../../domain/quotes/list-quotes.js';
import { removeQuoteLine } from '../../../domain/quotes/remove-quote-line.js';
import { inWorkspace } from '../../../domain/context.js';
import { depositText } from '../../../domain/money.js';
import { addQuoteSection } from '../../../domain/quotes/add-quote-section.js';
import { moveLineToSection } from '../../../domain/quotes/move-line-to-section.js';
import { moveQuoteSection } from '../../../domain/quotes/move-quote-section.js';
import { offerChoice } from '../../../domain/quotes/offer-choice.js';
import { removeQuoteSection } from '../../../domain/quotes/remove-quote-section.js';
import { renameQuoteSection } from '../../../domain/quotes/rename-quote-section.js';
import { setQuoteDeposit } from '../../../domain/quotes/set-quote-deposit.js';
import { undoChoice } from '../../../domain/quotes/undo-choice.js';
import { moveQuoteLine, reorderQuoteLines } from '../../../domain/quotes/reorder-quote-lines.js';
import { reviseQuote } from '../../../domain/quotes/revise-quote.js';
import { saveQuote, type DraftChanges } from '../../../domain/quotes/save-quote.js';
import { sendQuote } from '../../../domain/quotes/send-quote.js';
import { withdrawQuote } from '../../../domain/quotes/withdraw-quote.js';
import { quoteDocuments, quotePdf, retryQuotePdf } from '../../../domain/quotes/quote-pdf.js';
import { sendAttachment } from '../attachment.js';
import type { QuoteView } from '../../../domain/quotes/quote-view.js';
import { getWorkspaceSettings } from '../../../domain/settings/workspace-settings.js';
import { httpStatusOf } from '../../../http/error-statuses.js';
import type { AdminArea, PageForm, WorkspaceCall } from '../admin-route.js';
import { workspacePath } from '../admin-route.js';
import { formErrorsOf, isFormError, type FormErrors } from '../form-controls.js';
import { newQuotePage } from './new-quote-page.js';
import { quotePage, quotesScreen, type BuilderForm } from './quote-pages.js';
import { previewQuote } from '../../../domain/quotes/preview-quote.js';
import { roomFiguresOf } from '../../../domain/quotes/room-figures.js';
import { quotePage as customerPage } from '../../quote/quote-page.js';
import { frozenRoomPlans } from '../../quote/quote-plans.js';
import { invoiceChain } from '../../../domain/invoices/invoice-chain.js';
import { quoteInvoicesCard } from '../invoices/invoice-chain-blocks.js';

const quotePath = (call: WorkspaceCall, quoteId: string) =>
  workspacePath(call.workspace.workspaceId, `quotes/${quoteId}`);

async function loadQuote(call: WorkspaceCall): Promise<QuoteView> {
  const ref = call.params.quoteId ?? '';
  // Only ids in URLs: `Q-0007` would name a chain, not one revision.
  if (!/^[A-Za-z0-9_-]{1,80}$/.test(ref) || /^Q-/i.test(ref)) throw new AppError('quote_not_found', 'No such quote');
  return getQuote({ ctx: call.ctx, input: { ref } });
}

/** A quote's page; `invoiceError` is a refusal of its Invoice buttons (src/web/admin/invoices/), shown beside them. */
export async function renderQuote(
  call: WorkspaceCall,
  status: number,
  quote: QuoteView,
  form: BuilderForm = {},
  invoiceError?: string,
) {
  const workspaceId = call.workspace.workspaceId;
  const [settings, lead, items, scans, documents, chain] = await Promise.all([
    getWorkspaceSettings({ ctx: call.ctx, input: { workspaceId } }),
    openLead({ ctx: call.ctx, input: { id: quote.leadId } }),
    listPriceList({ ctx: call.ctx, input: { workspaceId } }),
    roomsOfLeadScans({ ctx: call.ctx, input: { workspaceId, leadId: quote.leadId } }),
    quote.status === 'draft' ? undefined : quoteDocuments({ ctx: call.ctx, input: { quoteId: quote.id } }),
    quote.status === 'accepted' ? invoiceChain({ ctx: call.ctx, input: { quoteId: quote.id } }) : undefined,
  ]);
  return call.render(status, {
    title: quote.number ?? 'Draft quote',
    area: 'quotes',
    body: quotePage(call, {
      quote,
      settings,
      leadName: leadName(lead),
      items,
      scans,
      emailOn: Boolean(call.ctx.mail),
      form,
      ...(call.query.moved ? { movedLine: call.query.moved } : {}),
      ...(documents ? { documents } : {}),
      ...(chain
        ? { invoices: quoteInvoicesCard(call, { quote, chain, locale: settings.locale, error: invoiceError }) }
        : {}),
    }),
  });
}

/** A refusal shown on the builder: field errors next to their fields, anything else above the form. */
async function refused(call: WorkspaceCall, error: unknown, errors: FormErrors = {}) {
  if (!isFormError(error)) throw error;
  const quote = await loadQuote(call);
  const fieldErrors = { ...errors, ...(error.fieldErrors?.length ? formErrorsOf(error, 'title') : {}) };
  const problem = error.fieldErrors?.length ? undefined : error.detail;
  return renderQuote(call, httpStatusOf(error), quote, {
    body: quote.status === 'draft' ? call.body : undefined,
    errors: fieldErrors,
    problem,
  });
}

/** The builder's form: a refusal the gate catches comes back on the builder (see `refused`). */
const builderForm: PageForm<WorkspaceCall> = { field: 'title', rerender: (call, { error }) => refused(call, error) };

const taxNames = (quote: QuoteView, body: Record<string, string>, prefix: string) =>
  quote.taxes.filter((_t, i) => body[`${prefix}-tax${i + 1}`] === 'on').map((t) => t.name);

/**
 * Applies the builder's form to a draft as one save (`saveQuote`): its details, every line shown, and a free line when
 * one was typed. All or nothing: every refusal comes back at once (a line's fields prefixed by `line-{id}-`, the free
 * line's by `new-`) and nothing is saved, while the page shows again what was typed.
 */
async function applyForm(call: WorkspaceCall, quote: QuoteView): Promise<{ errors: FormErrors; first?: AppError }> {
  const body = call.body;
  const changes: DraftChanges = {};
  // A field the form did not send stays as it is; a browser sends every field, an emptied one as ''.
  if (body.title !== undefined) {
    changes.details = {
      title: body.title,
      note: body.note,
      terms: body.terms,
      validUntil: body.validUntil,
      customerName: body.customerName,
      customerEmail: body.customerEmail,
      customerPhone: body.customerPhone,
      customerAddress: body.customerAddress,
      showMeasurements: body.showMeasurements === 'on',
      ...(body.sendMessage !== undefined ? { sendMessage: body.sendMessage } : {}),
    };
  }
  changes.lines = quote.lines
    .filter((line) => body[`line-${line.id}-present`] === '1')
    .map((line) => {
      const p = `line-${line.id}`;
      const fields: LineFields = {
        description: body[`${p}-description`] ?? '',
        quantity: body[`${p}-quantity`] ?? '',
        unit: body[`${p}-unit`] ?? '',
        price: body[`${p}-price`] ?? '',
        taxes: taxNames(quote, body, p),
        optional: body[`${p}-optional`] === 'on',
        // A line made optional in this save has no tick box yet: it starts unticked (docs/quotes.md, "Optional lines").
        chosen: line.optional ? body[`${p}-chosen`] === 'on' : undefined,
      };
      return { lineId: line.id, line: fields };
    });
  const typed = (body['new-description'] ?? '').trim() !== '' || (body['new-price'] ?? '').trim() !== '';
  if (typed || body.do === 'add-line') {
    changes.newLine = {
      description: body['new-description'] ?? '',
      quantity: body['new-quantity'] || '1',
      unit: body['new-unit'] || 'each',
      price: body['new-price'] ?? '',
      // The builder shows the free line's tax boxes (ticked as on by default); a form without them gets the defaults.
      ...(body['new-taxes-shown'] === '1' ? { taxes: taxNames(quote, body, 'new') } : {}),
    };
  }
  try {
    await saveQuote({ ctx: call.ctx, input: { quoteId: quote.id, ...changes } });
  } catch (error) {
    if (!isFormError(error)) throw error;
    const errors: FormErrors = {};
    for (const fe of error.fieldErrors ?? ([] as FieldError[])) errors[fe.field] ??= fe.message;
    return { errors, first: error };
  }
  return applySections(call, quote);
}

/**
 * The rest of what the builder shows, saved as the page shows it (Send and Preview too): each section's heading, the
 * section each line sits in (its select), and the deposit. A refusal names its field (`section-{id}-title`, `deposit`).
 */
async function applySections(call: WorkspaceCall, quote: QuoteView): Promise<{ errors: FormErrors; first?: AppError }> {
  const body = call.body;
  const ctx = inWorkspace(call.ctx, call.workspace.workspaceId);
  const quoteId = quote.id;
  let field = '';
  try {
    for (const section of quote.sections) {
      field = `section-${section.id}-title`;
      const title = body[field];
      if (title !== undefined && title.trim() !== (section.title ?? ''))
        await renameQuoteSection({ ctx, input: { quoteId, sectionId: section.id, title } });
    }
    for (const line of quote.lines) {
      field = `line-${line.id}-section`;
      const sectionId = body[field];
      if (sectionId && sectionId !== line.sectionId)
        await moveLineToSection({ ctx, input: { quoteId, lineId: line.id, sectionId } });
    }
    field = 'deposit';
    const current = quote.deposit && { percent: quote.deposit.percent, fixed: quote.deposit.fixed };
    if (
      body.deposit !== undefined &&
      body.deposit.trim() !== depositText(current, quote.currency).replace(/^none$/, '')
    )
      await setQuoteDeposit({ ctx, input: { quoteId, deposit: body.deposit } });
    return { errors: {} };
  } catch (error) {
    if (!isFormError(error)) throw error;
    return { errors: { [field]: error.fieldErrors?.[0]?.message ?? error.detail }, first: error };
  }
}

/** The section buttons of the builder (`do`), after the form's edits are saved: add, move, remove, offer, undo. */
async function sectionAction(call: WorkspaceCall, quote: QuoteView): Promise<boolean> {
  const [verb = '', sectionId = ''] = (call.body.do ?? '').split(':');
  const ctx = inWorkspace(call.ctx, call.workspace.workspaceId);
  const quoteId = quote.id;
  switch (verb) {
    case 'section-add':
      await addQuoteSection({ ctx, input: { quoteId, title: call.body['new-section-title'] ?? '' } });
      return true;
    case 'section-up':
    case 'section-down':
      await moveQuoteSection({ ctx, input: { quoteId, sectionId, to: verb === 'section-up' ? 'up' : 'down' } });
      return true;
    case 'section-remove':
      await removeQuoteSection({ ctx, input: { quoteId, sectionId } });
      return true;
    case 'choice':
      await offerChoice({
        ctx,
        input: { quoteId, sectionIds: many(call, 'offer'), recommendedId: call.body.recommended ?? '' },
      });
      return true;
    case 'choice-none':
      await undoChoice({ ctx, input: { quoteId, ...(sectionId ? { sectionIds: [sectionId] } : {}) } });
      return true;
    default:
      return false;
  }
}

/**
 * Move up/down, Remove and the script's drag (`reorder`, with the whole order in `line-order`), named by the button
 * pressed (`do`), after the form's edits are saved (a dragged line's new section, too, through its Section select).
 */
async function lineAction(call: WorkspaceCall, quote: QuoteView): Promise<void> {
  const [verb, lineId = ''] = (call.body.do ?? '').split(':');
  const input = { quoteId: quote.id, lineId };
  if (verb === 'up' || verb === 'down') await moveQuoteLine({ ctx: call.ctx, input: { ...input, direction: verb } });
  if (verb === 'reorder') {
    const lineIds = (call.body['line-order'] ?? '').split(',').filter((id) => id !== '');
    await reorderQuoteLines({ ctx: call.ctx, input: { quoteId: quote.id, lineIds } });
  }
  if (verb === 'remove') await removeQuoteLine({ ctx: call.ctx, input });
}

/**
 * Where the builder reloads after a button: at the line that moved (marked there as saved), at the lines after a
 * removal or a section button, at the top after Save.
 */
function builderPlace(call: WorkspaceCall, quoteId: string): string {
  const [verb = '', id = ''] = (call.body.do ?? '').split(':');
  const path = quotePath(call, quoteId);
  if (['up', 'down', 'reorder'].includes(verb) && /^[A-Za-z0-9_-]{1,80}$/.test(id))
    return `${path}?moved=${id}#line-${id}`;
  if (verb === 'remove' || verb.startsWith('section') || verb.startsWith('choice')) return `${path}#lines-heading`;
  return path;
}

/** Ticked boxes repeat their name; the gate's body keeps one value a name, so the list is read from the request. */
function many(call: WorkspaceCall, name: string): string[] {
  const raw = call.request.body as Record<string, unknown> | undefined;
  return [raw?.[name] ?? []].flat().filter((v): v is string => typeof v === 'string');
}

/** New quote's picker (docs/admin-app.md): the lead's scans' rooms with their figures, and the price list's items. */
async function renderNewQuote(
  call: WorkspaceCall,
  status: number,
  picked?: { rooms: string[]; items: string[] },
  errors?: FormErrors,
) {
  const workspaceId = call.workspace.workspaceId;
  const lead = await openLead({ ctx: call.ctx, input: { id: call.params.leadId ?? '' } });
  const [settings, items, scans] = await Promise.all([
    getWorkspaceSettings({ ctx: call.ctx, input: { workspaceId } }),
    listPriceList({ ctx: call.ctx, input: { workspaceId } }),
    roomsOfLeadScans({ ctx: call.ctx, input: { workspaceId, leadId: lead.id } }),
  ]);
  const figures = await roomFiguresOf({ ctx: call.ctx, input: { scanIds: scans.map((s) => s.scanId) } });
  return call.render(status, {
    title: 'New quote',
    area: 'quotes',
    body: newQuotePage(call, {
      leadId: lead.id,
      leadName: leadName(lead),
      scans,
      figures,
      items,
      settings,
      picked,
      errors,
    }),
  });
}

const senderOf = (call: WorkspaceCall) => ({
  userId: call.user.userId,
  label: call.user.displayName || call.user.email,
});

/** A one-button action on a quote (Revise, Withdraw, Copy): to the quote it answers, or the refusal on the page. */
function quoteAction(path: string, notice: string, verb: (call: WorkspaceCall, quoteId: string) => Promise<QuoteView>) {
  return {
    method: 'POST' as const,
    path: `/w/:workspaceId/quotes/:quoteId/${path}`,
    access: 'member' as const,
    handler: async (call: WorkspaceCall) => {
      const quote = await loadQuote(call);
      const result = await verb(call, quote.id);
      return call.redirect(quotePath(call, result.id), notice);
    },
    form: builderForm,
  };
}

/** A revision's PDF as stored, or back to its page when it is not made yet (the page says where it stands). */
async function pdfDownload(call: WorkspaceCall, accepted: boolean) {
  const quote = await loadQuote(call);
  const doc = await quotePdf({ ctx: call.ctx, input: { quoteId: quote.id, accepted } });
  if (doc.state !== 'done' || !doc.pdf) return call.redirect(quotePath(call, quote.id), 'pdf-pending');
  return sendAttachment(call.reply, {
    contentType: 'application/pdf',
    filename: doc.fileName,
    body: Buffer.from(doc.pdf),
    noStore: true,
  });
}

/** Quotes (docs/admin-app.md): the Quotes screen, New quote from a lead, the builder, Send, Revise, Withdraw, Copy. */
export const quotesArea: AdminArea = {
  nav: { area: 'quotes', label: 'Quotes', path: 'quotes', access: 'member' },
  routes: [
    {
      method: 'GET',
      path: '/w/:workspaceId/quotes',
      access: 'member',
      handler: async (call) => {
        const workspaceId = call.workspace.workspaceId;
        const raw = call.query.status;
        const status = raw && (LIST_FILTERS as readonly string[]).includes(raw) ? checkListStatus(raw) : undefined;
        const [settings, quotes] = await Promise.all([
          getWorkspaceSettings({ ctx: call.ctx, input: { workspaceId } }),
          listQuotes({ ctx: call.ctx, input: { workspaceId, status, limit: 200 } }),
        ]);
        return call.render(200, {
          title: 'Quotes',
          area: 'quotes',
          body: quotesScreen(call, { quotes, status, settings }),
        });
      },
    },
    {
      method: 'GET',
      path: '/w/:workspaceId/leads/:leadId/quotes/new',
      access: 'member',
      handler: async (call) => renderNewQuote(call, 200),
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/leads/:leadId/quotes',
      access: 'member',
      handler: async (call) => {
        const workspaceId = call.workspace.workspaceId;
        const lead = await openLead({ ctx: call.ctx, input: { id: call.params.leadId ?? '' } });
        const scans = await roomsOfLeadScans({ ctx: call.ctx, input: { workspaceId, leadId: lead.id } });
        const rooms = many(call, 'room');
        const itemIds = many(call, 'item');
        // One line per ticked room × ticked item; the rooms grouped by scan, in the lead's scan order.
        const picks = scans
          .map((s) => ({
            scanId: s.scanId,
            rooms: rooms.filter((r) => r.startsWith(`${s.scanId}:`)).map((r) => Number(r.slice(s.scanId.length + 1))),
          }))
          .filter((p) => p.rooms.length > 0);
        let quote: QuoteView;
        try {
          if (
            picks.reduce((n, p) => n + p.rooms.length, 0) !== rooms.length ||
            picks.some((p) => p.rooms.some((r) => !Number.isInteger(r) || r < 1))
          ) {
            throw new AppError('invalid_fields', 'A ticked room is no longer in a scan of this lead', [
              {
                field: 'room',
                code: 'invalid',
                message: 'A scan was detached or changed meanwhile: tick the rooms again',
              },
            ]);
          }
          const items = await listPriceList({ ctx: call.ctx, input: { workspaceId } });
          const known = new Set(items.map((i) => i.id));
          if (itemIds.some((id) => !known.has(id))) {
            throw new AppError('invalid_fields', 'A ticked item is no longer in the price list', [
              {
                field: 'item',
                code: 'invalid',
                message: 'An item was removed from the price list meanwhile: tick the items again',
              },
            ]);
          }
          // An item priced by a room's figure needs a room; one added once (a call-out fee) does not.
          const measuredTicked = items.some((i) => i.measure !== null && itemIds.includes(i.id));
          if (measuredTicked && picks.length === 0) {
            throw new AppError('invalid_fields', 'Tick at least one room', [
              { field: 'room', code: 'required', message: 'Tick the rooms to price the items in' },
            ]);
          }
          quote = await createQuote({
            ctx: call.ctx,
            input: { leadId: lead.id, picks, itemIds, userId: call.user.userId },
          });
        } catch (error) {
          if (!isFormError(error)) throw error;
          const errors = error.fieldErrors?.length ? formErrorsOf(error, 'form') : { form: error.detail };
          if (errors.rooms) errors.room ??= errors.rooms;
          return renderNewQuote(call, httpStatusOf(error), { rooms, items: itemIds }, errors);
        }
        return call.redirect(quotePath(call, quote.id), 'quote-created');
      },
    },
    {
      method: 'GET',
      path: '/w/:workspaceId/quotes/:quoteId',
      access: 'member',
      handler: async (call) => renderQuote(call, 200, await loadQuote(call)),
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/quotes/:quoteId',
      access: 'member',
      handler: async (call) => {
        const quote = await loadQuote(call);
        if (quote.status !== 'draft')
          return refused(
            call,
            new AppError('quote_not_editable', 'A sent quote is never changed; revise it to make a new draft'),
          );
        const { errors, first } = await applyForm(call, quote);
        if (first) return refused(call, first, errors);
        try {
          if (!(await sectionAction(call, quote))) await lineAction(call, quote);
        } catch (error) {
          if (!isFormError(error)) throw error;
          // A section button refused (a choice of one section, the last section): the message by the sections.
          const message = error.fieldErrors?.[0]?.message ?? error.detail;
          return renderQuote(call, httpStatusOf(error), await loadQuote(call), { errors: { sections: message } });
        }
        return call.redirect(builderPlace(call, quote.id), 'quote-saved');
      },
      form: builderForm,
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/quotes/:quoteId/items',
      access: 'member',
      handler: async (call) => {
        const quote = await loadQuote(call);
        const workspaceId = call.workspace.workspaceId;
        const itemIds = many(call, 'item');
        const picked = many(call, 'room');
        // Nothing ticked: the quote as it is (nothing typed in the editor is in this form), the message by the picker.
        if (itemIds.length === 0)
          return renderQuote(call, 400, quote, {
            errors: { item: 'Tick at least one item to add, then Add lines' },
          });
        const byScan = new Map<string, number[]>();
        for (const value of picked) {
          const [scanId = '', index = ''] = value.split(':');
          if (/^\d{1,4}$/.test(index)) byScan.set(scanId, [...(byScan.get(scanId) ?? []), Number(index)]);
        }
        const items = await listPriceList({ ctx: call.ctx, input: { workspaceId } });
        const measured = itemIds.filter((id) => items.find((i) => i.id === id)?.measure);
        const plain = itemIds.filter((id) => !measured.includes(id));
        // No room ticked: a measured item is added once, quantity 1, to be typed.
        if (measured.length > 0 && byScan.size === 0) plain.push(...measured);
        // One call for every scan: a pack item over rooms of two scans is still one line (docs/quotes.md).
        if (measured.length > 0 && byScan.size > 0)
          await addItemLines({
            ctx: call.ctx,
            input: {
              quoteId: quote.id,
              itemIds: measured,
              picks: [...byScan].map(([scanId, rooms]) => ({ scanId, rooms })),
            },
          });
        if (plain.length > 0) await addItemLines({ ctx: call.ctx, input: { quoteId: quote.id, itemIds: plain } });
        return call.redirect(quotePath(call, quote.id), 'lines-added');
      },
      form: builderForm,
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/quotes/:quoteId/send',
      access: 'member',
      handler: async (call) => {
        const quote = await loadQuote(call);
        if (quote.status === 'draft') {
          // Send is the builder form's other button: what was typed is saved first, and a refusal stops the send.
          const { errors, first } = await applyForm(call, quote);
          if (first) return refused(call, first, errors);
        }
        const sent = await sendQuote({
          ctx: call.ctx,
          input: {
            quoteId: quote.id,
            by: senderOf(call),
            email: { replyTo: call.user.email, senderName: call.user.displayName || call.user.email },
          },
        });
        const emailed = Boolean(call.ctx.mail && sent.quote.customer.email);
        return call.redirect(quotePath(call, quote.id), emailed ? 'quote-sent-email' : 'quote-sent');
      },
      form: builderForm,
    },
    {
      // Preview as the customer: their page, for staff, marked as a preview; nothing is recorded (no view).
      method: 'GET',
      path: '/w/:workspaceId/quotes/:quoteId/preview',
      access: 'member',
      handler: async (call) => {
        const quote = await loadQuote(call);
        const customer = await previewQuote({ ctx: call.ctx, input: { quoteId: quote.id } });
        return call.send(
          200,
          customerPage({
            customer,
            formToken: '',
            beacon: false,
            plans: frozenRoomPlans(customer.plans),
            preview: { back: quotePath(call, quote.id), draft: quote.status === 'draft' },
          }),
        );
      },
    },
    {
      // The builder's Preview button: what the page shows is saved first (as Send does), then the preview.
      method: 'POST',
      path: '/w/:workspaceId/quotes/:quoteId/preview',
      access: 'member',
      handler: async (call) => {
        const quote = await loadQuote(call);
        if (quote.status === 'draft') {
          const { errors, first } = await applyForm(call, quote);
          if (first) return refused(call, first, errors);
        }
        return call.redirect(`${quotePath(call, quote.id)}/preview`);
      },
      form: builderForm,
    },
    {
      method: 'GET',
      path: '/w/:workspaceId/quotes/:quoteId/pdf',
      access: 'member',
      handler: async (call) => pdfDownload(call, false),
    },
    {
      method: 'GET',
      path: '/w/:workspaceId/quotes/:quoteId/pdf/accepted',
      access: 'member',
      handler: async (call) => pdfDownload(call, true),
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/quotes/:quoteId/pdf/retry',
      access: 'member',
      handler: async (call) => {
        const quote = await loadQuote(call);
        await retryQuotePdf({ ctx: call.ctx, input: { quoteId: quote.id } });
        return call.redirect(quotePath(call, quote.id), 'pdf-retried');
      },
      form: builderForm,
    },
    quoteAction('revise', 'quote-revised', (call, quoteId) =>
      reviseQuote({
        ctx: call.ctx,
        input: { quoteId, userId: call.user.userId },
      }),
    ),
    quoteAction('withdraw', 'quote-withdrawn', (call, quoteId) => withdrawQuote({ ctx: call.ctx, input: { quoteId } })),
    quoteAction('copy', 'quote-copied', (call, quoteId) =>
      copyQuote({
        ctx: call.ctx,
        input: { quoteId, userId: call.user.userId },
      }),
    ),
  ],
};
