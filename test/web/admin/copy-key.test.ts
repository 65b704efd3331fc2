import { expect, it } from 'vitest';
import { describeEachBackend } from '../../helpers/backends.js';
import { useAdminFixture } from '../../helpers/admin-fixture.js';

/** Copy writes the audit log (key.copied), so it is a POST with the CSRF token; a GET, which any site can link to, writes nothing. */
describeEachBackend('Scans: Copy of the upload key is a POST', (backend) => {
  const f = useAdminFixture(backend);
  const url = () => `/w/${f.home.workspaceId}/scans/key`;
  const copied = async () =>
    (await f.world.store.db.selectFrom('audit_log').select('action').where('action', '=', 'key.copied').execute())
      .length;
  const post = (fields: Record<string, string>) =>
    f.app.inject({
      method: 'POST',
      url: url(),
      headers: { cookie: f.member.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(fields).toString(),
    });

  it('GET writes no audit record and gives no key; POST without CSRF is refused; POST with it answers the key and records key.copied', async () => {
    const get = await f.app.inject({ method: 'GET', url: url(), headers: { cookie: f.member.cookie } });
    expect(get.body).not.toContain(f.home.uploadKey);
    expect(await copied()).toBe(0);

    const refused = await post({});
    expect(refused.statusCode).toBe(403);
    expect(refused.body).not.toContain(f.home.uploadKey);
    expect(await copied()).toBe(0);

    const ok = await post({ _csrf: f.member.csrf });
    expect(ok.statusCode).toBe(200);
    expect(ok.body).toBe(f.home.uploadKey);
    expect(await copied()).toBe(1);
  });

  it('the Copy button carries the CSRF token the POST needs', async () => {
    const page = await f.app.inject({
      method: 'GET',
      url: `/w/${f.home.workspaceId}/scans`,
      headers: { cookie: f.member.cookie },
    });
    expect(page.body).toContain(`data-copy-url="${url()}" data-csrf="${f.member.csrf}"`);
  });
});
