import { expect, it } from 'vitest';
import { createUser } from '../../../src/domain/users/create-user.js';
import { createWorkspace } from '../../../src/domain/workspaces/create-workspace.js';
import { messagePreview } from '../../../src/web/admin/leads/leads-pages.js';
import { describeEachBackend } from '../../helpers/backends.js';
import { signInAs, type Person } from '../../helpers/admin-security.js';
import { useAdminFixture } from '../../helpers/admin-fixture.js';

const FORM = { 'content-type': 'application/x-www-form-urlencoded' };
const signOutButtons = (body: string) => body.match(/>Sign out<\/button>/g)?.length ?? 0;

it('the preview is the first non-blank line, capped at 160 characters', () => {
  expect(messagePreview(null)).toBe('');
  expect(messagePreview('\n  \r\n  Call me after 5  \nsecond line')).toBe('Call me after 5');
  expect(messagePreview('é'.repeat(200))).toBe(`${'é'.repeat(160)}…`);
});

describeEachBackend('the inbox rows, the top bar, refusals and the favicon', (backend) => {
  const f = useAdminFixture(backend);

  const get = (url: string, as: Person = f.owner) =>
    f.app.inject({ method: 'GET', url, headers: { cookie: as.cookie } });
  const ws = (rest: string) => `/w/${f.home.workspaceId}${rest}`;
  const intake = async (payload: Record<string, string>) => {
    const res = await f.app.inject({ method: 'POST', url: `/api/intake/${f.home.source.token}`, payload });
    expect(res.statusCode).toBe(200);
    return res.json<{ id: string }>().id;
  };
  const rowOf = (body: string, leadId: string) => {
    const start = body.indexOf(`/leads/${leadId}"`);
    expect(start).toBeGreaterThan(-1);
    return body.slice(body.lastIndexOf('<tr', start), body.indexOf('</tr>', start));
  };

  it('a row shows the first line of the message as text, never as markup, and no bot-check column', async () => {
    const id = await intake({
      name: 'Paula',
      notes: '\n<script>alert(1)</script> <b>leak</b> in the roof\nsecond line stays on the lead page',
    });
    const page = await get(ws('/leads'));
    expect(page.statusCode).toBe(200);
    const row = rowOf(page.body, id);
    expect(row).toContain(
      '<span class="preview">&lt;script&gt;alert(1)&lt;/script&gt; &lt;b&gt;leak&lt;/b&gt; in the roof</span>',
    );
    expect(row).not.toContain('second line');
    expect(page.body).not.toContain('<script>alert(1)');
    expect(page.body).not.toContain('<b>leak');
    expect(page.body).not.toContain('<th scope="col">Bot check</th>');
    // No message, no empty preview.
    expect(rowOf(page.body, f.extra.homeLeadId!)).not.toContain('class="preview"');
  });

  it('the bot check is a small mark: Verified when it passed, Unverified when it could not run, nothing when off', async () => {
    const passed = await intake({ name: 'Checked' });
    const unverified = await intake({ name: 'Provider down' });
    const off = await intake({ name: 'No check' });
    await f.world.store.db.updateTable('leads').set({ bot_check: 'passed' }).where('id', '=', passed).execute();
    await f.world.store.db.updateTable('leads').set({ bot_check: 'unverified' }).where('id', '=', unverified).execute();
    const page = (await get(ws('/leads'))).body;
    expect(rowOf(page, passed)).toMatch(/<span class="mark ok" title="Bot check passed">.*Verified<\/span>/);
    expect(rowOf(page, unverified)).toContain('<span class="mark warn"');
    expect(rowOf(page, unverified)).toContain('>Unverified</span>');
    expect(rowOf(page, off)).not.toContain('class="mark');
  });

  it('signing in lands on the Leads inbox; a workspace without a pipeline says so there', async () => {
    const home = await get('/', f.member);
    expect(home.statusCode).toBe(303);
    expect(home.headers.location).toBe(ws('/leads'));
    expect((await get(home.headers.location!, f.member)).body).toContain('<h1>Leads inbox</h1>');

    const bare = await createWorkspace({ ctx: f.world.ctx, input: { name: 'Bare' } });
    const created = await createUser({
      ctx: f.world.ctx,
      input: { email: 'solo@bare.example', workspaceId: bare.id, role: 'owner' },
    });
    const solo = await signInAs(f, created.userId, created.email);
    const landing = await get('/', solo);
    expect(landing.headers.location).toBe(`/w/${bare.id}/leads`);
    const page = await get(landing.headers.location!, solo);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('This workspace has no pipeline yet');
  });

  it('a 403 to a GET says the page is not theirs, to a POST that nothing changed; both keep the top bar', async () => {
    const opened = await get(ws('/settings'), f.member);
    expect(opened.statusCode).toBe(403);
    expect(opened.body).toContain('<h1>Only owners can open this page</h1>');
    expect(opened.body).toContain('You do not have access to this page');
    expect(opened.body).not.toContain('Nothing was changed');
    expect(opened.body).toContain('<nav aria-label="Screens"');
    expect(opened.body).toContain(`href="${ws('/leads')}"`);
    expect(signOutButtons(opened.body)).toBe(1);

    const posted = await f.app.inject({
      method: 'POST',
      url: ws('/settings'),
      headers: { ...FORM, cookie: f.member.cookie },
      payload: new URLSearchParams({ _csrf: f.member.csrf, name: 'Taken over' }).toString(),
    });
    expect(posted.statusCode).toBe(403);
    expect(posted.body).toContain('<h1>Only an owner can do this</h1>');
    expect(posted.body).toContain('Nothing was changed');
    expect(posted.body).toContain('<nav aria-label="Screens"');

    const noToken = await f.app.inject({
      method: 'POST',
      url: ws('/settings'),
      headers: { ...FORM, cookie: f.owner.cookie },
      payload: 'name=x',
    });
    expect(noToken.statusCode).toBe(403);
    expect(noToken.body).toContain('Nothing was changed');

    // Another workspace's page: the same 404 as a missing one, with only the person's own workspaces in the bar.
    const foreign = await get(`/w/${f.away.workspaceId}/leads`, f.member);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.body).toContain('<nav aria-label="Screens"');
    expect(foreign.body).not.toContain(f.away.workspaceId);
    const missing = await get('/w/ws_00000000000000000000000000000000/leads', f.member);
    expect(missing.body.replace('ws_00000000000000000000000000000000', '')).toBe(
      foreign.body.replace(f.away.workspaceId, ''),
    );
  });

  it('/favicon.ico answers with an icon, cached; pages link the SVG icon, which is served', async () => {
    const ico = await f.app.inject({ method: 'GET', url: '/favicon.ico' });
    expect(ico.statusCode).toBe(200);
    expect(ico.headers['content-type']).toBe('image/x-icon');
    expect(ico.headers['cache-control']).toMatch(/^public, max-age=\d+/);
    expect([...ico.rawPayload.subarray(0, 4)]).toEqual([0, 0, 1, 0]);

    const page = await get(ws('/leads'));
    const href = /<link rel="icon" href="([^"]+)" type="image\/svg\+xml">/.exec(page.body)?.[1];
    expect(href).toMatch(/^\/admin\/assets\/favicon\.svg\?v=[0-9a-f]+$/);
    const svg = await f.app.inject({ method: 'GET', url: href! });
    expect(svg.statusCode).toBe(200);
    expect(svg.headers['content-type']).toBe('image/svg+xml');
    expect(svg.body).toMatch(/^<svg /);
    expect((await f.app.inject({ method: 'GET', url: '/login' })).body).toContain('rel="icon"');
    // Assets keep their own cache (a versioned URL for a year); pages stay uncached.
    expect(svg.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const css = /<link rel="stylesheet" href="([^"]+)">/.exec(page.body)?.[1];
    expect((await f.app.inject({ method: 'GET', url: css! })).headers['cache-control']).toBe(
      'public, max-age=31536000, immutable',
    );
    expect(page.headers['cache-control']).toBe('no-store');
  });

  it('Account shows the workspace by its name and one Sign out', async () => {
    const page = await get('/account');
    expect(page.statusCode).toBe(200);
    expect(signOutButtons(page.body)).toBe(1);
    expect(page.body).not.toContain('Workspaces');
    expect(page.body).toContain('class="switcher workspace-name" title="Workspace">Home</span>');
    // The person's initials stand for them in the bar; the email is still the link's name.
    expect(page.body).toMatch(
      /<a class="who" href="\/account" title="owner@home\.example" aria-current="page"><span class="who-initials" aria-hidden="true">O<\/span><span class="who-email">owner@home\.example<\/span><\/a>/,
    );
  });
});
