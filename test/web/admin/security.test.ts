import { describe, expect, it } from 'vitest';
import { ADMIN_AREAS } from '../../../src/web/admin/areas.js';
import {
  ADMIN_ROUTE_CASES,
  createAdminFixture,
  declareAccess,
  describeSecurityCases,
  send,
} from '../../helpers/admin-security.js';
import { describeEachBackend } from '../../helpers/backends.js';
import { createWorld } from '../../helpers/test-app.js';

const routes = ADMIN_AREAS.flatMap((area) => area.routes);
declareAccess(routes);

describe('admin route table', () => {
  it('has a security case for every admin route, and no case for a route that does not exist', () => {
    const declared = routes.map((r) => `${r.method} ${r.path}`).sort();
    const covered = ADMIN_ROUTE_CASES.map((c) => `${c.method} ${c.path}`).sort();
    expect(covered).toEqual(declared);
  });
});

describeSecurityCases('admin security cases', ADMIN_ROUTE_CASES);

describeEachBackend('admin POST routes let their rightful user through', (backend) => {
  for (const route of ADMIN_ROUTE_CASES.filter((r) => r.method === 'POST')) {
    it(`${route.path}: the owner with the CSRF token passes the gate`, async () => {
      const world = await createWorld(backend);
      try {
        const f = await createAdminFixture(world);
        const res = await send(f, route, route.url(f), { as: f.owner });
        expect([403, 404]).not.toContain(res.statusCode);
        expect(res.headers.location ?? '').not.toMatch(/^\/login/);
      } finally {
        await world.close();
      }
    });
  }
});
