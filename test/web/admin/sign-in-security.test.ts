import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signInArea } from '../../../src/web/admin/account/sign-in-area.js';
import { adminSecurityCases, createAdminFixture, declareAccess, SIGN_IN_ROUTE_CASES, type AdminFixture } from '../../helpers/admin-security.js';
import { describeEachBackend } from '../../helpers/backends.js';
import { createWorld, type TestWorld } from '../../helpers/test-app.js';

declareAccess(signInArea.routes);

describe('sign-in route table', () => {
  it('has a security case for every route around signing in, and no case for a route that does not exist', () => {
    const declared = signInArea.routes.map((r) => `${r.method} ${r.path}`).sort();
    const covered = SIGN_IN_ROUTE_CASES.map((c) => `${c.method} ${c.path}`).sort();
    expect(covered).toEqual(declared);
  });

  it('leaves only `/` and `/logout` behind a session', () => {
    expect(signInArea.routes.filter((r) => r.access !== 'public').map((r) => `${r.method} ${r.path}`)).toEqual(['GET /', 'POST /logout']);
  });
});

describeEachBackend('sign-in security cases', (backend) => {
  let world: TestWorld;
  let fixture: AdminFixture;
  beforeAll(async () => {
    world = await createWorld(backend);
    fixture = await createAdminFixture(world);
  });
  afterAll(async () => {
    await world.close();
  });

  for (const route of SIGN_IN_ROUTE_CASES) {
    describe(`${route.method} ${route.path}`, () => {
      for (const securityCase of adminSecurityCases(route)) {
        it(securityCase.label, () => securityCase.run(fixture));
      }
    });
  }
});
