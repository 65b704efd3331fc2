import { quoteCtx } from '../../helpers/contexts.js';
import { expect, it } from 'vitest';
import { describeEachBackend } from '../../helpers/backends.js';
import type { Person } from '../../helpers/admin-security.js';
import { useAdminFixture } from '../../helpers/admin-fixture.js';
import { getQuote } from '../../../src/domain/quotes/get-quote.js';

describeEachBackend('sections, alternatives and the deposit in the builder (forms, no script)', (backend) => {
  const f = useAdminFixture(backend);
  const ws = () => `/w/${f.home.workspaceId}`;
  const get = (url: string, as: Person = f.member) =>
    f.app.inject({ method: 'GET', url, headers: { cookie: as.cookie } });
  const post = (url: string, fields: Record<string, string | string[]>, as: Person = f.member) => {
    const form = new URLSearchParams({ _csrf: as.csrf });
    for (const [k, v] of Object.entries(fields)) for (const one of [v].flat()) form.append(k, one);
    return f.app.inject({
      method: 'POST',
      url,
      headers: { cookie: as.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: form.toString(),
    });
  };
  const quote = async (id: string) => getQuote({ ctx: await quoteCtx(f.world.ctx, id), input: { ref: id } });

  it('adds, renames, moves, removes sections, moves a line, offers a choice and sets the deposit; Add lines with nothing ticked keeps the editor', async () => {
    const made = await post(`${ws()}/leads/${f.extra.homeLeadId}/quotes`, {});
    const id = (made.headers.location as string).split('/quotes/')[1]!.split('?')[0]!;
    const base = `${ws()}/quotes/${id}`;
    await post(base, {
      do: 'add-line',
      'new-description': 'Oak',
      'new-quantity': '10',
      'new-unit': 'm2',
      'new-price': '60',
    });
    await post(base, {
      do: 'add-line',
      'new-description': 'Laminate',
      'new-quantity': '10',
      'new-unit': 'm2',
      'new-price': '25',
    });
    let q = await quote(id);
    const [first] = q.sections;

    // Add section: the redirect keeps its notice before the fragment (issue 47 item 3).
    const added = await post(base, { do: 'section-add', 'new-section-title': 'Laminate option' });
    expect(added.headers.location).toBe(`${base}?notice=quote-saved#lines-heading`);
    q = await quote(id);
    const second = q.sections[1]!;
    expect(q.sections.map((s) => s.title)).toEqual([null, 'Laminate option']);

    // One save: the first section's heading and the laminate line's section, as the page shows them.
    const laminate = q.lines[1]!;
    const saved = await post(base, {
      [`section-${first!.id}-title`]: 'Oak option',
      [`section-${second.id}-title`]: 'Laminate option',
      [`line-${laminate.id}-present`]: '1',
      [`line-${laminate.id}-description`]: 'Laminate',
      [`line-${laminate.id}-quantity`]: '10',
      [`line-${laminate.id}-unit`]: 'm2',
      [`line-${laminate.id}-price`]: '25',
      [`line-${laminate.id}-section`]: second.id,
      deposit: '30%',
      do: 'save',
    });
    expect(saved.statusCode).toBe(303);
    q = await quote(id);
    expect(q.sections.map((s) => [s.title, s.subtotal])).toEqual([
      ['Oak option', 60000],
      ['Laminate option', 25000],
    ]);
    expect(q.deposit).toMatchObject({ percent: 30000, amount: 25500 });

    // Offer as a choice, the laminate recommended: only it counts.
    await post(base, { do: 'choice', offer: [first!.id, second.id], recommended: second.id });
    q = await quote(id);
    expect(q.sections.map((s) => [s.choice, s.recommended, s.chosen])).toEqual([
      ['c1', false, false],
      ['c1', true, true],
    ]);
    expect(q).toMatchObject({ total: 25000, deposit: { amount: 7500 } });
    const page = await get(base);
    expect(page.body).toContain('Offer as a choice');
    expect(page.body).toContain('Recommended');
    expect(page.body).toContain('Add section');
    expect(page.body).toContain('value="30%"');

    // A choice of one section is refused next to the sections, the quote as it was.
    const one = await post(base, { do: 'choice', offer: second.id, recommended: second.id });
    expect(one.statusCode).toBe(400);
    expect(one.body).toContain('Pick 2 to 4 different sections');

    // Move the laminate section up, undo the choice, remove the oak section: its line goes to the laminate one.
    await post(base, { do: `section-up:${second.id}` });
    expect((await quote(id)).sections.map((s) => s.title)).toEqual(['Laminate option', 'Oak option']);
    await post(base, { do: `choice-none:${second.id}` });
    await post(base, { do: `section-remove:${first!.id}` });
    q = await quote(id);
    expect(q.sections.map((s) => s.title)).toEqual(['Laminate option']);
    expect(q.lines.map((l) => l.description)).toEqual(['Laminate', 'Oak']);
    const last = await post(base, { do: `section-remove:${second.id}` });
    expect(last.statusCode).toBe(409);
    expect(last.body).toContain('A quote keeps at least one section');

    // Add lines with nothing ticked: the editor keeps the quote as stored, the message beside the picker (item 2).
    const nothing = await post(`${base}/items`, {});
    expect(nothing.statusCode).toBe(400);
    expect(nothing.body).toContain('Tick at least one item to add');
    expect(nothing.body).toContain('value="Laminate option"');
    expect(nothing.body).toMatch(/>Laminate<\/textarea>/);
  }, 180_000);
});
