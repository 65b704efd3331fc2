import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachBackend } from '../../helpers/backends.js';
import { ADMIN_ROUTE_CASES, createAdminFixture, send, type AdminFixture } from '../../helpers/admin-security.js';
import { createWorld, type TestWorld } from '../../helpers/test-app.js';

/** NUL and other control characters, as a form field, a query parameter or a path segment would carry them. */
const HOSTILE = ['\u0000', 'a\u0000b', '\u0001', 'x\u001fy', '\u007f'];

/** Every row of every table as text: nothing sent in this file may be stored with a control character. */
async function storedControlCharacters(world: TestWorld): Promise<string[]> {
  const tables =
    world.store.dialect === 'sqlite'
      ? await sql<{
          name: string;
        }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(world.store.db)
      : await sql<{ name: string }>`select tablename as name from pg_tables where schemaname = 'public'`.execute(
          world.store.db,
        );
  const found: string[] = [];
  for (const { name } of tables.rows) {
    const rows = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(world.store.db);
    for (const row of rows.rows) {
      for (const [column, value] of Object.entries(row)) {
        // eslint-disable-next-line no-control-regex
        if (typeof value === 'string' && /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/.test(value))
          found.push(`${name}.${column}`);
      }
    }
  }
  return found;
}

describeEachBackend(
  'control characters in every admin input and in sign-in: refused, never a 500, never stored',
  (backend) => {
    let world: TestWorld;
    let f: AdminFixture;
    beforeAll(async () => {
      world = await createWorld(backend);
      f = await createAdminFixture(world);
    });
    afterAll(async () => {
      await world.close();
    });

    it('every form field of every admin POST, for each control character', async () => {
      for (const route of ADMIN_ROUTE_CASES.filter((r) => r.method === 'POST')) {
        const fields = route.form?.(f) ?? {};
        for (const field of Object.keys(fields)) {
          for (const bad of HOSTILE) {
            const hostile = { ...route, form: () => ({ ...fields, [field]: `${fields[field]}${bad}` }) };
            const res = await send(f, hostile, route.url(f), { as: f.owner });
            expect(
              res.statusCode,
              `${route.path} ${field}=${JSON.stringify(bad)}: ${res.body.slice(0, 200)}`,
            ).toBeLessThan(500);
          }
        }
      }
      expect(await storedControlCharacters(world)).toEqual([]);
    }, 120_000);

    it('every query filter and every id in a path', async () => {
      for (const route of ADMIN_ROUTE_CASES) {
        const url = route.url(f);
        for (const bad of HOSTILE.map(encodeURIComponent)) {
          const [path, query] = url.split('?');
          const filters = `q=ab${bad}cd&source=${bad}&stage=${bad}&from=${bad}&to=${bad}&bot=${bad}&find=${bad}&scans=${bad}&page=${bad}`;
          const withQuery = await send(f, route, `${path}?${query ? `${query}&` : ''}${filters}`, { as: f.owner });
          expect(withQuery.statusCode, `${route.path}?${filters}`).toBeLessThan(500);
          const withPath = await send(f, route, `${path}${bad}`, { as: f.owner });
          expect(withPath.statusCode, `${path}${bad}`).toBeLessThan(500);
        }
      }
      const search = await send(
        f,
        ADMIN_ROUTE_CASES.find((r) => r.path === '/w/:workspaceId/leads')!,
        `/w/${f.home.workspaceId}/leads?q=ab%00cd`,
        { as: f.owner },
      );
      expect(search.statusCode).toBe(400);
      expect(search.body).toContain('The search contains a control character');
      expect(await storedControlCharacters(world)).toEqual([]);
    }, 120_000);

    it('sign-in, setup and the people search answer without a 500', async () => {
      for (const bad of HOSTILE) {
        const login = await f.app.inject({
          method: 'POST',
          url: '/login',
          headers: { 'content-type': 'application/x-www-form-urlencoded' },
          payload: new URLSearchParams({ email: `a${bad}b@example.com`, password: 'whatever it is' }).toString(),
        });
        expect(login.statusCode).toBe(401);
        const setup = await f.app.inject({ method: 'GET', url: `/setup/${encodeURIComponent(`abc${bad}`)}` });
        expect(setup.statusCode).toBeLessThan(500);
      }
      const people = await send(
        f,
        ADMIN_ROUTE_CASES.find((r) => r.path === '/w/:workspaceId/people' && r.method === 'POST')!,
        `/w/${f.home.workspaceId}/people`,
        {
          as: f.owner,
        },
      );
      expect(people.statusCode).toBeLessThan(500);
      const invite = await f.app.inject({
        method: 'POST',
        url: `/w/${f.home.workspaceId}/members`,
        headers: { cookie: f.owner.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({
          _csrf: f.owner.csrf,
          email: 'new\u0000person@example.com',
          role: 'member',
        }).toString(),
      });
      expect(invite.statusCode).toBe(400);
      expect(invite.body).toMatch(/id="f-email-error">The email contains a control character/);
      expect(await storedControlCharacters(world)).toEqual([]);
    });
  },
);
