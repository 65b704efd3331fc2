import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { TestWorld } from '../helpers/test-app.js';

/** Rows of the two tables the intake writes, read back from the database. */
export async function storedRows(world: TestWorld, sourceId: string) {
  const leads = await world.store.db
    .selectFrom('leads')
    .selectAll()
    .where('source_id', '=', sourceId)
    .orderBy('id')
    .execute();
  const quarantine = await world.store.db
    .selectFrom('quarantine')
    .selectAll()
    .where('source_id', '=', sourceId)
    .orderBy('id')
    .execute();
  return { leads, quarantine };
}

/** A multipart body exactly as a browser's `fetch(url, { body: formData })` would send it. */
export async function multipartOf(form: FormData): Promise<{ payload: Buffer; contentType: string }> {
  const request = new Request('http://127.0.0.1/', { method: 'POST', body: form });
  return {
    payload: Buffer.from(await request.arrayBuffer()),
    contentType: request.headers.get('content-type') ?? '',
  };
}

/**
 * A loopback stand-in for a bot-check provider's siteverify endpoint: the token "pass" passes, anything else is
 * refused. Only loopback traffic; closed by the test.
 */
export async function startFakeSiteverify(): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'));
      const ok = form.get('response') === 'pass';
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(ok ? { success: true } : { success: false, 'error-codes': ['invalid-input-response'] }));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/siteverify`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A loopback URL where nothing listens: a provider that is down. */
export async function closedLoopbackUrl(): Promise<string> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/siteverify`;
}
