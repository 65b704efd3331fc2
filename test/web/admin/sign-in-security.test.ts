import { describe, expect, it } from 'vitest';
import { signInArea } from '../../../src/web/admin/account/sign-in-area.js';
import { declareAccess, describeSecurityCases, SIGN_IN_ROUTE_CASES } from '../../helpers/admin-security.js';

declareAccess(signInArea.routes);

describe('sign-in route table', () => {
  it('has a security case for every route around signing in, and no case for a route that does not exist', () => {
    const declared = signInArea.routes.map((r) => `${r.method} ${r.path}`).sort();
    const covered = SIGN_IN_ROUTE_CASES.map((c) => `${c.method} ${c.path}`).sort();
    expect(covered).toEqual(declared);
  });

  it('leaves only `/` and `/logout` behind a session', () => {
    expect(signInArea.routes.filter((r) => r.access !== 'public').map((r) => `${r.method} ${r.path}`)).toEqual([
      'GET /',
      'POST /logout',
    ]);
  });
});

describeSecurityCases('sign-in security cases', SIGN_IN_ROUTE_CASES);
