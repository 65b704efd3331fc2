import { leadCtx, quoteCtx } from '../helpers/contexts.js';
import type { ParsedMail } from 'mailparser';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { createSession } from '../../src/domain/auth/sessions.js';
import { renderDueDocuments } from '../../src/domain/documents/document-jobs.js';
import { deliverDueEmails } from '../../src/domain/notifications/deliver-emails.js';
import { addPriceListItem } from '../../src/domain/price-list/add-price-list-item.js';
import { addQuoteLine } from '../../src/domain/quotes/add-quote-line.js';
import { createQuote } from '../../src/domain/quotes/create-quote.js';
import { getQuote } from '../../src/domain/quotes/get-quote.js';
import { sendQuote } from '../../src/domain/quotes/send-quote.js';
import { updateQuote } from '../../src/domain/quotes/update-quote.js';
import { inWorkspace } from '../../src/domain/context.js';
import { quotePdf } from '../../src/domain/quotes/quote-pdf.js';
import { quoteFormToken } from '../../src/web/quote/quote-routes.js';
import { pdfText } from '../helpers/pdf-text.js';
import { describeEachBackend } from '../helpers/backends.js';
import { TestClock } from '../helpers/clock.js';
import { csrfOf } from '../helpers/csrf-of.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';
import { leadOf, scanOf } from '../domain/quotes/quote-fixtures.js';
import { quotingWorkspace } from './quote-fixtures.js';

const NOW = Date.parse('2026-11-26T15:00:00.000Z');
const FORM = {
  'content-type': 'application/x-www-form-urlencoded',
  origin: 'http://leadscan.test',
  'sec-fetch-site': 'same-origin',
};
const MARKUP = '<script>alert(1)</script><b>x</b>&"\'';

/**
 * What the customer reads (issue 47): item names and their customer descriptions, not estimator notes (those only
 * when the quote shows them); a fee as a fee and m², the same on the page and in the emails; the sender's message and
 * the business's details in the send email; the optional lines the customer changed in the sender's notice;
 * **Preview as the customer**; and on the staff's side, how a pack line was measured in the figure's unit, and
 * optional lines that start unticked.
 */
describeEachBackend('what the customer reads, and the preview', (backend) => {
  let world: TestWorld;
  let sink: SmtpSink;
  let app: App;
  let home: Awaited<ReturnType<typeof quotingWorkspace>>;
  let cookie: string;
  let items: { sanding: string; tins: string; callout: string };

  beforeAll(async () => {
    sink = await startSmtpSink();
    world = await createWorld(backend, {
      clock: new TestClock(NOW),
      env: { SMTP_URL: sink.url, MAIL_FROM: 'Leadscan <quotes@leadscan.test>' },
    });
    app = await world.app();
    home = await quotingWorkspace(world, 'Wording', { businessName: 'Rénovations Tremblay' });
    const add = async (item: Parameters<typeof addPriceListItem>[0]['input']['item']) =>
      (
        await addPriceListItem({
          ctx: world.ctx,
          input: { workspaceId: home.seeded.workspaceId, role: 'owner', item },
        })
      ).id;
    items = {
      sanding: await add({ name: 'Floor sanding', unit: 'm2', price: '12.00', measure: 'floor_area' }),
      tins: await add({
        name: 'Wall paint, 10 L tin',
        unit: 'm2',
        price: '48.00',
        measure: 'wall_area_net',
        coats: '2',
        pack: '10',
        customerDescription: 'Washable matt, two coats',
      }),
      callout: await add({ name: 'Call-out fee', unit: 'fixed', price: '75' }),
    };
    const { sessionId } = await createSession({ ctx: world.ctx, input: { userId: home.senderId } });
    cookie = `leadscan_session=${sessionId}`;
  });
  afterAll(async () => {
    await world.close();
    await sink.stop();
  });
  beforeEach(async () => {
    await renderDueDocuments(world.ctx, { limit: 100 });
    await deliverDueEmails(world.ctx, { limit: 100 });
    sink.messages.length = 0;
  });

  const ws = () => `/w/${home.seeded.workspaceId}`;
  const staffGet = (url: string) => app.inject({ method: 'GET', url, headers: { cookie } });
  const staffPost = async (url: string, fields: Record<string, string>) => {
    const csrf = csrfOf((await staffGet(`${ws()}/quotes`)).body);
    return app.inject({
      method: 'POST',
      url,
      headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: csrf, ...fields }).toString(),
    });
  };
  async function mails(total: number): Promise<ParsedMail[]> {
    await renderDueDocuments(world.ctx, { limit: 100 });
    await deliverDueEmails(world.ctx, { limit: 100 });
    return sink.waitFor(total);
  }
  const to = (mail: ParsedMail) => (mail.to as { text: string }).text;

  /** A draft priced from the lead's scan: sanding per room, paint tins over both rooms, the call-out fee. */
  async function pricedDraft(customer: string) {
    const leadId = await leadOf(world, home.seeded, customer);
    const scanId = await scanOf(world, home.seeded, leadId);
    return createQuote({
      ctx: await leadCtx(world.ctx, leadId),
      input: { leadId, scanIds: [scanId], itemIds: [items.sanding, items.tins, items.callout] },
    });
  }
  const send = async (quoteId: string) =>
    sendQuote({
      ctx: await quoteCtx(world.ctx, quoteId),
      input: {
        quoteId,
        by: { userId: home.senderId, label: 'Sam Sender' },
        email: { replyTo: home.senderEmail, senderName: 'Sam Sender' },
      },
    });
  const accept = (token: string, lines: string[]) => {
    const body = new URLSearchParams({
      formToken: quoteFormToken(world.ctx, token),
      do: 'accept',
      revision: '1',
      name: 'Ada Lovelace',
      agreed: 'yes',
      linesShown: '1',
    });
    for (const line of lines) body.append('line', line);
    return app.inject({ method: 'POST', url: `/q/${token}`, headers: FORM, payload: body.toString() });
  };

  it('reads item names and descriptions, a fee as a fee, m²; how quantities were measured only when the quote shows it, on the page and in the emails', async () => {
    const draft = await pricedDraft('Ada Lovelace');
    const sent = await send(draft.id);
    const page = (await app.inject({ method: 'GET', url: `/q/${sent.token}` })).body;
    expect(page).toContain('<span class="pre">Floor sanding</span>');
    expect(page).toContain('<span class="pre">Wall paint, 10 L tin\nWashable matt, two coats</span>');
    // The estimator's notes stay with the staff.
    expect(page).not.toContain('Kitchen: floor');
    expect(page).not.toContain('packs of');
    expect(page).not.toContain('waste');
    // Quantities with the customer's units: 13.02 m², 13 tins (not "13 each"), the fee as its amount alone.
    expect(page).toContain('<td class="num col-qty">13.02 m²</td>');
    expect(page).toContain('<td class="num col-qty">13</td>');
    expect(page).toContain('13 × $48.00');
    expect(page).not.toMatch(/\beach\b/);
    expect(page).toContain(
      '<td class="num col-qty"></td>\n<td class="num col-price"></td>\n<td class="num amount">$75.00</td>',
    );
    expect(page).not.toContain('1 × $75.00');

    // The customer's copy and the sender's notice after the accept read the same way.
    expect((await accept(sent.token, [])).statusCode).toBe(303);
    // The send's email, the sender's notice, the customer's copy.
    const [notice, copy] = await mails(3).then((all) => [
      all.find((m) => to(m) === home.senderEmail)!,
      all.find((m) => to(m) === 'ada@example.com' && m.subject!.startsWith('Your acceptance'))!,
    ]);
    for (const mail of [notice!, copy!]) {
      expect(mail.text).toContain('Floor sanding: 13.02 m² × $12.00 = $156.24');
      expect(mail.text).toContain('Wall paint, 10 L tin — Washable matt, two coats: 13 × $48.00 = $624.00');
      expect(mail.text).toContain('Call-out fee: $75.00');
      expect(mail.text).not.toMatch(/ m2 | fixed | each /);
      expect(mail.text).not.toContain('Kitchen: floor');
      expect(mail.html).toContain('13.02 m² × $12.00');
      expect(mail.html).not.toContain('1 fixed');
    }

    // With "show how quantities were measured" on, the customer reads each line's note too, page and emails.
    const shown = await pricedDraft('Grace Hopper');
    await updateQuote({
      ctx: await quoteCtx(world.ctx, shown.id),
      input: { quoteId: shown.id, details: { showMeasurements: true } },
    });
    const shownSent = await send(shown.id);
    const open = (await app.inject({ method: 'GET', url: `/q/${shownSent.token}` })).body;
    expect(open).toContain('<span class="measured small muted">Kitchen: floor 13.02 m²</span>');
    expect(open).toContain(
      '<span class="measured small muted">Walls (net): Kitchen 32.78 m² + Hall 31.85 m² = 64.63 m² × 2 coats = 13 packs of 10 m²</span>',
    );
    // The PDFs read the same: the fee as its amount, the note only where the quote shows it.
    await renderDueDocuments(world.ctx, { limit: 100 });
    const pdf = async (quoteId: string) =>
      pdfText((await quotePdf({ ctx: inWorkspace(world.ctx, home.seeded.workspaceId), input: { quoteId } })).pdf!);
    const [plainPdf, shownPdf] = [await pdf(sent.quote.id), await pdf(shownSent.quote.id)];
    for (const text of [plainPdf, shownPdf]) {
      // Its amount alone: no quantity, no unit price before it.
      expect(text).toMatch(/Call-out fee \$75\.00 (?!\$75\.00)/);
      expect(text).toContain('Wall paint, 10 L tin Washable matt, two coats');
      expect(text).toMatch(/ 13 \$48\.00 \$624\.00/);
    }
    expect(plainPdf).not.toContain('Hall: floor 7.5 m²');
    expect(shownPdf).toContain('Hall: floor 7.5 m²');
    expect((await accept(shownSent.token, [])).statusCode).toBe(303);
    const shownCopy = (await mails(6)).find(
      (m) => to(m) === 'grace@example.com' && /^Your acceptance/.test(m.subject!),
    );
    expect(shownCopy!.text).toContain('(Hall: floor 7.5 m²)');
  }, 120_000); // the first send starts the PDF renderer's workers: slow on a loaded machine

  it("Send's email carries the sender's message and the business's address and phone; Save keeps the message", async () => {
    const draft = await pricedDraft('Ada Lovelace');
    const message = `Hi Ada, as promised after Tuesday's visit.\nCall me with any question. ${MARKUP}`;
    await updateQuote({
      ctx: await quoteCtx(world.ctx, draft.id),
      input: { quoteId: draft.id, details: { sendMessage: message } },
    });
    expect((await getQuote({ ctx: await quoteCtx(world.ctx, draft.id), input: { ref: draft.id } })).sendMessage).toBe(
      message,
    );
    await send(draft.id);
    const [mail] = await mails(1);
    expect(mail!.subject).toMatch(/^Quote Q-\d{4} from Rénovations Tremblay$/);
    expect(mail!.text).toContain(message);
    expect(mail!.text).toContain('200 Rue Sainte-Catherine\nMontréal QC H2X 1L1');
    expect(mail!.text).toContain('+1 514 555 0100');
    expect(mail!.text).toContain('hello@renovations.test');
    // The message comes before the link, the business after it.
    const text = mail!.text!;
    expect(text.indexOf(message)).toBeLessThan(text.indexOf('View the quote:'));
    expect(text.indexOf('View the quote:')).toBeLessThan(text.indexOf('+1 514 555 0100'));
    expect(mail!.html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(mail!.html).not.toContain('<script>alert(1)');
    expect(mail!.html).toMatch(/id="business">Rénovations Tremblay\n200 Rue Sainte-Catherine/);
    // The builder's Send saves what the page shows first: a message typed and not saved goes out as typed.
    const typed = await pricedDraft('Grace Hopper');
    sink.messages.length = 0;
    const sentTyped = await staffPost(`${ws()}/quotes/${typed.id}/send`, {
      title: 'Floors',
      sendMessage: 'Typed just before Send.',
    });
    expect(sentTyped.statusCode).toBe(303);
    const [typedMail] = await mails(1);
    expect(typedMail!.text).toContain('Typed just before Send.');
    // A message belongs to one send: a revision starts without one.
    const revised = await staffPost(`${ws()}/quotes/${draft.id}/revise`, {});
    expect(revised.statusCode).toBe(303);
    const rev2 = (revised.headers.location as string).split('/quotes/')[1]!.split('?')[0]!;
    expect((await getQuote({ ctx: await quoteCtx(world.ctx, rev2), input: { ref: rev2 } })).sendMessage).toBeNull();
  });

  it('tells the sender which optional lines the customer added or took out; optional lines start unticked', async () => {
    const leadId = await leadOf(world, home.seeded, 'Ada Lovelace');
    const optional = async (kept: boolean) => {
      const quote = await createQuote({ ctx: await leadCtx(world.ctx, leadId), input: { leadId } });
      await addQuoteLine({
        ctx: await quoteCtx(world.ctx, quote.id),
        input: {
          quoteId: quote.id,
          line: { description: 'Paint the kitchen', quantity: '8', unit: 'hour', price: '65' },
        },
      });
      await addQuoteLine({
        ctx: await quoteCtx(world.ctx, quote.id),
        input: {
          quoteId: quote.id,
          line: {
            description: 'Skirting, painted',
            quantity: '14',
            unit: 'm',
            price: '6',
            optional: true,
            chosen: true,
          },
        },
      });
      // Made optional without saying whether it is ticked: it starts unticked.
      const withCeiling = await addQuoteLine({
        ctx: await quoteCtx(world.ctx, quote.id),
        input: {
          quoteId: quote.id,
          line: { description: 'Ceiling, one coat', quantity: '13.02', unit: 'm2', price: '4.50', optional: true },
        },
      });
      const [, skirting, ceiling] = withCeiling.lines;
      expect([skirting!.chosen, ceiling!.chosen]).toEqual([true, false]);
      const sent = await send(quote.id);
      const ticks = kept ? [skirting!.id] : [ceiling!.id];
      expect((await accept(sent.token, ticks)).statusCode).toBe(303);
      return sent;
    };
    const changed = await optional(false);
    const notice = (await mails(3)).find((m) => to(m) === home.senderEmail && /accepted/.test(m.subject!))!;
    expect(notice.text).toContain('The customer added: Ceiling, one coat.');
    expect(notice.text).toContain('The customer took out: Skirting, painted.');
    expect(notice.html).toContain('The customer added: Ceiling, one coat.');
    const stored = await world.store.db
      .selectFrom('quotes')
      .select('sent_choices')
      .where('id', '=', changed.quote.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(stored.sent_choices!)).toEqual({
      lines: [changed.quote.lines.find((l) => l.description === 'Skirting, painted')!.id],
      sections: [],
    });
    sink.messages.length = 0;
    await optional(true);
    const same = (await mails(3)).find((m) => to(m) === home.senderEmail && /accepted/.test(m.subject!))!;
    expect(same.text).toContain('The customer left the optional lines as you sent them.');
    expect(same.text).not.toContain('The customer added');
  });

  it("the builder: a pack line's note is in the figure's unit; an optional line starts unticked; show measurements saves", async () => {
    const draft = await pricedDraft('Ada Lovelace');
    const builder = (await staffGet(`${ws()}/quotes/${draft.id}`)).body;
    expect(builder).toContain(
      '<p class="source">Walls (net): Kitchen 32.78 m² + Hall 31.85 m² = 64.63 m² × 2 coats = 13 packs of 10 m²</p>',
    );
    expect(builder).toContain('<p class="source">Kitchen: floor 13.02 m²</p>');
    expect(builder).not.toMatch(/\d each measured/);
    // A line made before notes were kept says it from its source, still in m².
    const tins = draft.lines.find((l) => l.unit === 'each')!;
    const { note: _note, ...bare } = tins.source!;
    await world.store.db
      .updateTable('quote_lines')
      .set({ source: JSON.stringify(bare) })
      .where('id', '=', tins.id)
      .execute();
    expect((await staffGet(`${ws()}/quotes/${draft.id}`)).body).toContain(
      '<p class="source">From the scan, room 1: 64.63 m² measured × 2 coats = 13 packs</p>',
    );

    // Ticking Optional on a line and saving: the line is optional and unticked, so it stops counting.
    const line = draft.lines.find((l) => l.description === 'Floor sanding')!;
    const p = `line-${line.id}`;
    const fields = {
      title: 'Floors',
      [`${p}-present`]: '1',
      [`${p}-description`]: 'Floor sanding',
      [`${p}-quantity`]: '13.02',
      [`${p}-unit`]: 'm2',
      [`${p}-price`]: '12.00',
      [`${p}-tax1`]: 'on',
      [`${p}-tax2`]: 'on',
      [`${p}-optional`]: 'on',
    };
    expect((await staffPost(`${ws()}/quotes/${draft.id}`, { ...fields, showMeasurements: 'on' })).statusCode).toBe(303);
    const saved = await getQuote({ ctx: await quoteCtx(world.ctx, draft.id), input: { ref: draft.id } });
    expect(saved.lines.find((l) => l.id === line.id)).toMatchObject({ optional: true, chosen: false });
    expect(saved.subtotal).toBe(draft.subtotal - line.amount);
    expect(saved.showMeasurements).toBe(true);
    // Its tick box is there now; ticking it counts it again. Unticking Optional makes it count whatever the tick.
    expect((await staffGet(`${ws()}/quotes/${draft.id}`)).body).toContain(`name="${p}-chosen" value="on">`);
    await staffPost(`${ws()}/quotes/${draft.id}`, { ...fields, [`${p}-chosen`]: 'on' });
    expect(
      (await getQuote({ ctx: await quoteCtx(world.ctx, draft.id), input: { ref: draft.id } })).lines.find(
        (l) => l.id === line.id,
      ),
    ).toMatchObject({
      optional: true,
      chosen: true,
    });
    const { [`${p}-optional`]: _off, ...plain } = fields;
    await staffPost(`${ws()}/quotes/${draft.id}`, plain);
    const back = await getQuote({ ctx: await quoteCtx(world.ctx, draft.id), input: { ref: draft.id } });
    expect(back.lines.find((l) => l.id === line.id)).toMatchObject({ optional: false, chosen: true });
    expect(back.showMeasurements).toBe(false);
    expect(back.subtotal).toBe(draft.subtotal);
  });

  it('Preview as the customer: their page for staff, a draft too, marked as a preview, answers off, never a view', async () => {
    const draft = await pricedDraft('Ada Lovelace');
    // The builder's button saves what the page shows, then opens the preview.
    const saved = await staffPost(`${ws()}/quotes/${draft.id}/preview`, { title: 'Floors and walls' });
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe(`${ws()}/quotes/${draft.id}/preview`);
    const preview = await staffGet(saved.headers.location as string);
    expect(preview.statusCode).toBe(200);
    expect(preview.headers['content-security-policy']).toContain("script-src 'self'");
    const page = preview.body;
    expect(page).toContain('<title>Preview: Quote Draft from Rénovations Tremblay</title>');
    expect(page).toContain('<h2>Preview as the customer</h2>');
    expect(page).toContain('This is the page Ada Lovelace sees once you send the quote.');
    expect(page).toContain(`<a href="${ws()}/quotes/${draft.id}" id="preview-back">`);
    expect(page).toContain('<h2 class="title">Floors and walls</h2>');
    expect(page).toContain('<span class="pre">Wall paint, 10 L tin\nWashable matt, two coats</span>');
    expect(page).toContain('href="/q/assets/quote.css?v=');
    expect(page).toContain('aria-label="Floor plan of Kitchen"');
    expect(page).toContain('<button type="submit" class="primary" disabled>Accept quote</button>');
    expect(page).not.toContain('data-view');
    expect(page).toContain('data-form-token=""');

    // A sent quote's preview is its link's page, and looking at it is no view.
    const sent = await send(draft.id);
    const outbox = async () =>
      Number(
        (
          await world.store.db
            .selectFrom('outbox')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await outbox();
    const again = (await staffGet(`${ws()}/quotes/${draft.id}/preview`)).body;
    expect(again).toContain('This is the page Ada Lovelace sees.');
    expect(again).toContain(`>${sent.quote.number}</h1>`);
    expect((await staffGet(`${ws()}/quotes/${draft.id}`)).body).toContain(`href="${ws()}/quotes/${draft.id}/preview"`);
    const after = await getQuote({ ctx: await quoteCtx(world.ctx, draft.id), input: { ref: draft.id } });
    expect({ status: after.status, views: after.viewCount, viewedAt: after.viewedAt }).toEqual({
      status: 'sent',
      views: 0,
      viewedAt: null,
    });
    expect(await outbox()).toBe(before);
  });
});
