import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { updateSpamRules } from '../../src/domain/sources/update-spam-rules.js';
import { describeEachBackend } from '../helpers/backends.js';
import { agedStamp } from '../helpers/form-stamp.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { storedRows } from './intake-helpers.js';
import { inWorkspace } from '../../src/domain/context.js';

/**
 * Allowed sites protect the embedded form too (docs/admin-app.md, "Spam rules"): the form page names them in
 * frame-ancestors, a hosted-form post from a page not allowed is quarantined, and hosts compare with their ports.
 */
describeEachBackend('allowed sites and the embedded form', (backend) => {
  let world: TestWorld;
  let app: FastifyInstance;
  let seeded: Seeded;
  beforeAll(async () => {
    world = await createWorld(backend);
    seeded = await world.seed();
    app = await world.app();
  });
  afterAll(async () => {
    await world.close();
  });

  const setSites = async (sites: string[]) => {
    await world.store.db
      .updateTable('lead_sources')
      .set({ spam_rules: null })
      .where('id', '=', seeded.source.id)
      .execute();
    if (sites.length > 0)
      await updateSpamRules({
        ctx: inWorkspace(world.ctx, seeded.workspaceId),
        input: { sourceId: seeded.source.id, add: { allowedSites: sites } },
      });
  };
  beforeEach(async () => {
    await setSites([]);
  });

  const csp = async () => {
    const res = await app.inject({ method: 'GET', url: `/f/${seeded.source.token}` });
    expect(res.statusCode).toBe(200);
    return String(res.headers['content-security-policy']);
  };

  it('sends frame-ancestors built from the allowed sites, and none without them', async () => {
    expect(await csp()).not.toContain('frame-ancestors');
    await setSites(['www.roofer.example', '*.builder.example', 'localhost:4000']);
    expect(await csp()).toContain(
      "frame-ancestors 'self' http://www.roofer.example:* https://www.roofer.example:* http://*.builder.example:* https://*.builder.example:* http://localhost:4000 https://localhost:4000",
    );
    // The no-script post's answers carry it too: the thank-you is in the same frame.
    const posted = await app.inject({
      method: 'POST',
      url: `/f/${seeded.source.token}`,
      payload: { name: 'Framed person', formStamp: agedStamp(world, seeded.source.id) },
    });
    expect(posted.statusCode).toBe(200);
    expect(String(posted.headers['content-security-policy'])).toContain(
      "frame-ancestors 'self' http://www.roofer.example:*",
    );
  });

  /** A post of the hosted form's script: from the form's own page, carrying the embedding page's address. */
  const formPost = (name: string, pageUrl?: string) =>
    app.inject({
      method: 'POST',
      url: `/api/intake/${seeded.source.token}`,
      headers: { host: 'forms.ours.example', origin: 'https://forms.ours.example', 'content-type': 'application/json' },
      payload: { name, formStamp: agedStamp(world, seeded.source.id), ...(pageUrl ? { pageUrl } : {}) },
    });

  it('quarantines a hosted-form post embedded in a page not allowed as site_not_allowed', async () => {
    await setSites(['www.roofer.example']);
    const answers = [
      await formPost('Embedded elsewhere', 'https://evil.example/contact'),
      await formPost('Embedded on the site', 'https://www.roofer.example/contact'),
      await formPost('Opened at its own address'),
    ];
    expect(answers.map((a) => [a.statusCode, JSON.parse(a.body).ok])).toEqual([
      [200, true],
      [200, true],
      [200, true],
    ]);
    const rows = await storedRows(world, seeded.source.id);
    const names = rows.leads.map((l) => l.name);
    expect(names).toEqual(expect.arrayContaining(['Embedded on the site', 'Opened at its own address']));
    expect(names).not.toContain('Embedded elsewhere');
    expect(rows.quarantine.filter((q) => q.reason === 'site_not_allowed').map((q) => q.detail)).toEqual([
      'evil.example',
    ]);
  });

  it('compares hosts with their ports when a site names one', async () => {
    await setSites(['shop.example:8443', 'www.roofer.example']);
    const post = (name: string, origin: string, host = 'forms.ours.example:3000') =>
      app.inject({
        method: 'POST',
        url: `/api/intake/${seeded.source.token}`,
        headers: { origin, host },
        payload: { name },
      });
    await post('Right port', 'https://shop.example:8443');
    await post('Wrong port', 'https://shop.example:9000');
    await post('Default port', 'https://shop.example');
    await post('Any port of a site without one', 'https://www.roofer.example:8080');
    // The same machine on another port is another site, not this server's own page.
    await post('Our host, another port', 'http://forms.ours.example:4000');
    await post('Our own page', 'http://forms.ours.example:3000');
    const rows = await storedRows(world, seeded.source.id);
    const caught = rows.quarantine.filter((q) => q.reason === 'site_not_allowed').map((q) => q.detail);
    expect(caught).toEqual(expect.arrayContaining(['shop.example:9000', 'shop.example', 'forms.ours.example:4000']));
    expect(caught).not.toContain('shop.example:8443');
    expect(rows.leads.map((l) => l.name)).toEqual(
      expect.arrayContaining(['Right port', 'Any port of a site without one', 'Our own page']),
    );
    expect(rows.leads.map((l) => l.name)).not.toEqual(expect.arrayContaining(['Wrong port']));
  });

  it('keeps a site as typed with its port, and refuses a bad port', async () => {
    await setSites(['https://Shop.Example:8443/contact']);
    const row = await world.store.db
      .selectFrom('lead_sources')
      .select('spam_rules')
      .where('id', '=', seeded.source.id)
      .executeTakeFirstOrThrow();
    expect(JSON.parse(row.spam_rules ?? '{}').allowedSites).toEqual(['shop.example:8443']);
    await expect(setSites(['shop.example:99999'])).rejects.toMatchObject({ code: 'invalid_request' });
  });
});
