import net from 'node:net';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { ADMIN_AREAS } from '../../../src/web/admin/areas.js';
import { describeEachBackend } from '../../helpers/backends.js';
import { ADMIN_ROUTE_CASES, createAdminFixture, snapshot, type AdminFixture } from '../../helpers/admin-security.js';
import { createWorld, type TestWorld } from '../../helpers/test-app.js';
import { listenWithLog, type LoggedApp } from '../../http/log-capture.js';
import { NO_LOAD_SHEDDING } from '../../http/quiet-world.js';

const ORIGIN = 'http://leadscan.test';
const UPLOADS = new Set(
  ADMIN_AREAS.flatMap((area) => area.routes)
    .filter((route) => route.upload)
    .map((route) => route.path),
);

/** A multipart/form-data body of text fields, then files, with the boundary `XX`. */
function multipart(
  fields: Array<[string, string]>,
  files: Array<[string, string, string]> = [],
  order: 'fields-first' | 'files-first' = 'fields-first',
): string {
  const field = ([name, value]: [string, string]) =>
    `--XX\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`;
  const file = ([name, filename, data]: [string, string, string]) =>
    `--XX\r\nContent-Disposition: form-data; name="${name}"; filename="${filename}"\r\nContent-Type: text/csv\r\n\r\n${data}\r\n`;
  const parts =
    order === 'fields-first' ? [...fields.map(field), ...files.map(file)] : [...files.map(file), ...fields.map(field)];
  return `${parts.join('')}--XX--\r\n`;
}

/** Bodies a form never sends: each must get a 4xx, never a 500. */
const MALFORMED: Array<[label: string, contentType: string, body: string]> = [
  ['garbage after a boundary', 'multipart/form-data; boundary=XX', 'garbage'],
  ['no boundary', 'multipart/form-data', multipart([['email', 'ada@example.com']])],
  ['an empty boundary', 'multipart/form-data; boundary=', multipart([['email', 'ada@example.com']])],
  [
    'a part cut off',
    'multipart/form-data; boundary=XX',
    '--XX\r\nContent-Disposition: form-data; name="email"\r\n\r\nada',
  ],
  ['a part without headers', 'multipart/form-data; boundary=XX', '--XX\r\n\r\n\r\nvalue\r\n--XX--\r\n'],
  ['a field named __proto__', 'multipart/form-data; boundary=XX', multipart([['__proto__', 'x']])],
  ['a well-formed one', 'multipart/form-data; boundary=XX', multipart([['email', 'ada@example.com']])],
];

/** Sends the headers of a large body and only its first bytes; resolves with the status line of the answer. */
function answerBeforeBody(baseUrl: string, head: string, firstBytes: string): Promise<string> {
  const { port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    let answer = '';
    const socket = net.connect(Number(port), '127.0.0.1', () => socket.write(head + firstBytes));
    socket.on('data', (chunk: Buffer) => {
      answer += chunk.toString('utf8');
      if (answer.includes('\r\n')) {
        socket.destroy();
        resolve(answer.split('\r\n')[0]!);
      }
    });
    socket.on('error', (error: NodeJS.ErrnoException) =>
      error.code === 'ECONNRESET' ? resolve(answer) : reject(error),
    );
    socket.on('close', () => resolve(answer.split('\r\n')[0] ?? ''));
    // A server that waits for the whole body never answers: say so instead of waiting for the test's own timeout.
    setTimeout(() => {
      socket.destroy();
      resolve(answer.split('\r\n')[0] || 'no answer before the body');
    }, 10_000).unref();
  });
}

/**
 * Multipart bodies to the admin app and the sign-in pages (docs/security.md, "Form bodies"): only a route that declares
 * an upload reads one, after the session, the origin and the form's token; every other route refuses it unread (413
 * past the form limit, else 400); a malformed one is a 400, never a 500, and nothing is logged at error level.
 */
describeEachBackend('multipart bodies to the admin app', (backend) => {
  let world: TestWorld;
  let f: AdminFixture;
  let logged: LoggedApp;
  beforeAll(async () => {
    world = await createWorld(backend, { env: NO_LOAD_SHEDDING });
    f = await createAdminFixture(world);
    logged = await listenWithLog(world, 'info');
  }, 120_000);
  afterAll(async () => {
    await logged?.close();
    await world?.close();
  });

  const post = (url: string, contentType: string, payload: string, headers: Record<string, string> = {}) =>
    logged.app.inject({
      method: 'POST',
      url,
      headers: { origin: ORIGIN, 'content-type': contentType, ...headers },
      payload,
    });
  const errorLines = () => logged.lines.filter((line) => Number(line.level) >= 50);

  it('sign-in, Forgot password and a setup link answer every malformed multipart body with 400, unread', async () => {
    for (const url of ['/login', '/forgot-password', `/setup/${'A'.repeat(43)}`]) {
      for (const [label, contentType, body] of MALFORMED) {
        const res = await post(url, contentType, body);
        expect(res.statusCode, `${url}: ${label}`).toBe(400);
        expect(res.body, `${url}: ${label}`).toContain('The form could not be read');
      }
    }
    // Signed in no more by any of it.
    expect(await world.store.db.selectFrom('sessions').select('id_hash').execute()).toHaveLength(3);
    expect(errorLines()).toEqual([]);
  });

  it('every admin POST refuses a multipart body unread: 400 signed in, the sign-in page signed out; nothing changes', async () => {
    const before = await snapshot(f);
    const posts = ADMIN_ROUTE_CASES.filter((route) => route.method === 'POST' && !UPLOADS.has(route.path));
    expect(posts.length).toBeGreaterThan(30);
    for (const route of posts) {
      for (const [label, contentType, body] of [MALFORMED[0]!, MALFORMED[1]!, MALFORMED[6]!]) {
        const signedIn = await post(route.url(f), contentType, body.replace('ada@example.com', f.owner.csrf), {
          cookie: f.owner.cookie,
        });
        expect(signedIn.statusCode, `${route.path}: ${label}`).toBe(400);
        expect(signedIn.body, `${route.path}: ${label}`).toContain('The form could not be read');
        const signedOut = await post(route.url(f), contentType, body);
        expect(signedOut.statusCode, `${route.path} signed out: ${label}`).toBe(303);
        expect(signedOut.headers.location).toBe('/login');
      }
    }
    expect(await snapshot(f)).toEqual(before);
    expect(errorLines()).toEqual([]);
  });

  it('a body past the form limit is refused with 413 before it is read, in either encoding', async () => {
    const head = (path: string, contentType: string, length: number, cookie = '') =>
      `POST ${path} HTTP/1.1\r\nHost: leadscan.test\r\nOrigin: ${ORIGIN}\r\n${cookie ? `Cookie: ${cookie}\r\n` : ''}Content-Type: ${contentType}\r\nContent-Length: ${length}\r\n\r\n`;
    const big = 3_300_000;
    const first = multipart([['email', 'ada@example.com']]).slice(0, 60);
    // Only the first bytes are sent: an answer proves the server did not wait for the rest.
    expect(
      await answerBeforeBody(logged.baseUrl, head('/login', 'multipart/form-data; boundary=XX', big), first),
    ).toMatch(/^HTTP\/1\.1 413 /);
    expect(
      await answerBeforeBody(
        logged.baseUrl,
        head(`/w/${f.home.workspaceId}/scans/key`, 'multipart/form-data; boundary=XX', big, f.owner.cookie),
        first,
      ),
    ).toMatch(/^HTTP\/1\.1 413 /);
    expect(
      await answerBeforeBody(logged.baseUrl, head('/login', 'application/x-www-form-urlencoded', big), 'email=a'),
    ).toMatch(/^HTTP\/1\.1 413 /);
    const upload = `/w/${f.home.workspaceId}/settings/price-list/import`;
    expect(
      await answerBeforeBody(
        logged.baseUrl,
        head(upload, 'multipart/form-data; boundary=XX', 20_000_000, f.owner.cookie),
        first,
      ),
    ).toMatch(/^HTTP\/1\.1 413 /);
    // A whole urlencoded body just past the limit: 413 too.
    const res = await post('/login', 'application/x-www-form-urlencoded', `email=${'a'.repeat(70 * 1024)}`);
    expect(res.statusCode).toBe(413);
    expect(errorLines()).toEqual([]);
  });

  it("the price list's upload reads its file only after the session, the origin and the form's token", async () => {
    const url = `/w/${f.home.workspaceId}/settings/price-list/import`;
    const items = async () =>
      (
        await world.store.db
          .selectFrom('price_list_items')
          .select('name')
          .where('workspace_id', '=', f.home.workspaceId)
          .execute()
      )
        .map((i) => i.name)
        .sort();
    const before = await items();
    const csv = 'name,unit,price\r\nGrout,m2,4\r\n';
    const as = { cookie: f.owner.cookie };
    const type = 'multipart/form-data; boundary=XX';
    // The token after the file, a wrong token, another site, no session: refused, the file unread.
    const late = await post(
      url,
      type,
      multipart([['_csrf', f.owner.csrf]], [['file', 'list.csv', csv]], 'files-first'),
      as,
    );
    expect(late.statusCode).toBe(403);
    const wrong = await post(url, type, multipart([['_csrf', f.member.csrf]], [['file', 'list.csv', csv]]), as);
    expect(wrong.statusCode).toBe(403);
    const foreign = await post(url, type, multipart([['_csrf', f.owner.csrf]], [['file', 'list.csv', csv]]), {
      ...as,
      origin: 'https://evil.example',
    });
    expect(foreign.statusCode).toBe(403);
    const signedOut = await post(url, type, multipart([['_csrf', f.owner.csrf]], [['file', 'list.csv', csv]]));
    expect(signedOut.statusCode).toBe(303);
    expect(await items()).toEqual(before);
    // Malformed, or text fields past the form limit: refused.
    for (const [label, contentType, body] of MALFORMED.slice(0, 6)) {
      const res = await post(url, contentType, body, as);
      expect(res.statusCode, label).toBeGreaterThanOrEqual(400);
      expect(res.statusCode, label).toBeLessThan(500);
    }
    const long = await post(
      url,
      type,
      multipart([
        ['_csrf', f.owner.csrf],
        ['csv', 'x'.repeat(70 * 1024)],
      ]),
      as,
    );
    expect(long.statusCode).toBe(413);
    expect(await items()).toEqual(before);
    // The real thing: the token first, then the file.
    const ok = await post(url, type, multipart([['_csrf', f.owner.csrf]], [['file', 'list.csv', csv]]), as);
    expect(ok.statusCode).toBe(303);
    expect(ok.headers.location).toMatch(/notice=imported-1-0$/);
    expect(await items()).toEqual([...before, 'Grout'].sort());
    expect(errorLines()).toEqual([]);
  });
});
