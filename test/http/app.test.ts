import { afterEach, beforeEach, expect, it } from 'vitest';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';

describeEachBackend('app basics', (backend) => {
  let world: TestWorld;
  beforeEach(async () => {
    world = await createWorld(backend);
  });
  afterEach(async () => {
    await world.close();
  });

  it('answers unknown routes with a JSON problem and a request id', async () => {
    const app = await world.app();
    const res = await app.inject({ method: 'GET', url: '/no/such/route?x=1' });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
    const body = res.json();
    expect(body).toEqual({
      ok: false,
      type: 'http://leadscan.test/problems/route_not_found',
      title: 'Not found',
      status: 404,
      detail: 'No route GET /no/such/route; see /docs',
      code: 'route_not_found',
      requestId: res.headers['x-request-id'],
    });
  });

  it('echoes a sane x-request-id and replaces an insane one', async () => {
    const app = await world.app();
    const sane = await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'abc-123' } });
    expect(sane.headers['x-request-id']).toBe('abc-123');
    const insane = await app.inject({ method: 'GET', url: '/healthz', headers: { 'x-request-id': 'a b<script>' } });
    expect(insane.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    const none = await app.inject({ method: 'GET', url: '/healthz' });
    expect(none.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('reports health and readiness', async () => {
    const app = await world.app();
    expect((await app.inject({ method: 'GET', url: '/healthz' })).json()).toEqual({ ok: true, database: 'writable' });
    const ready = await app.inject({ method: 'GET', url: '/readyz' });
    expect(ready.statusCode).toBe(200);
    expect(ready.json()).toEqual({ ok: true });
  });

  it('says not ready with a 503 problem when the database is gone', async () => {
    const app = await world.app();
    await world.store.db.destroy();
    const res = await app.inject({ method: 'GET', url: '/readyz' });
    expect(res.statusCode).toBe(503);
    expect(res.json().code).toBe('service_unavailable');
    expect(res.headers['retry-after']).toBe('5');
    // Health answers for writes (docs/operations.md, "Health"): a database that is gone takes none.
    expect((await app.inject({ method: 'GET', url: '/healthz' })).statusCode).toBe(503);
  });

  it('hides internals of a 500 behind a generic problem', async () => {
    const app = await world.app();
    app.get('/boom-test', async () => {
      throw new Error('SELECT secret FROM /var/lib/thing failed at line 3');
    });
    const res = await app.inject({ method: 'GET', url: '/boom-test' });
    expect(res.statusCode).toBe(500);
    expect(res.json().code).toBe('internal_error');
    expect(res.body).not.toContain('SELECT');
    expect(res.body).not.toContain('/var/lib');
  });

  it('serves an OpenAPI 3.1 document with the Problem schema, an offline reference page and problem pages', async () => {
    const app = await world.app();
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.components.schemas.Problem.properties.code).toBeDefined();
    expect(doc.paths['/healthz']).toBeDefined();
    const docs = await app.inject({ method: 'GET', url: '/docs/' });
    expect(docs.statusCode).toBe(200);
    expect(docs.body).not.toMatch(/https?:\/\/(cdn|unpkg|fonts)\./);
    const page = await app.inject({ method: 'GET', url: '/problems/missing_contact' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('name, phone or email');
    expect((await app.inject({ method: 'GET', url: '/problems/nope' })).statusCode).toBe(404);
  });
});
