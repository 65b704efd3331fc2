import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parse } from 'csv-parse/sync';
import { exportLeadsCsv } from '../../src/domain/leads/export-leads.js';
import { listLeads } from '../../src/domain/leads/list-leads.js';
import { openLead } from '../../src/domain/leads/open-lead.js';
import { marketingSourceOf } from '../../src/domain/marketing-source.js';
import { campaignCounts } from '../../src/domain/sources/campaign-counts.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { inWorkspace } from '../../src/domain/context.js';

describe('marketing source of a page address', () => {
  it('reads utm_source, utm_medium, utm_campaign, gclid and fbclid, decoded and trimmed; blank or absent is null', () => {
    expect(
      marketingSourceOf(
        'https://example.com/quote?utm_source=Google&utm_medium=cpc&utm_campaign=Spring%20sale&gclid=Cj0K&fbclid=IwAR',
      ),
    ).toEqual({
      utm_source: 'Google',
      utm_medium: 'cpc',
      utm_campaign: 'Spring sale',
      gclid: 'Cj0K',
      fbclid: 'IwAR',
    });
    const none = { utm_source: null, utm_medium: null, utm_campaign: null, gclid: null, fbclid: null };
    expect(marketingSourceOf(null)).toEqual(none);
    expect(marketingSourceOf('https://example.com/')).toEqual(none);
    expect(marketingSourceOf('https://example.com/?utm_source=%20%20&utm_medium=')).toEqual(none);
    expect(marketingSourceOf('https://example.com/?utm_source=a&utm_source=b').utm_source).toBe('a');
    expect(marketingSourceOf('https://example.com/?utm_source=%0Anews%01letter+').utm_source).toBe('newsletter');
    expect(marketingSourceOf('https://example.com/?utm_campaign=' + 'é'.repeat(300)).utm_campaign).toBe(
      'é'.repeat(200),
    );
  });
});

describeEachBackend('marketing source on leads: stored at intake, filtered, exported, counted', (backend) => {
  let world: TestWorld;
  let seeded: Seeded;
  beforeEach(async () => {
    world = await createWorld(backend);
    seeded = await world.seed();
  });
  afterEach(async () => {
    await world.close();
  });

  const post = async (name: string, pageUrl?: string) => {
    const app = await world.app();
    const res = await app.inject({
      method: 'POST',
      url: `/api/intake/${seeded.source.token}`,
      headers: { 'content-type': 'application/json' },
      payload: { name, ...(pageUrl ? { pageUrl } : {}) },
    });
    expect(res.statusCode, res.body).toBe(200);
    return (res.json() as { id: string }).id;
  };

  it('keeps the parameters of the lead’s pageUrl on the lead, filters the inbox by utm_source, adds CSV columns and counts per source', async () => {
    const ad = await post(
      'Ad Lead',
      'https://example.com/quote?utm_source=google&utm_medium=cpc&utm_campaign=spring&gclid=Cj0K',
    );
    await post('Social Lead', 'https://example.com/?utm_source=facebook&fbclid=IwAR');
    await post('Plain Lead', 'https://example.com/contact');
    await post('No Page Lead');

    const lead = await openLead({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { id: ad } });
    expect(lead.marketing).toEqual({
      utm_source: 'google',
      utm_medium: 'cpc',
      utm_campaign: 'spring',
      gclid: 'Cj0K',
      fbclid: null,
    });

    const names = async (utmSource: string) =>
      (await listLeads({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { utmSource } })).leads.map(
        (l) => l.name,
      );
    expect(await names('google')).toEqual(['Ad Lead']);
    expect(await names(' facebook ')).toEqual(['Social Lead']);
    expect(await names('Google')).toEqual([]);

    const csv = await exportLeadsCsv({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: {} });
    const chunks: Buffer[] = [];
    for await (const chunk of csv) chunks.push(Buffer.from(chunk as Buffer));
    const records = parse(Buffer.concat(chunks).toString('utf8'), { columns: true, bom: true }) as Array<
      Record<string, string>
    >;
    const byName = new Map(records.map((r) => [r.name, r]));
    expect(byName.get('Ad Lead')).toMatchObject({
      utm_source: 'google',
      utm_medium: 'cpc',
      utm_campaign: 'spring',
      gclid: 'Cj0K',
      fbclid: '',
    });
    expect(byName.get('Social Lead')).toMatchObject({ utm_source: 'facebook', fbclid: 'IwAR' });
    expect(byName.get('Plain Lead')).toMatchObject({ utm_source: '', gclid: '' });

    const counts = await campaignCounts({ ctx: world.ctx, input: { sourceId: seeded.source.id } });
    expect(counts).toEqual({
      days: 30,
      counts: [
        { utmSource: null, leads: 2 },
        { utmSource: 'facebook', leads: 1 },
        { utmSource: 'google', leads: 1 },
      ],
      others: 0,
    });
  });
});
