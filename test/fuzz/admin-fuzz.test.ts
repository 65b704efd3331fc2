import fc from 'fast-check';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachBackend } from '../helpers/backends.js';
import { ADMIN_ROUTE_CASES, createAdminFixture, send, type AdminFixture } from '../helpers/admin-security.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';

/**
 * The admin pages and sign-in under arbitrary text: any value in any field of any admin form, in the inbox's query
 * and in the sign-in and setup forms (control characters, lone surrogates, long strings) is answered below 500, and
 * the app still serves afterwards. `npm run fuzz` runs many more cases (FUZZ_RUNS).
 */
const RUNS = Math.max(100, Math.floor(Number(process.env.FUZZ_RUNS ?? 1200) / 4));
const SEED = process.env.FUZZ_SEED === undefined ? undefined : Number(process.env.FUZZ_SEED);

const hostileText = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 80 }),
  fc.string({ maxLength: 20 }).map((s) => `${s}\u0000${s}`),
  fc.constantFrom('\u0000', '\ud800', 'a\u001fb', '\u007f', ' '.repeat(500), '%00', "'; drop table leads; --"),
);

/** Multipart content types, good and broken (docs/security.md, "Form bodies"). */
const multipartType = fc.constantFrom(
  'multipart/form-data',
  'multipart/form-data; boundary=XX',
  'multipart/form-data; boundary=',
  'multipart/form-data; boundary="a b"',
  `multipart/form-data; boundary=${'x'.repeat(300)}`,
  'Multipart/Form-Data; BOUNDARY=XX',
  'multipart/form-data; charset=latin1; boundary=XX',
  'multipart/mixed; boundary=XX',
);

/** A multipart body made of good parts, broken parts and arbitrary bytes, in any order. */
const multipartBody = (csrf: string) =>
  fc
    .array(
      fc.oneof(
        fc.constant(`--XX\r\nContent-Disposition: form-data; name="_csrf"\r\n\r\n${csrf}\r\n`),
        fc.constant('--XX\r\nContent-Disposition: form-data; name="email"\r\n\r\nada@example.com\r\n'),
        fc.constant(
          '--XX\r\nContent-Disposition: form-data; name="file"; filename="list.csv"\r\nContent-Type: text/csv\r\n\r\nname,unit,price\r\nGrout,m2,4\r\n',
        ),
        fc.constant('--XX\r\nContent-Disposition: form-data; name="__proto__"\r\n\r\nx\r\n'),
        fc.constant('--XX\r\nContent-Disposition: form-data\r\n\r\nnameless\r\n'),
        fc.constant('--XX\r\n\r\n'),
        fc.constant('--XX--\r\n'),
        fc.constant('--XX'),
        fc.string({ unit: 'binary', maxLength: 60 }),
      ),
      { maxLength: 8 },
    )
    .map((parts) => parts.join(''));

describeEachBackend('admin and sign-in fuzz: arbitrary text never gets a 500', (backend) => {
  let world: TestWorld;
  let f: AdminFixture;
  beforeAll(async () => {
    world = await createWorld(backend, { env: { LOAD_SHED_EVENT_LOOP_DELAY_MS: '0', LOAD_SHED_HEAP_USED_BYTES: '0' } });
    f = await createAdminFixture(world);
  });
  afterAll(async () => {
    await world?.close();
  });

  const posts = ADMIN_ROUTE_CASES.filter((r) => r.method === 'POST' && r.form);

  it(
    `answers ${RUNS} arbitrary admin form posts, inbox queries and sign-ins below 500`,
    { timeout: 60_000 + RUNS * 200 },
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.nat(posts.length - 1),
          hostileText,
          hostileText,
          fc.nat(3),
          async (which, text, other, kind) => {
            if (kind === 0) {
              const route = posts[which]!;
              const fields = route.form!(f);
              const names = Object.keys(fields);
              const field = names[which % names.length]!;
              const res = await send(f, { ...route, form: () => ({ ...fields, [field]: text }) }, route.url(f), {
                as: f.owner,
              });
              expect(res.statusCode, `${route.path} ${field}=${JSON.stringify(text)}`).toBeLessThan(500);
              return;
            }
            if (kind === 1) {
              const query = new URLSearchParams({ q: text, source: other }).toString();
              const res = await f.app.inject({
                method: 'GET',
                url: `/w/${f.home.workspaceId}/leads?${query}`,
                headers: { cookie: f.owner.cookie },
              });
              expect(res.statusCode, `?${query}`).toBeLessThan(500);
              return;
            }
            const url = kind === 2 ? '/login' : `/setup/${Buffer.from(other).toString('base64url')}%00`;
            const payload = new URLSearchParams(
              kind === 2 ? { email: text, password: other } : { password: text, repeat: text },
            ).toString();
            const res = await f.app.inject({
              method: 'POST',
              url,
              headers: { 'content-type': 'application/x-www-form-urlencoded' },
              payload,
              remoteAddress: `192.0.2.${(which % 250) + 1}`,
            });
            expect(res.statusCode, `${url} ${payload}`).toBeLessThan(500);
          },
        ),
        { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }), endOnFailure: true },
      );
      const page = await f.app.inject({
        method: 'GET',
        url: `/w/${f.home.workspaceId}/scans`,
        headers: { cookie: f.owner.cookie },
      });
      expect(page.statusCode).toBe(200);
    },
  );

  it(
    `answers ${RUNS} malformed multipart bodies to sign-in, admin forms and the upload below 500`,
    { timeout: 60_000 + RUNS * 200 },
    async () => {
      const targets = [
        { url: () => '/login', signedIn: false },
        { url: () => '/forgot-password', signedIn: false },
        { url: () => `/setup/${'A'.repeat(43)}`, signedIn: false },
        { url: () => `/w/${f.home.workspaceId}/settings/price-list/import`, signedIn: true },
        ...posts.map((route) => ({ url: () => route.url(f), signedIn: true })),
      ];
      await fc.assert(
        fc.asyncProperty(
          // The sign-in pages and the upload as often as all other admin forms together.
          fc.oneof(fc.nat(3), fc.nat(targets.length - 1)),
          multipartType,
          multipartBody(f.owner.csrf),
          fc.boolean(),
          fc.boolean(),
          async (which, contentType, body, signedIn, sameOrigin) => {
            const target = targets[which]!;
            const res = await f.app.inject({
              method: 'POST',
              url: target.url(),
              headers: {
                'content-type': contentType,
                ...(sameOrigin ? { origin: 'http://leadscan.test' } : {}),
                ...(signedIn && target.signedIn ? { cookie: f.owner.cookie } : {}),
              },
              payload: Buffer.from(body, 'latin1'),
              remoteAddress: `198.51.100.${(which % 250) + 1}`,
            });
            expect(res.statusCode, `${target.url()} ${contentType} ${JSON.stringify(body)}`).toBeLessThan(500);
          },
        ),
        { numRuns: RUNS, ...(SEED === undefined ? {} : { seed: SEED }), endOnFailure: true },
      );
      const page = await f.app.inject({
        method: 'GET',
        url: `/w/${f.home.workspaceId}/scans`,
        headers: { cookie: f.owner.cookie },
      });
      expect(page.statusCode).toBe(200);
    },
  );
});
