import { afterAll, beforeAll, expect, it } from 'vitest';
import { addPriceListItem } from '../../src/domain/price-list/add-price-list-item.js';
import { describeEachBackend } from '../helpers/backends.js';
import { cliJson, runCli } from '../helpers/cli.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';
import { leadOf, quoteWorkspace, scanOf } from '../domain/quotes/quote-fixtures.js';

interface Shown {
  id: string;
  subtotal: number;
  total: number;
  deposit: { percent: number | null; amount: number } | null;
  sections: Array<{
    id: string;
    title: string | null;
    subtotal: number;
    choice: string | null;
    recommended: boolean;
    chosen: boolean;
  }>;
  lines: Array<{ id: string; description: string; sectionId: string }>;
}

describeEachBackend('leadscan quotes section, line move, choice and deposit (spawned CLI)', (backend) => {
  let world: TestWorld;
  let env: Record<string, string>;
  beforeAll(async () => {
    world = await createWorld(backend);
    env = { DATABASE_URL: world.testDb.url, APP_SECRET: world.appSecret, PUBLIC_BASE_URL: 'https://leads.example.com' };
  });
  afterAll(async () => {
    await world.close();
  }, 120_000);

  it('drafts a quote by room and shapes its sections, choice and deposit, answering the quote as quotes show does', async () => {
    const ws = await quoteWorkspace(world, 'Floors');
    const leadId = await leadOf(world, ws);
    const scanId = await scanOf(world, ws, leadId);
    const tiles = await addPriceListItem({
      ctx: world.ctx,
      input: {
        workspaceId: ws.workspaceId,
        role: 'owner',
        item: { name: 'Tiles', unit: 'm2', price: '35', measure: 'floor_area', taxes: ['GST'] },
      },
    });
    // Kitchen 13.02 m² and Hall 7.5 m² at $35: $455.70 and $262.50; GST 5 %.
    let q = await cliJson<Shown>(
      ['quotes', 'create', '--lead', leadId, '--scan', scanId, '--item', tiles.id, '--deposit', '30%'],
      env,
    );
    expect(q.sections.map((s) => [s.title, s.subtotal])).toEqual([
      ['Kitchen', 45570],
      ['Hall', 26250],
    ]);
    // $718.20 + GST $35.91 = $754.11; 30 % = $226.233 → $226.23.
    expect(q.deposit).toEqual({ percent: 30, amount: 22623 });

    q = await cliJson<Shown>(['quotes', 'section', 'add', q.id, '--title', 'Extras'], env);
    q = await cliJson<Shown>(['quotes', 'section', 'rename', q.id, '3', '--title', 'Hall, option B'], env);
    q = await cliJson<Shown>(['quotes', 'section', 'move', q.id, q.sections[2]!.id, '--position', '1'], env);
    expect(q.sections.map((s) => s.title)).toEqual(['Hall, option B', 'Kitchen', 'Hall']);
    const hallLine = q.lines.find((l) => l.sectionId === q.sections[2]!.id)!;
    q = await cliJson<Shown>(['quotes', 'line', 'move', q.id, hallLine.id, '--section', '1'], env);
    expect(q.sections.map((s) => s.subtotal)).toEqual([26250, 45570, 0]);

    q = await cliJson<Shown>(
      ['quotes', 'choice', q.id, '--sections', `1,${q.sections[1]!.id}`, '--recommended', '2'],
      env,
    );
    expect(q.sections.map((s) => [s.choice, s.recommended, s.chosen])).toEqual([
      ['c1', false, false],
      ['c1', true, true],
      [null, false, true],
    ]);
    // Kitchen taken: $455.70 + GST $22.79 (22.785 → 22.79) = $478.49; 30 % = $143.547 → $143.55.
    expect(q).toMatchObject({ subtotal: 45570, total: 47849, deposit: { percent: 30, amount: 14355 } });
    q = await cliJson<Shown>(['quotes', 'deposit', q.id, '100.00'], env);
    expect(q.deposit).toEqual({ percent: null, amount: 10000 });
    q = await cliJson<Shown>(['quotes', 'choice', q.id, '--none'], env);
    expect(q.sections.every((s) => s.choice === null && s.chosen)).toBe(true);
    q = await cliJson<Shown>(['quotes', 'section', 'remove', q.id, '3'], env);
    expect(q.sections.map((s) => s.title)).toEqual(['Hall, option B', 'Kitchen']);

    const human = await runCli(['quotes', 'show', q.id], env);
    expect(human.stdout).toContain('== Hall, option B');
    expect(human.stdout).toContain('Deposit due on acceptance: 100.00 CAD');

    const refused = await runCli(['quotes', 'section', 'remove', q.id, '5', '--json'], env);
    expect(refused.code).toBe(1);
    expect(JSON.parse(refused.stdout)).toMatchObject({ ok: false, code: 'quote_section_not_found' });
    const bad = await runCli(['quotes', 'deposit', q.id, '120%', '--json'], env);
    expect(JSON.parse(bad.stdout)).toMatchObject({ ok: false, code: 'invalid_fields' });
    const one = await runCli(['quotes', 'choice', q.id, '--sections', '1', '--recommended', '1', '--json'], env);
    expect(JSON.parse(one.stdout)).toMatchObject({ ok: false, code: 'invalid_fields' });
  }, 300_000);
});
