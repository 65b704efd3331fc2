import { expect, it } from 'vitest';
import { describeEachBackend } from '../../helpers/backends.js';
import { useAdminFixture } from '../../helpers/admin-fixture.js';

/** What Chromium sends for a page it navigates to. */
const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

/** An unknown address: a browser gets a page it can go on from, a program keeps problem+json (docs/admin-app.md). */
describeEachBackend('an unknown page in a browser', (backend) => {
  const f = useAdminFixture(backend);

  it('answers a browser with an HTML 404 page, signed out with a way back, and escapes the address', async () => {
    const res = await f.app.inject({ method: 'GET', url: '/no/such/<b>page</b>', headers: { accept: BROWSER_ACCEPT } });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['content-security-policy']).toContain("script-src 'self'");
    expect(res.body).toContain('<h1>Not found</h1>');
    expect(res.body).toContain('href="/"');
    expect(res.body).not.toContain('<b>page</b>');
    expect(res.body).not.toContain('Sign out');
  });

  it('keeps the top bar for a signed-in person, with their own workspace only', async () => {
    const res = await f.app.inject({
      method: 'GET',
      url: '/w/nowhere/nothing',
      headers: { accept: BROWSER_ACCEPT, cookie: f.member.cookie },
    });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('<h1>Not found</h1>');
    expect(res.body).toContain('Sign out');
    expect(res.body).toContain(`/w/${f.home.workspaceId}/leads`);
    expect(res.body).not.toContain(f.away.workspaceId);
  });

  it('keeps problem+json for programs, for the API and for posts', async () => {
    for (const request of [
      { method: 'GET' as const, url: '/no/such/route', headers: {} },
      { method: 'GET' as const, url: '/no/such/route', headers: { accept: 'application/json' } },
      { method: 'GET' as const, url: '/api/no/such/route', headers: { accept: BROWSER_ACCEPT } },
      { method: 'POST' as const, url: '/no/such/route', headers: { accept: BROWSER_ACCEPT } },
    ]) {
      const res = await f.app.inject(request);
      expect(res.statusCode).toBe(404);
      expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
      expect(res.json().code).toBe('route_not_found');
    }
  });
});
