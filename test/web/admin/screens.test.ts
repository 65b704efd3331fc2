import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { expect, it } from 'vitest';
import { createSource } from '../../../src/domain/sources/create-source.js';
import { describeEachBackend } from '../../helpers/backends.js';
import type { Person } from '../../helpers/admin-security.js';
import { useAdminFixture } from '../../helpers/admin-fixture.js';
import { insertLeads } from '../../domain/leads-fixtures.js';
import { inWorkspace } from '../../../src/domain/context.js';

const XSS = '<script>alert(1)</script>';
const ESCAPED = '&lt;script&gt;alert(1)&lt;/script&gt;';

describeEachBackend('admin screens over HTTP', (backend) => {
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
  const ws = (rest: string) => `/w/${f.home.workspaceId}${rest}`;

  it('markup in a source name, form texts and room names renders as text on every page that shows it', async () => {
    const source = await createSource({
      ctx: inWorkspace(f.world.ctx, f.home.workspaceId),
      input: { pipelineId: f.home.pipelineId, name: XSS },
    });
    const up = await f.app.inject({
      method: 'POST',
      url: '/api/scan/upload',
      headers: { 'x-scan-key': f.home.uploadKey },
      payload: JSON.stringify({ rooms: [{ name: XSS }, { name: '"><img src=x onerror=alert(1)>' }] }),
    });
    expect(up.statusCode).toBe(200);
    const scanId = (
      await f.world.store.db.selectFrom('scans').select('id').orderBy('id', 'desc').executeTakeFirstOrThrow()
    ).id;
    expect(
      (await post(ws(`/sources/${source.id}/texts`), { heading: XSS, introduction: XSS, thankYou: XSS })).statusCode,
    ).toBe(303);
    const pages = [
      ws('/sources'),
      ws(`/sources/${source.id}`),
      ws('/scans'),
      ws(`/scans/${scanId}`),
      `/f/${source.token}`,
    ];
    for (const url of pages) {
      const res = url.startsWith('/f/') ? await f.app.inject({ method: 'GET', url }) : await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body, url).not.toContain(XSS);
      expect(res.body, url).not.toContain('<img src=x');
      expect(res.body, url).toContain(ESCAPED);
    }
    const thanks = await f.app.inject({
      method: 'POST',
      url: `/f/${source.token}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'name=Ada',
    });
    expect(thanks.statusCode).toBe(200);
    expect(thanks.body).not.toContain(XSS);
    expect(thanks.body).toContain(ESCAPED);
  });

  it('Sources: New source, Deactivate/Activate take effect on the intake, bot-check secret is never shown back', async () => {
    const bad = await post(ws('/sources'), { name: '   ', pipeline: f.home.pipelineId });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('field-error');
    const made = await post(ws('/sources'), { name: 'Landing page', pipeline: f.home.pipelineId });
    expect(made.statusCode).toBe(303);
    const path = made.headers.location!.split('?')[0]!;
    const page = await get(path);
    const token = /\/f\/([0-9a-f-]{36})/.exec(page.body)![1]!;
    expect(page.body).toContain(`http://leadscan.test/api/intake/${token}`);
    expect(page.body).toMatch(
      /&lt;iframe id=&quot;leadscan-form-[0-9a-f]{8}&quot; src=&quot;http:\/\/leadscan.test\/f\//,
    );
    const intake = () => f.app.inject({ method: 'POST', url: `/api/intake/${token}`, payload: { name: 'Ada' } });
    expect((await intake()).statusCode).toBe(200);

    expect((await post(`${path}/active`, { active: '0' })).statusCode).toBe(303);
    expect((await intake()).statusCode).toBe(404);
    expect((await post(`${path}/active`, { active: '1' })).statusCode).toBe(303);
    expect((await intake()).statusCode).toBe(200);

    const list = await get(ws('/sources'));
    expect(list.body).toMatch(
      /Landing page<\/a><\/td>\s*<td[^>]*>Sales<\/td>\s*<td[^>]*><span class="badge on">Active<\/span><\/td>\s*<td[^>]*>2<\/td>/,
    );

    const noSecret = await post(`${path}/bot-check`, { provider: 'turnstile', secret: '', siteKey: 'site' });
    expect(noSecret.statusCode).toBe(400);
    const secret = 'very-secret-provider-key';
    expect(
      (await post(`${path}/bot-check`, { provider: 'turnstile', secret, siteKey: 'the-site-key' })).statusCode,
    ).toBe(303);
    const after = await get(path);
    expect(after.body).toContain('the-site-key');
    expect(after.body).not.toContain(secret);
    expect((await post(`${path}/bot-check`, { provider: 'off' })).statusCode).toBe(303);
    expect((await get(path)).body).toMatch(/Now: <strong>off<\/strong>/);
  });

  it('hosted-form texts: shown on the form and the thank-you page; empty means the default; bounds are field errors', async () => {
    const path = ws(`/sources/${f.home.source.id}`);
    expect(
      (
        await post(`${path}/texts`, {
          heading: 'Get a quote',
          introduction: 'Line one\nLine two',
          thankYou: 'We call you back today.',
        })
      ).statusCode,
    ).toBe(303);
    const form = await f.app.inject({ method: 'GET', url: `/f/${f.home.source.token}` });
    expect(form.body).toContain('<h1>Get a quote</h1>');
    expect(form.body).toContain('Line one\nLine two');
    expect(form.body).toContain('We call you back today.');
    const tooLong = await post(`${path}/texts`, { heading: 'x'.repeat(121), introduction: '', thankYou: '' });
    expect(tooLong.statusCode).toBe(400);
    expect(tooLong.body).toContain('Use at most 120 characters');
    expect((await post(`${path}/texts`, { heading: '', introduction: '', thankYou: '' })).statusCode).toBe(303);
    // The default heading is the workspace's name, never the source's internal name.
    expect((await f.app.inject({ method: 'GET', url: `/f/${f.home.source.token}` })).body).toContain('<h1>Home</h1>');
  });

  it('Sources: Confirmation to the sender is off by default; on needs the business email, said next to the button', async () => {
    const path = ws(`/sources/${f.home.source.id}`);
    const page = await get(path);
    expect(page.body).toContain('<h2 id="confirmation-heading">Confirmation to the sender</h2>');
    expect(page.body).toContain('<strong id="confirmation-state">off</strong>');
    const refused = await post(`${path}/confirmation`, { confirmSender: '1' });
    expect(refused.statusCode).toBe(400);
    expect(refused.body).toMatch(
      /<p class="field-error" id="f-confirmSender-error" role="alert">Add a business email in Settings first/,
    );
    await f.world.store.db
      .updateTable('workspaces')
      .set({ business_email: 'office@home.test' })
      .where('id', '=', f.home.workspaceId)
      .execute();
    const on = await post(`${path}/confirmation`, { confirmSender: '1' });
    expect(on.statusCode).toBe(303);
    const after = await get(on.headers.location!);
    expect(after.body).toContain('<strong id="confirmation-state">on</strong>');
    expect(after.body).toContain('replies go to <code>office@home.test</code>');
    expect(after.body).toContain('People who send this form now get an email');
    expect((await post(`${path}/confirmation`, { confirmSender: '0' })).statusCode).toBe(303);
    expect((await get(path)).body).toContain('<strong id="confirmation-state">off</strong>');
  });

  it('a source page shows its intake log: accepted, quarantined and refused by code, per day', async () => {
    const token = f.home.source.token;
    const intake = (payload: Record<string, string>) =>
      f.app.inject({ method: 'POST', url: `/api/intake/${token}`, payload });
    expect((await intake({ name: 'Ada', email: 'ada@home.example' })).statusCode).toBe(200);
    expect((await intake({ name: 'Bot', email: 'bot@home.example', website: 'spam' })).statusCode).toBe(200);
    expect((await intake({ notes: 'no way to reach me' })).statusCode).toBe(400);
    await f.app.intakeLog.flush();
    const page = await get(ws(`/sources/${f.home.source.id}`));
    expect(page.statusCode).toBe(200);
    const log = /<table class="list wide-labels" id="intake-log">([\s\S]*?)<\/table>/.exec(page.body)?.[1] ?? '';
    const today = new Date().toISOString().slice(0, 10);
    expect(log).toMatch(
      new RegExp(
        `<td data-label="Day \\(UTC\\)">${today}</td><td data-label="Accepted">\\d+</td><td data-label="Quarantined">[1-9]\\d*</td><td data-label="Refused">[1-9]\\d*`,
      ),
    );
    expect(log).toContain('missing_contact');
  });

  it('Members: invite shows a one-time link once; roles change; the last owner stays; removal ends access', async () => {
    const invite = await post(ws('/members'), { email: 'new@home.example', role: 'member' });
    expect(invite.statusCode).toBe(200);
    const link = /id="invite-link">(http:\/\/leadscan\.test\/setup\/[A-Za-z0-9_-]{43})</.exec(invite.body)?.[1];
    expect(link).toBeTruthy();
    expect((await f.app.inject({ method: 'GET', url: new URL(link!).pathname })).statusCode).toBe(200);
    expect((await get(ws('/members'))).body).not.toContain(link);
    const again = await post(ws('/members'), { email: 'NEW@home.example', role: 'member' });
    expect(again.statusCode).toBe(409);
    expect(again.body).toContain('Already a member');

    const demoteSelf = await post(ws(`/members/${f.owner.userId}/role`), { role: 'member' });
    expect(demoteSelf.statusCode).toBe(409);
    expect(demoteSelf.body).toContain('last owner');
    expect((await post(ws(`/members/${f.owner.userId}/remove`), {})).statusCode).toBe(409);

    expect((await post(ws(`/members/${f.member.userId}/role`), { role: 'owner' })).statusCode).toBe(303);
    expect((await get(ws('/sources'), f.member)).statusCode).toBe(200);
    expect((await post(ws(`/members/${f.member.userId}/role`), { role: 'member' })).statusCode).toBe(303);
    expect((await get(ws('/sources'), f.member)).statusCode).toBe(403);
    expect((await get(ws('/scans'), f.member)).statusCode).toBe(200);
    expect((await post(ws(`/members/${f.member.userId}/remove`), {})).statusCode).toBe(303);
    expect((await get(ws('/scans'), f.member)).statusCode).toBe(404);
  });

  it('Scans: members see the key but not Regenerate or Delete; pages of 25, newest first; delete removes the scan', async () => {
    const memberPage = await get(ws('/scans'), f.member);
    expect(memberPage.body).toContain(`lsk_…${f.home.uploadKey.slice(-4)}`);
    expect(memberPage.body).not.toContain(f.home.uploadKey);
    expect(memberPage.body).not.toContain('Regenerate</button>');
    const copied = await f.app.inject({
      method: 'POST',
      url: ws('/scans/key'),
      headers: { cookie: f.member.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ _csrf: f.member.csrf }).toString(),
    });
    expect(copied.body).toBe(f.home.uploadKey);
    expect((await get(ws(`/scans/${f.homeScanId}`), f.member)).body).not.toContain('Delete</button>');
    expect((await get(ws(`/scans/${f.homeScanId}`))).body).toContain('Delete</button>');

    for (let i = 0; i < 26; i += 1) {
      const res = await f.app.inject({
        method: 'POST',
        url: '/api/scan/upload',
        headers: { 'x-scan-key': f.home.uploadKey },
        payload: JSON.stringify({ rooms: [{ name: `Room number ${i}` }] }),
      });
      expect(res.statusCode).toBe(200);
    }
    const first = await get(ws('/scans'));
    expect(first.body.match(/<td data-label="Received">/g)?.length).toBe(25);
    expect(first.body.indexOf('Room number 25')).toBeLessThan(first.body.indexOf('Room number 24'));
    expect(first.body).toContain('Older →');
    const second = await get(ws('/scans?page=2'));
    expect(second.body).toContain('Kitchen, Hall');
    expect(second.body.match(/<td data-label="Received">/g)?.length).toBe(2);

    expect((await post(ws(`/scans/${f.homeScanId}/delete`), {})).statusCode).toBe(303);
    expect((await get(ws(`/scans/${f.homeScanId}`))).statusCode).toBe(404);
    expect(
      await f.world.store.db.selectFrom('scan_rooms').select('idx').where('scan_id', '=', f.homeScanId).execute(),
    ).toEqual([]);
  });

  it('Quarantine: pages of 50, newest first, with Newer and Older links', async () => {
    for (let i = 0; i < 51; i += 1) {
      const res = await f.app.inject({
        method: 'POST',
        url: `/api/intake/${f.home.source.token}`,
        payload: { name: `Trapped ${i}`, website: 'filled' },
      });
      expect(res.statusCode).toBe(200);
    }
    const { n: total } = await f.world.store.db
      .selectFrom('quarantine')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('workspace_id', '=', f.home.workspaceId)
      .executeTakeFirstOrThrow();
    const items = (body: string) => body.match(/class="card quarantine-item"/g)?.length ?? 0;

    const first = await get(ws('/quarantine'), f.member);
    expect(items(first.body)).toBe(50);
    expect(first.body.indexOf('>Trapped 50<')).toBeLessThan(first.body.indexOf('>Trapped 49<'));
    expect(first.body).not.toContain('>Trapped 0<');
    expect(first.body).toContain(`href="${ws('/quarantine?page=2')}" rel="next">Older →`);
    expect(first.body).not.toContain('← Newer');

    const second = await get(ws('/quarantine?page=2'), f.member);
    expect(items(second.body)).toBe(Number(total) - 50);
    expect(second.body).toContain('>Trapped 0<');
    expect(second.body).toContain(`href="${ws('/quarantine')}" rel="prev">← Newer`);
    expect(second.body).not.toContain('Older →');
    expect((await get(ws('/quarantine?page=9'))).body).toContain('No older submissions.');

    // An owner deleting from page 2 comes back to page 2.
    const ownersSecond = await get(ws('/quarantine?page=2'));
    const itemId = /action="[^"]*\/quarantine\/([^/"]+)\/delete"/.exec(ownersSecond.body)![1]!;
    expect(ownersSecond.body).toContain('<input type="hidden" name="page" value="2">');
    const deleted = await post(ws(`/quarantine/${itemId}/delete`), { page: '2' });
    expect(deleted.headers.location).toBe(`${ws('/quarantine?page=2')}&notice=quarantine-deleted`);
  });

  it('Personal data: an owner finds, exports and erases a person by email; nothing of it stays, other people stay', async () => {
    const intake = (payload: Record<string, string>) =>
      f.app.inject({
        method: 'POST',
        url: `/api/intake/${f.home.source.token}`,
        payload,
        headers: { 'idempotency-key': `k-${payload.name}` },
      });
    expect((await intake({ name: XSS, email: 'Ada@Example.com', phone: '555 0111' })).statusCode).toBe(200);
    expect((await intake({ name: 'Ada again', email: 'ada@example.com', website: 'autofill' })).statusCode).toBe(200);
    expect((await intake({ name: 'Someone else', email: 'grace@example.com' })).statusCode).toBe(200);
    const leadId = (
      await f.world.store.db.selectFrom('leads').select('id').where('name', '=', XSS).executeTakeFirstOrThrow()
    ).id;

    // Reached from the lead's page (owners only), as a POST: the email is never put in a URL.
    const leadPage = await get(ws(`/leads/${leadId}`));
    expect(leadPage.body).toContain(`action="${ws('/people')}"`);
    expect((await get(ws(`/leads/${leadId}`), f.member)).body).not.toContain(`action="${ws('/people')}"`);

    const neither = await post(ws('/people'), { email: ' ', phone: '' });
    expect(neither.statusCode).toBe(400);
    expect(neither.body).toMatch(/id="f-email-error">Give the person&#39;s email or phone</);

    const found = await post(ws('/people'), { email: 'ADA@example.com' });
    expect(found.statusCode).toBe(200);
    expect(found.body).toContain('1 lead and 1 quarantined submission match ADA@example.com');
    expect(found.body).toContain(ESCAPED);
    expect(found.body).not.toContain(XSS);
    expect(found.body).not.toContain('Someone else');
    // Export and Erase post the same person on (hidden fields), not whatever the form now holds.
    for (const action of ['export', 'erase']) {
      const form = new RegExp(`<form[^>]*action="${ws(`/people/${action}`)}"[^>]*>(.*?)</form>`, 's').exec(
        found.body,
      )?.[1];
      expect(form, action).toContain('<input type="hidden" name="email" value="ADA@example.com">');
    }

    const exported = await post(ws('/people/export'), { email: 'ada@example.com' });
    expect(exported.headers['content-disposition']).toBe('attachment; filename="personal-data.json"');
    const document = exported.json<{
      leads: Array<{ id: string }>;
      quarantine: unknown[];
      idempotencyRecords: unknown[];
    }>();
    expect(document.leads.map((l) => l.id)).toEqual([leadId]);
    expect(document.quarantine).toHaveLength(1);
    expect(document.idempotencyRecords).toHaveLength(2);

    const erased = await post(ws('/people/erase'), { email: 'ada@example.com' });
    expect(erased.statusCode).toBe(303);
    const after = await get(erased.headers.location!);
    expect(after.body).toContain('Erased 1 lead, 1 quarantined submission and 2 retry records.');
    expect(await f.world.store.db.selectFrom('leads').select('id').where('id', '=', leadId).execute()).toEqual([]);
    expect((await post(ws('/people'), { email: 'ada@example.com' })).body).toContain(
      'Nothing stored matches ada@example.com',
    );
    expect((await post(ws('/people'), { email: 'grace@example.com' })).body).toContain(
      '1 lead and 0 quarantined submissions match',
    );

    // A contact with more records than the page lists: the page says so; Erase still takes all of them.
    await insertLeads(
      f.world,
      { ...f.home, sourceId: f.home.source.id },
      Array.from({ length: 103 }, (_, i) => ({ id: `lead_many${i}`, name: `Many ${i}`, email: 'many@example.com' })),
    );
    const many = await post(ws('/people'), { email: 'many@example.com' });
    expect(many.body).toContain('103 leads and 0 quarantined submissions match');
    expect(many.body.match(/<td data-label="What">/g)).toHaveLength(100);
    expect(many.body).toContain('…and 3 more, not listed here.');
    const erasedMany = await post(ws('/people/erase'), { email: 'many@example.com' });
    expect((await get(erasedMany.headers.location!)).body).toContain(
      'Erased 103 leads, 0 quarantined submissions and 0 retry records.',
    );
  });

  it("the nav's Leads badge counts the workspace's unopened leads on every screen, and drops when one is opened", async () => {
    for (const name of ['Badge one', 'Badge two']) {
      expect(
        (await f.app.inject({ method: 'POST', url: `/api/intake/${f.home.source.token}`, payload: { name } }))
          .statusCode,
      ).toBe(200);
    }
    const unread = async (workspaceId = f.home.workspaceId) =>
      Number(
        (
          await f.world.store.db
            .selectFrom('lead_unread')
            .innerJoin('pipelines', 'pipelines.id', 'lead_unread.pipeline_id')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('pipelines.workspace_id', '=', workspaceId)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const badge = (n: number) => `>Leads <span class="count" aria-label="${n} new">${n}</span></a>`;
    const before = await unread();
    expect(before).toBeGreaterThanOrEqual(2);
    expect((await get(ws('/scans'))).body).toContain(badge(before));
    expect((await get(ws('/quarantine'), f.member)).body).toContain(badge(before));

    const leadId = (
      await f.world.store.db.selectFrom('leads').select('id').where('name', '=', 'Badge one').executeTakeFirstOrThrow()
    ).id;
    expect((await get(ws(`/leads/${leadId}`))).statusCode).toBe(200);
    expect((await get(ws('/sources'))).body).toContain(badge(before - 1));
    // Each workspace counts its own.
    const away = await unread(f.away.workspaceId);
    expect(away).not.toBe(before - 1);
    expect((await get(`/w/${f.away.workspaceId}/scans`, f.stranger)).body).toContain(badge(away));
  });

  it('a refused upload key points at the real Scans screen, which exists', async () => {
    const res = await f.app.inject({
      method: 'POST',
      url: '/api/scan/upload',
      headers: { 'x-scan-key': `lsk_${'x'.repeat(43)}` },
      payload: '{"rooms":[]}',
    });
    expect(res.statusCode).toBe(401);
    const detail = (res.json() as { detail: string }).detail;
    // A usable address (the key was refused, so the workspace is unknown): sign-in leads on to the Scans screen.
    expect(detail).toContain('sign in at http://leadscan.test/login and copy the current key from the Scans screen');
    expect(detail).not.toContain('{workspace}');
    expect((await f.app.inject({ method: 'GET', url: '/login' })).statusCode).toBe(200);
    expect((await get(ws('/scans'))).body).toContain('<h1>Scans</h1>');
    const docs = await f.app.inject({ method: 'GET', url: '/problems/invalid_scan_key' });
    expect(docs.body).not.toContain('{workspace}');
  });

  it('the connection test on the Scans screen works as pasted into a shell with LEADSCAN_KEY set', async () => {
    const page = await get(ws('/scans'));
    const escaped = /<pre id="connection-test">([^<]*)<\/pre>/.exec(page.body)![1]!;
    const command = escaped.replaceAll('&#39;', "'").replaceAll('&quot;', '"').replaceAll('&amp;', '&');
    expect(command).toContain('$LEADSCAN_KEY');
    const base = await f.world.listen();
    const { stdout } = await promisify(execFile)('bash', ['-c', command.replace('http://leadscan.test', base)], {
      env: { PATH: process.env.PATH ?? '/usr/bin:/bin', LEADSCAN_KEY: f.home.uploadKey },
    });
    expect(JSON.parse(stdout)).toEqual({ ok: true, count: 0 });
  });

  it('the workspace switcher lists only the person’s workspaces', async () => {
    await post(`/w/${f.away.workspaceId}/members`, { email: f.owner.email, role: 'member' }, f.stranger);
    // An existing account joins only when it accepts (the fixture's owner has proven their email).
    expect((await get(ws('/scans'))).body).not.toContain(`href="/w/${f.away.workspaceId}/scans"`);
    expect((await post(`/account/invitations/${f.extra.ownerInvitationId}/accept`, {})).statusCode).toBe(303);
    const page = await get(ws('/scans'));
    expect(page.body).toContain(`href="/w/${f.away.workspaceId}/scans"`);
    expect((await get(`/w/${f.away.workspaceId}/scans`)).statusCode).toBe(200);
    expect((await get(`/w/${f.away.workspaceId}/sources`)).statusCode).toBe(403);
    const memberView = await get(ws('/scans'), f.member);
    expect(memberView.body).not.toContain(f.away.workspaceId);
  });
});
