import { expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import type { Schema } from '../../src/storage/schema.js';
import type { TestWorld } from './test-app.js';

/**
 * Security cases for a page a customer opens from a link with a secret token and no sign-in (the stop link of a
 * reminder, `/q/stop/{token}`), generated from one description as the admin routes' are (admin-security.ts):
 *   - the page: `noindex`, `no-referrer`, a strict CSP, not stored, and the token nowhere in it;
 *   - an unknown and a malformed token: the same 404 page, for GET and POST;
 *   - a POST from a foreign Origin, marked cross-site, `Origin: null` without `Sec-Fetch-Site: same-origin`,
 *     without the form token, or with another link's form token: 403, and nothing changed in `tables`;
 *   - the rightful POST (same origin, its form token) is answered `okStatus`.
 */
export interface TokenLinkRoute {
  /** `/q/stop/` */
  prefix: string;
  /** A live link's token, and another live link's (made fresh for each case that changes something). */
  link(): Promise<{ token: string; other: string }>;
  /** The form token a page of this link carries. */
  formToken(token: string): string;
  /** Tables a post may change: a refused post must leave each as it was. */
  tables: Array<keyof Schema>;
  okStatus: number;
}

const FORM = 'application/x-www-form-urlencoded';

export function tokenLinkSecurityCases(
  fixture: () => { world: TestWorld; app: App; origin: string },
  route: TokenLinkRoute,
): void {
  const snapshot = async () => {
    const { world } = fixture();
    const out: Record<string, unknown[]> = {};
    for (const table of route.tables) out[table] = await world.store.db.selectFrom(table).selectAll().execute();
    return out;
  };
  const post = (token: string, headers: Record<string, string>, formToken: string | undefined) =>
    fixture().app.inject({
      method: 'POST',
      url: `${route.prefix}${token}`,
      headers: { 'content-type': FORM, ...headers },
      payload: formToken === undefined ? '' : new URLSearchParams({ formToken }).toString(),
    });

  it(`${route.prefix}{token}: the page is not indexed, sends no referrer, runs no inline script and hides its token`, async () => {
    const { token } = await route.link();
    const page = await fixture().app.inject({ method: 'GET', url: `${route.prefix}${token}` });
    expect(page.statusCode).toBe(200);
    expect(page.headers['x-robots-tag']).toContain('noindex');
    expect(page.headers['referrer-policy']).toBe('no-referrer');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.headers['content-security-policy']).toContain("default-src 'none'");
    expect(page.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(page.body).toContain('<meta name="robots" content="noindex, nofollow">');
    expect(page.body).not.toContain(token);
  });

  it(`${route.prefix}{token}: an unknown or malformed token is the same 404, on GET and POST`, async () => {
    const { app } = fixture();
    const unknown = await app.inject({ method: 'GET', url: `${route.prefix}AAAAAAAAAAAAAAAAAAAAAA` });
    const malformed = await app.inject({ method: 'GET', url: `${route.prefix}not-a-token` });
    expect([unknown.statusCode, malformed.statusCode]).toEqual([404, 404]);
    expect(unknown.body).toBe(malformed.body);
    const posted = await post(
      'AAAAAAAAAAAAAAAAAAAAAA',
      { origin: fixture().origin, 'sec-fetch-site': 'same-origin' },
      route.formToken('AAAAAAAAAAAAAAAAAAAAAA'),
    );
    expect(posted.statusCode).toBe(404);
  });

  const refused: Array<[string, (origin: string) => Record<string, string>, 'own' | 'other' | 'none']> = [
    ['from a foreign Origin', () => ({ origin: 'https://evil.test' }), 'own'],
    ['marked cross-site', () => ({ 'sec-fetch-site': 'cross-site' }), 'own'],
    ['from Origin: null without Sec-Fetch-Site', () => ({ origin: 'null' }), 'own'],
    ['from Origin: null marked cross-site', () => ({ origin: 'null', 'sec-fetch-site': 'cross-site' }), 'own'],
    ['without the form token', (origin) => ({ origin, 'sec-fetch-site': 'same-origin' }), 'none'],
    ["with another link's form token", (origin) => ({ origin, 'sec-fetch-site': 'same-origin' }), 'other'],
  ];
  for (const [name, headers, tokenOf] of refused) {
    it(`${route.prefix}{token}: a POST ${name} is refused (403) and changes nothing`, async () => {
      const { token, other } = await route.link();
      const before = await snapshot();
      const formToken =
        tokenOf === 'own' ? route.formToken(token) : tokenOf === 'other' ? route.formToken(other) : undefined;
      const res = await post(token, headers(fixture().origin), formToken);
      expect(res.statusCode).toBe(403);
      expect(await snapshot()).toEqual(before);
    });
  }

  it(`${route.prefix}{token}: the rightful POST, same-origin with its form token, is answered`, async () => {
    const { token } = await route.link();
    const res = await post(token, { origin: 'null', 'sec-fetch-site': 'same-origin' }, route.formToken(token));
    expect(res.statusCode).toBe(route.okStatus);
  });
}
