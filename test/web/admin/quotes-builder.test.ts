import { afterEach, beforeEach, expect, it } from 'vitest';
import { deliverDueEmails } from '../../../src/domain/notifications/deliver-emails.js';
import { renderDueDocuments } from '../../../src/domain/documents/document-jobs.js';
import { addPriceListItem } from '../../../src/domain/price-list/add-price-list-item.js';
import { createQuote } from '../../../src/domain/quotes/create-quote.js';
import { addQuoteLine } from '../../../src/domain/quotes/add-quote-line.js';
import { attachScan } from '../../../src/domain/scans/attach-scan.js';
import { describeEachBackend } from '../../helpers/backends.js';
import { createAdminFixture, type AdminFixture, type Person } from '../../helpers/admin-security.js';
import { useAdminFixture } from '../../helpers/admin-fixture.js';
import { startSmtpSink, type SmtpSink } from '../../helpers/smtp-sink.js';
import { createWorld, type TestWorld } from '../../helpers/test-app.js';
import { inWorkspace } from '../../../src/domain/context.js';

type Fixture = Pick<AdminFixture, 'app' | 'owner' | 'member' | 'home' | 'extra' | 'world'>;

function client(f: () => Fixture) {
  const get = (url: string, as: Person = f().owner) =>
    f().app.inject({ method: 'GET', url, headers: { cookie: as.cookie } });
  const post = (url: string, fields: Record<string, string | string[]>, as: Person = f().owner) => {
    const form = new URLSearchParams({ _csrf: as.csrf });
    for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) form.append(k, one);
    return f().app.inject({
      method: 'POST',
      url,
      headers: { cookie: as.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
    });
  };
  return { get, post };
}

describeEachBackend('the quote builder and the Quotes screen', (backend) => {
  const f = useAdminFixture(backend);
  const { get, post } = client(() => f);
  const ws = () => `/w/${f.home.workspaceId}`;

  async function newDraft(as: Person = f.member): Promise<string> {
    const made = await post(`${ws()}/leads/${f.extra.homeLeadId}/quotes`, {}, as);
    expect(made.statusCode).toBe(303);
    const location = made.headers.location as string;
    expect(location).toMatch(new RegExp(`^${ws()}/quotes/[^/?]+\\?notice=quote-created$`));
    return location.split('/quotes/')[1]!.split('?')[0]!;
  }
  const linesOf = async (quoteId: string) =>
    (
      await f.world.store.db
        .selectFrom('quote_lines')
        .select(['id', 'description', 'quantity', 'unit_price'])
        .where('quote_id', '=', quoteId)
        .orderBy('position')
        .execute()
    ).map((l) => ({
      ...l,
      quantity: Number(l.quantity),
      unit_price: Number(l.unit_price),
    }));

  it('New quote opens a picker page; ticks naming a room or item that is gone are refused next to the boxes, and no draft is made', async () => {
    const lead = await get(`${ws()}/leads/${f.extra.homeLeadId}`, f.member);
    expect(lead.body).toContain(`href="${ws()}/leads/${f.extra.homeLeadId}/quotes/new"`);
    const picker = await get(`${ws()}/leads/${f.extra.homeLeadId}/quotes/new`, f.member);
    expect(picker.statusCode).toBe(200);
    expect(picker.body).toContain(`action="${ws()}/leads/${f.extra.homeLeadId}/quotes"`);
    const count = async () =>
      Number(
        (
          await f.world.store.db
            .selectFrom('quotes')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    await attachScan({
      ctx: inWorkspace(f.world.ctx, f.home.workspaceId),
      input: { scanId: f.homeScanId, leadId: f.extra.homeLeadId! },
    });
    expect((await get(`${ws()}/leads/${f.extra.homeLeadId}/quotes/new`, f.member)).body).toContain(
      `name="room" value="${f.homeScanId}:1" checked`,
    );
    const room = await post(
      `${ws()}/leads/${f.extra.homeLeadId}/quotes`,
      { room: 'scan_gone:1', item: f.extra.homeItemId! },
      f.member,
    );
    expect(room.statusCode).toBe(400);
    expect(room.body).toMatch(/<p class="field-error" id="f-room-error">A scan was detached or changed meanwhile/);
    const item = await post(`${ws()}/leads/${f.extra.homeLeadId}/quotes`, { item: 'pli_gone' }, f.member);
    expect(item.statusCode).toBe(400);
    expect(item.body).toMatch(
      /<p class="field-error" id="f-item-error">An item was removed from the price list meanwhile/,
    );
    expect(await count()).toBe(before);
  });

  it('New quote on the lead page makes a draft; a member adds items and free lines, edits, moves and removes them, and totals follow', async () => {
    const lead = await get(`${ws()}/leads/${f.extra.homeLeadId}`, f.member);
    expect(lead.body).toContain('New quote');
    const id = await newDraft();
    const page = await get(`${ws()}/quotes/${id}?notice=quote-created`, f.member);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('A draft quote was made');
    expect(page.body).toContain('value="Home lead"');
    const added = await post(`${ws()}/quotes/${id}/items`, { item: f.extra.homeItemId! }, f.member);
    expect(added.headers.location).toBe(`${ws()}/quotes/${id}?notice=lines-added`);
    let lines = await linesOf(id);
    expect(lines.map((l) => l.description)).toEqual(['Paint']);
    const first = lines[0]!.id;
    const saved = await post(
      `${ws()}/quotes/${id}`,
      {
        title: 'Kitchen <script>x</script>',
        customerName: 'Ann & Bob',
        customerEmail: '',
        customerPhone: '',
        customerAddress: '',
        validUntil: '2099-12-31',
        note: '',
        terms: '',
        [`line-${first}-present`]: '1',
        [`line-${first}-description`]: 'Paint <b>walls</b>',
        [`line-${first}-quantity`]: '23.155',
        [`line-${first}-unit`]: 'm2',
        [`line-${first}-price`]: '12.50',
        'new-description': 'Discount',
        'new-quantity': '1',
        'new-unit': 'fixed',
        'new-price': '-20',
        do: 'save',
      },
      f.member,
    );
    expect(saved.statusCode).toBe(303);
    lines = await linesOf(id);
    expect(lines.map((l) => [l.description, l.quantity, l.unit_price])).toEqual([
      ['Paint <b>walls</b>', 2316, 1250],
      ['Discount', 100, -2000],
    ]);
    const shown = await get(`${ws()}/quotes/${id}`, f.member);
    // 23.16 × 12.50 = 289.50, less 20 = 269.50 (no taxes set up).
    expect(shown.body).toMatch(/id="quote-total"[^>]*>\$269\.50</);
    expect(shown.body).toContain('Paint &lt;b&gt;walls&lt;/b&gt;');
    expect(shown.body).toContain('Kitchen &lt;script&gt;x&lt;/script&gt;');
    expect(shown.body).not.toContain('<script>x');
    expect(shown.body).toContain('value="Ann &amp; Bob"');
    // Move the discount up: back at that line, marked, with the notice before the fragment.
    const second = lines[1]!.id;
    const moved = await post(`${ws()}/quotes/${id}`, { do: `up:${second}` }, f.member);
    expect(moved.headers.location).toBe(`${ws()}/quotes/${id}?moved=${second}&notice=quote-saved#line-${second}`);
    expect((await linesOf(id)).map((l) => l.description)).toEqual(['Discount', 'Paint <b>walls</b>']);
    const marked = await get(moved.headers.location as string, f.member);
    expect(marked.body).toMatch(new RegExp(`class="quote-line moved" id="line-${second}"`));
    // The script's drag posts the whole order; an order that misses a line is refused by the sections, unchanged.
    const dragged = await post(
      `${ws()}/quotes/${id}`,
      { do: `reorder:${first}`, 'line-order': `${first},${second}` },
      f.member,
    );
    expect(dragged.headers.location).toBe(`${ws()}/quotes/${id}?moved=${first}&notice=quote-saved#line-${first}`);
    expect((await linesOf(id)).map((l) => l.description)).toEqual(['Paint <b>walls</b>', 'Discount']);
    const partial = await post(`${ws()}/quotes/${id}`, { do: `reorder:${first}`, 'line-order': second }, f.member);
    expect(partial.statusCode).toBe(400);
    expect(partial.body).toMatch(/id="f-sections-error"[^>]*>The lines changed meanwhile; reload and try again</);
    expect((await linesOf(id)).map((l) => l.description)).toEqual(['Paint <b>walls</b>', 'Discount']);
    await post(`${ws()}/quotes/${id}`, { do: `up:${second}` }, f.member);
    await post(`${ws()}/quotes/${id}`, { do: `remove:${first}` }, f.member);
    expect((await linesOf(id)).map((l) => l.description)).toEqual(['Discount']);
  });

  it('a refused line comes back next to its field with what was typed', async () => {
    const id = f.extra.homeDraftId!;
    const line = f.extra.homeLineId!;
    const bad = await post(`${ws()}/quotes/${id}`, {
      [`line-${line}-present`]: '1',
      [`line-${line}-description`]: 'Labour <i>',
      [`line-${line}-quantity`]: 'lots',
      [`line-${line}-unit`]: 'hour',
      [`line-${line}-price`]: '40',
      do: 'save',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(new RegExp(`id="f-line-${line}-quantity-error">Give a number`));
    expect(bad.body).toContain('value="lots"');
    expect(bad.body).toContain('Labour &lt;i&gt;</textarea>');
  });

  it('a Save is all or nothing: with one field refused, neither the title, the other line nor the free line is saved', async () => {
    const quoteId = f.extra.homeDraftId!;
    const line = f.extra.homeLineId!;
    const before = await linesOf(quoteId);
    const bad = await post(`${ws()}/quotes/${quoteId}`, {
      title: 'Kept only if all is valid',
      [`line-${line}-present`]: '1',
      [`line-${line}-description`]: 'Labour',
      [`line-${line}-quantity`]: '3',
      [`line-${line}-unit`]: 'hour',
      [`line-${line}-price`]: '40',
      'new-description': 'Skip',
      'new-price': 'free',
      do: 'save',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/id="f-new-price"[^>]*>/);
    expect(bad.body).toContain('value="Kept only if all is valid"');
    expect(await linesOf(quoteId)).toEqual(before);
    const row = await f.world.store.db
      .selectFrom('quotes')
      .select(['title', 'total'])
      .where('id', '=', quoteId)
      .executeTakeFirstOrThrow();
    expect(row.title).toBeNull();
  });

  it('Send of a quote whose total is below zero is refused on the builder with what to do, and nothing is sent', async () => {
    const quoteId = f.extra.homeDraftId!;
    const refused = await post(
      `${ws()}/quotes/${quoteId}/send`,
      { 'new-description': 'Goodwill', 'new-price': '-500', 'new-quantity': '1', 'new-unit': 'fixed' },
      f.member,
    );
    expect(refused.statusCode).toBe(422);
    expect(refused.body).toMatch(/role="alert">The total is -\$[\d,.]+, below zero: a quote asks the customer to pay/);
    const row = await f.world.store.db
      .selectFrom('quotes')
      .select(['status', 'number'])
      .where('id', '=', quoteId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ status: 'draft', number: null });
  });

  it('Send without email shows the customer’s link; the sent quote is read-only; Revise, Withdraw and Copy follow its state', async () => {
    const id = f.extra.homeDraftId!;
    const sent = await post(`${ws()}/quotes/${id}/send`, {}, f.member);
    expect(sent.headers.location).toBe(`${ws()}/quotes/${id}?notice=quote-sent`);
    const page = await get(sent.headers.location as string, f.member);
    expect(page.body).toContain('Email is off on this server');
    expect(page.body).toMatch(/id="customer-link">http:\/\/leadscan\.test\/q\/[A-Za-z0-9_-]{20,}</);
    expect(page.body).toContain('Q-0002');
    expect(page.body).not.toContain('id="builder"');
    expect(page.body).toContain('>Revise<');
    expect(page.body).toContain('>Withdraw<');
    const edit = await post(`${ws()}/quotes/${id}`, { title: 'Changed', do: 'save' }, f.member);
    expect(edit.statusCode).toBe(409);
    const revised = await post(`${ws()}/quotes/${id}/revise`, {}, f.member);
    expect(revised.headers.location).toMatch(/notice=quote-revised$/);
    const revision = await get(revised.headers.location as string, f.member);
    expect(revision.body).toContain('id="builder"');
    const withdrawn = await post(`${ws()}/quotes/${f.extra.homeSentId}/withdraw`, {}, f.member);
    expect(withdrawn.headers.location).toBe(`${ws()}/quotes/${f.extra.homeSentId}?notice=quote-withdrawn`);
    const after = await get(withdrawn.headers.location as string, f.member);
    expect(after.body).toContain('Withdrawn');
    expect(after.body).not.toContain('>Withdraw<');
    const copied = await post(`${ws()}/quotes/${f.extra.homeSentId}/copy`, {}, f.member);
    expect(copied.headers.location).toMatch(/notice=quote-copied$/);
  });

  it('the Quotes screen lists quotes with status filters, money in the workspace currency; the lead page lists its quotes', async () => {
    const all = await get(`${ws()}/quotes`, f.member);
    expect(all.statusCode).toBe(200);
    expect(all.body).toContain('Q-0001');
    expect(all.body).toContain('$80.00');
    expect(all.body).toContain('$50.00');
    const sent = await get(`${ws()}/quotes?status=sent`, f.member);
    expect(sent.body).toContain('Q-0001');
    expect(sent.body).not.toContain('$80.00');
    const drafts = await get(`${ws()}/quotes?status=draft`, f.member);
    expect(drafts.body).toContain('$80.00');
    expect(drafts.body).not.toContain('Q-0001');
    const accepted = await get(`${ws()}/quotes?status=accepted`, f.member);
    expect(accepted.body).toContain('No quotes with this status.');
    const lead = await get(`${ws()}/leads/${f.extra.homeLeadId}`, f.member);
    expect(lead.body).toMatch(/id="lead-quotes-list"[\s\S]*Q-0001/);
  });

  it('20 Sends posted at once through the page give 20 consecutive numbers', async () => {
    const ids: string[] = [];
    for (let i = 0; i < 20; i++) {
      const q = await createQuote({
        ctx: inWorkspace(f.world.ctx, f.home.workspaceId),
        input: { leadId: f.extra.homeLeadId! },
      });
      await addQuoteLine({
        ctx: inWorkspace(f.world.ctx, f.home.workspaceId),
        input: {
          quoteId: q.id,
          line: { description: `Job ${i}`, quantity: '1', unit: 'each', price: '10' },
        },
      });
      ids.push(q.id);
    }
    const answers = await Promise.all(ids.map((id) => post(`${ws()}/quotes/${id}/send`, {}, f.member)));
    expect(answers.map((a) => a.statusCode)).toEqual(ids.map(() => 303));
    const numbers = (await f.world.store.db.selectFrom('quotes').select('number').where('id', 'in', ids).execute())
      .map((r) => r.number!)
      .sort();
    // Q-0001 is the fixture's sent quote.
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => `Q-${String(i + 2).padStart(4, '0')}`));
  });
});

describeEachBackend('the quote email through a real SMTP conversation', (backend) => {
  let sink: SmtpSink;
  let world: TestWorld;
  let fixture: AdminFixture;
  beforeEach(async () => {
    sink = await startSmtpSink();
    world = await createWorld(backend, { env: { SMTP_URL: sink.url, MAIL_FROM: 'Leadscan <quotes@leadscan.test>' } });
    fixture = await createAdminFixture(world);
  });
  afterEach(async () => {
    await world.close();
    await sink.stop();
  });
  const { get, post } = client(() => fixture);

  it('Send emails the customer: subject, plain text and HTML with the link, Reply-To the sender, every value escaped', async () => {
    const f = fixture;
    const ws = `/w/${f.home.workspaceId}`;
    await world.store.db
      .updateTable('workspaces')
      .set({ name: 'Home <Renovations>' })
      .where('id', '=', f.home.workspaceId)
      .execute();
    const item = await addPriceListItem({
      ctx: world.ctx,
      input: { workspaceId: f.home.workspaceId, role: 'owner', item: { name: 'Tiles', unit: 'm2', price: '30' } },
    });
    const made = await post(`${ws}/leads/${f.extra.homeLeadId}/quotes`, {});
    const id = (made.headers.location as string).split('/quotes/')[1]!.split('?')[0]!;
    await post(`${ws}/quotes/${id}/items`, { item: item.id });
    const sent = await post(`${ws}/quotes/${id}/send`, {
      title: 'Floor',
      customerName: 'Ann <b>',
      customerEmail: 'ann@customer.test',
      customerPhone: '',
      customerAddress: '',
      validUntil: '2099-12-31',
      note: '',
      terms: '',
    });
    expect(sent.headers.location).toBe(`${ws}/quotes/${id}?notice=quote-sent-email`);
    const page = await get(sent.headers.location as string);
    const link = /id="customer-link">([^<]+)</.exec(page.body)![1]!;
    sink.messages.length = 0;
    // The server's document job makes the PDF the email carries (docs/documents.md).
    await renderDueDocuments(world.ctx, { limit: 50 });
    await deliverDueEmails(world.ctx, { limit: 50 });
    const mail = sink.messages.find((m) => m.subject?.startsWith('Quote '));
    expect(mail).toBeDefined();
    expect(mail!.subject).toBe('Quote Q-0002 from Home <Renovations>');
    expect(mail!.to && !Array.isArray(mail!.to) ? mail!.to.text : '').toBe('ann@customer.test');
    expect(mail!.replyTo?.text).toBe(f.owner.email);
    expect(mail!.text).toContain(`View the quote: ${link}`);
    expect(mail!.text).toContain('Hello Ann <b>,');
    expect(mail!.text).toContain('$30.00');
    expect(mail!.html).toContain(`href="${link}"`);
    expect(mail!.html).toContain('Ann &lt;b&gt;');
    expect(mail!.html).not.toContain('Ann <b>');
  });
});
