import { leadCtx, quoteCtx } from '../../helpers/contexts.js';
import { expect, it } from 'vitest';
import { inWorkspace } from '../../../src/domain/context.js';
import { createQuote } from '../../../src/domain/quotes/create-quote.js';
import { addQuoteLine } from '../../../src/domain/quotes/add-quote-line.js';
import { sendQuote } from '../../../src/domain/quotes/send-quote.js';
import { quoteReport } from '../../../src/domain/reports/quote-report.js';
import { createSource } from '../../../src/domain/sources/create-source.js';
import { describeEachBackend } from '../../helpers/backends.js';
import type { Person } from '../../helpers/admin-security.js';
import { useAdminFixture } from '../../helpers/admin-fixture.js';

const MARKUP = '<script>alert(1)</script><b>x</b>&"\'';

describeEachBackend('the Report and Settings → Follow-ups pages', (backend) => {
  const f = useAdminFixture(backend);

  const get = (url: string, as: Person = f.owner) =>
    f.app.inject({ method: 'GET', url, headers: { cookie: as.cookie } });
  const post = (url: string, fields: Record<string, string>, as: Person = f.owner) =>
    f.app.inject({
      method: 'POST',
      url,
      headers: { cookie: as.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: as.csrf, ...fields }).toString(),
    });

  it('escapes a source’s name and a campaign sent in a page address, in the tables and the chart', async () => {
    const ctx = f.world.ctx;
    const source = await createSource({
      ctx: inWorkspace(ctx, f.home.workspaceId),
      input: { pipelineId: f.home.pipelineId, name: `Show ${MARKUP}` },
    });
    const lead = await f.app.inject({
      method: 'POST',
      url: `/api/intake/${source.token}`,
      payload: {
        name: 'Mallory',
        email: 'mallory@example.com',
        pageUrl: `https://example.com/?utm_source=${encodeURIComponent(MARKUP)}&utm_campaign=${encodeURIComponent(MARKUP)}`,
      },
    });
    expect(lead.statusCode).toBe(200);
    const quote = await createQuote({
      ctx: await leadCtx(ctx, lead.json<{ id: string }>().id),
      input: { leadId: lead.json<{ id: string }>().id },
    });
    await addQuoteLine({
      ctx: await quoteCtx(ctx, quote.id),
      input: { quoteId: quote.id, line: { description: 'Work', quantity: '1', unit: 'fixed', price: '10' } },
    });
    await sendQuote({
      ctx: await quoteCtx(ctx, quote.id),
      input: { quoteId: quote.id, by: { userId: null, label: 'test' } },
    });
    const page = await get(`/w/${f.home.workspaceId}/quotes/report?period=month`, f.member);
    expect(page.statusCode).toBe(200);
    expect(page.body).not.toContain('<script>alert(1)');
    expect(page.body).not.toContain('<b>x</b>');
    expect(page.body).toContain('&lt;script&gt;alert(1)&lt;/script&gt;&lt;b&gt;x&lt;/b&gt;&amp;&quot;&#39;');
    expect(page.body).toContain('<svg class="win-rate-chart"');
    // The figures are the verb's.
    const report = await quoteReport({ ctx: inWorkspace(ctx, f.home.workspaceId), input: { period: 'month' } });
    expect(report.byCampaign.map((c) => c.utmCampaign)).toContain(MARKUP);
  });

  it('refuses a range that ends before it starts next to its field, with the days as typed', async () => {
    const page = await get(`/w/${f.home.workspaceId}/quotes/report?from=2026-10-05&to=2026-10-01`);
    expect(page.statusCode).toBe(400);
    expect(page.body).toMatch(/id="f-to-error">A day on or after the first day/);
    expect(page.body).toContain('value="2026-10-05"');
    const bad = await get(`/w/${f.home.workspaceId}/quotes/report?from=2026-02-30`);
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toMatch(/id="f-from-error">A day, e.g. 2026-03-31/);
  });

  it('saves the follow-up settings, audited as a settings change, and shows a refusal beside its field', async () => {
    const url = `/w/${f.home.workspaceId}/settings/follow-ups`;
    const page = await get(url);
    expect(page.statusCode).toBe(200);
    expect(page.body).toMatch(/<option value="3" selected>/);
    const saved = await post(url, { followUpDays: 'off', customerReminders: '2, 5', invoiceReminders: '7,14,30' });
    expect(saved.statusCode).toBe(303);
    expect(saved.headers.location).toBe(`${url}?notice=settings-saved`);
    const row = await f.world.store.db
      .selectFrom('workspaces')
      .select(['follow_up_days', 'customer_reminder_days', 'invoice_reminder_days'])
      .where('id', '=', f.home.workspaceId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ follow_up_days: null, customer_reminder_days: '[2,5]', invoice_reminder_days: '[7,14,30]' });
    const audit = await f.world.store.db
      .selectFrom('audit_log')
      .select('details')
      .where('action', '=', 'settings.changed')
      .where('workspace_id', '=', f.home.workspaceId)
      .orderBy('at', 'desc')
      .executeTakeFirstOrThrow();
    expect(JSON.parse(audit.details)).toEqual({
      follow_up_days: true,
      customer_reminder_days: true,
      invoice_reminder_days: true,
    });
    const after = await get(`${url}?notice=settings-saved`);
    expect(after.body).toMatch(/<option value="off" selected>/);
    expect(after.body).toContain('value="2,5"');
    const refused = await post(url, { followUpDays: '45', customerReminders: '9,3', invoiceReminders: 'soon' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toMatch(/id="f-followUpDays-error">Choose off or a number of days from 1 to 30/);
    expect(refused.body).toMatch(/id="f-customerReminders-error">Off, or up to 2 days after the send/);
    expect(refused.body).toMatch(/id="f-invoiceReminders-error">Off, or up to 3 days after the due date/);
    expect(refused.body).toContain('value="9,3"');
    // The Needs follow-up filter says follow-ups are off.
    const list = await get(`/w/${f.home.workspaceId}/quotes?status=needs-follow-up`);
    expect(list.body).toContain('Follow-ups are off: Settings → Follow-ups turns them on.');
  });
});
