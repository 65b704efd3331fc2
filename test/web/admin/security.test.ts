import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_AREAS } from '../../../src/web/admin/areas.js';
import {
  ADMIN_ROUTE_CASES,
  adminSecurityCases,
  createAdminFixture,
  declareAccess,
  send,
  type AdminFixture,
} from '../../helpers/admin-security.js';
import { describeEachBackend } from '../../helpers/backends.js';
import { createWorld, type TestWorld } from '../../helpers/test-app.js';

const routes = ADMIN_AREAS.flatMap((area) => area.routes);
declareAccess(routes);

describe('admin route table', () => {
  it('has a security case for every admin route, and no case for a route that does not exist', () => {
    const declared = routes.map((r) => `${r.method} ${r.path}`).sort();
    const covered = ADMIN_ROUTE_CASES.map((c) => `${c.method} ${c.path}`).sort();
    expect(covered).toEqual(declared);
  });
});

describeEachBackend('admin security cases', (backend) => {
  let world: TestWorld;
  let fixture: AdminFixture;
  beforeAll(async () => {
    world = await createWorld(backend);
    fixture = await createAdminFixture(world);
  });
  afterAll(async () => {
    await world.close();
  });

  for (const route of ADMIN_ROUTE_CASES) {
    describe(`${route.method} ${route.path}`, () => {
      for (const securityCase of adminSecurityCases(route)) {
        it(securityCase.label, () => securityCase.run(fixture));
      }
    });
  }
});

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
