import crypto from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { looksLikeId } from '../../src/domain/ids.js';
import { configureBotCheck } from '../../src/domain/sources/configure-bot-check.js';
import { createSource } from '../../src/domain/sources/create-source.js';
import { setSourceActive } from '../../src/domain/sources/set-source-active.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { closedLoopbackUrl, multipartOf, startFakeSiteverify, storedRows } from './intake-helpers.js';
import { inWorkspace } from '../../src/domain/context.js';

const EXPOSED = 'x-request-id, Retry-After, RateLimit, RateLimit-Policy';

type SourceKind = 'active' | 'unknown' | 'deactivated' | 'malformed' | 'botCheck' | 'botCheckDown';

interface Row {
  name: string;
  source: SourceKind;
  /** A JSON object body, or raw bytes with a content type. */
  json?: unknown;
  raw?: { contentType?: string; payload: string | Buffer };
  status: number;
  code?: string;
  stored: 'lead' | 'quarantine' | 'nothing';
  /** Checks on the stored lead row. */
  lead?: Record<string, unknown>;
  errors?: unknown;
}

/** docs/api.md and the interface's error table, one row per case. */
const ROWS: Row[] = [
  {
    name: 'token not a UUID',
    source: 'malformed',
    json: { name: 'A' },
    status: 400,
    code: 'malformed_token',
    stored: 'nothing',
  },
  {
    name: 'malformed token is decided before the body is read',
    source: 'malformed',
    raw: { contentType: 'application/json', payload: '{not json' },
    status: 400,
    code: 'malformed_token',
    stored: 'nothing',
  },
  {
    name: 'unknown well-formed token',
    source: 'unknown',
    json: { name: 'A' },
    status: 404,
    code: 'intake_unavailable',
    stored: 'nothing',
  },
  {
    name: 'deactivated intake link',
    source: 'deactivated',
    json: { name: 'A' },
    status: 404,
    code: 'intake_unavailable',
    stored: 'nothing',
  },
  {
    name: 'closed link is decided before the body is read (an oversized body still gets 404)',
    source: 'deactivated',
    raw: { contentType: 'application/json', payload: 'x'.repeat(70_000) },
    status: 404,
    code: 'intake_unavailable',
    stored: 'nothing',
  },
  {
    name: 'body over 64 KiB',
    source: 'active',
    json: { name: 'A', notes: 'n'.repeat(64 * 1024) },
    status: 413,
    code: 'body_too_large',
    stored: 'nothing',
  },
  {
    name: 'bad JSON',
    source: 'active',
    raw: { contentType: 'application/json', payload: '{"name":' },
    status: 400,
    code: 'unreadable_body',
    stored: 'nothing',
  },
  {
    name: 'JSON array',
    source: 'active',
    raw: { contentType: 'application/json', payload: '[{"name":"A"}]' },
    status: 400,
    code: 'unreadable_body',
    stored: 'nothing',
  },
  {
    name: 'JSON string',
    source: 'active',
    raw: { contentType: 'application/json', payload: '"A"' },
    status: 400,
    code: 'unreadable_body',
    stored: 'nothing',
  },
  {
    name: 'JSON null',
    source: 'active',
    raw: { contentType: 'application/json', payload: 'null' },
    status: 400,
    code: 'unreadable_body',
    stored: 'nothing',
  },
  {
    name: 'invalid UTF-8 in JSON',
    source: 'active',
    raw: {
      contentType: 'application/json',
      payload: Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xc3, 0x28]), Buffer.from('"}')]),
    },
    status: 400,
    code: 'unreadable_body',
    stored: 'nothing',
  },
  {
    name: 'invalid UTF-8 in a form body (percent-encoded)',
    source: 'active',
    raw: { contentType: 'application/x-www-form-urlencoded', payload: 'name=%FF%FE' },
    status: 400,
    code: 'unreadable_body',
    stored: 'nothing',
  },
  {
    name: 'a charset other than UTF-8',
    source: 'active',
    raw: { contentType: 'application/json; charset=iso-8859-1', payload: '{"name":"A"}' },
    status: 400,
    code: 'unreadable_body',
    stored: 'nothing',
  },
  {
    name: 'unknown content type',
    source: 'active',
    raw: { contentType: 'application/xml', payload: '<name>A</name>' },
    status: 400,
    code: 'unreadable_body',
    stored: 'nothing',
  },
  {
    name: 'no content type',
    source: 'active',
    raw: { payload: '{"name":"A"}' },
    status: 400,
    code: 'unreadable_body',
    stored: 'nothing',
  },
  {
    name: 'empty JSON body',
    source: 'active',
    raw: { contentType: 'application/json', payload: '' },
    status: 400,
    code: 'unreadable_body',
    stored: 'nothing',
  },
  {
    name: 'empty body without a type',
    source: 'active',
    raw: { payload: '' },
    status: 400,
    code: 'unreadable_body',
    stored: 'nothing',
  },
  {
    name: 'text/plain that is not a JSON object',
    source: 'active',
    raw: { contentType: 'text/plain', payload: 'name=A' },
    status: 400,
    code: 'unreadable_body',
    stored: 'nothing',
  },
  {
    name: 'broken multipart',
    source: 'active',
    raw: { contentType: 'multipart/form-data; boundary=XYZ', payload: 'no parts here' },
    status: 400,
    code: 'unreadable_body',
    stored: 'nothing',
  },
  {
    name: 'honeypot filled',
    source: 'active',
    json: { name: 'Bot', website: 'http://spam.example' },
    status: 200,
    stored: 'quarantine',
  },
  {
    name: 'honeypot is decided before validation',
    source: 'active',
    json: { website: 'x', notes: 'n'.repeat(3000) },
    status: 200,
    stored: 'quarantine',
  },
  {
    name: 'honeypot "" is no catch',
    source: 'active',
    json: { name: 'A', website: '' },
    status: 200,
    stored: 'lead',
    lead: { name: 'A', extra: '{}' },
  },
  {
    name: 'honeypot null is no catch',
    source: 'active',
    json: { name: 'A', website: null },
    status: 200,
    stored: 'lead',
  },
  {
    name: 'none of name/phone/email',
    source: 'active',
    json: { address: 'Main St 1', notes: 'call me' },
    status: 400,
    code: 'missing_contact',
    stored: 'nothing',
  },
  {
    name: 'contact fields blank after trimming',
    source: 'active',
    json: { name: '  ', phone: null, email: '' },
    status: 400,
    code: 'missing_contact',
    stored: 'nothing',
  },
  {
    name: 'a field over its bound',
    source: 'active',
    json: { name: 'n'.repeat(121), phone: 'p'.repeat(41) },
    status: 400,
    code: 'invalid_fields',
    stored: 'nothing',
    errors: [
      { field: 'name', code: 'too_long', max: 120, message: 'name must be at most 120 characters' },
      { field: 'phone', code: 'too_long', max: 40, message: 'phone must be at most 40 characters' },
    ],
  },
  {
    name: 'an object where a text field belongs',
    source: 'active',
    json: { name: 'A', email: { address: 'a@example.com' } },
    status: 400,
    code: 'invalid_fields',
    stored: 'nothing',
    errors: [{ field: 'email', code: 'invalid_type', message: 'email must be text, not an object or a list' }],
  },
  {
    name: 'more than 50 extra fields',
    source: 'active',
    json: { name: 'A', ...Object.fromEntries(Array.from({ length: 51 }, (_, i) => [`x${i}`, 'v'])) },
    status: 400,
    code: 'invalid_fields',
    stored: 'nothing',
  },
  {
    name: 'bot check on, token absent',
    source: 'botCheck',
    json: { name: 'A' },
    status: 400,
    code: 'bot_check_failed',
    stored: 'nothing',
  },
  {
    name: 'bot check on, token refused',
    source: 'botCheck',
    json: { name: 'A', botCheckToken: 'nope' },
    status: 400,
    code: 'bot_check_failed',
    stored: 'nothing',
  },
  {
    name: 'bot check on, validation comes first',
    source: 'botCheck',
    json: { notes: 'no contact' },
    status: 400,
    code: 'missing_contact',
    stored: 'nothing',
  },
  {
    name: 'bot check on, token passes',
    source: 'botCheck',
    json: { name: 'A', botCheckToken: 'pass' },
    status: 200,
    stored: 'lead',
    lead: { bot_check: 'passed', extra: '{}' },
  },
  {
    name: 'bot check on, provider unreachable: the lead is kept, flagged unverified',
    source: 'botCheckDown',
    json: { name: 'A', botCheckToken: 'anything' },
    status: 200,
    stored: 'lead',
    lead: { bot_check: 'unverified' },
  },
  // Rate limiting (429) is added with the abuse-protection work, in its own suite.
  {
    name: 'success',
    source: 'active',
    json: {
      name: ' Ada ',
      phone: 4155550100,
      email: 'ada@example.com',
      address: 'Main St 1',
      message: 'Hi\nthere',
      budget: 5,
    },
    status: 200,
    stored: 'lead',
    lead: {
      stage: 'inbox',
      name: 'Ada',
      phone: '4155550100',
      email: 'ada@example.com',
      address: 'Main St 1',
      notes: 'Hi\nthere',
      extra: '{"budget":"5"}',
      bot_check: 'off',
      restored_from: null,
    },
  },
];

describeEachBackend('POST /api/intake/{token}', (backend) => {
  let world: TestWorld;
  let app: App;
  let seeded: Seeded;
  let fake: Awaited<ReturnType<typeof startFakeSiteverify>>;
  const tokens = {} as Record<SourceKind, string>;
  const sourceIds = {} as Record<SourceKind, string>;

  beforeAll(async () => {
    fake = await startFakeSiteverify();
    world = await createWorld(backend, {
      // Many posts from one address to one source: the rate limit has its own suite and is off here.
      env: { TURNSTILE_VERIFY_URL: fake.url, HCAPTCHA_VERIFY_URL: await closedLoopbackUrl(), INTAKE_RATE_LIMIT: '0' },
    });
    app = await world.app();
    seeded = await world.seed();
    const { ctx } = world;
    const make = async (kind: SourceKind) => {
      const source = await createSource({
        ctx: inWorkspace(ctx, seeded.workspaceId),
        input: { pipelineId: seeded.pipelineId, name: kind },
      });
      tokens[kind] = source.token;
      sourceIds[kind] = source.id;
      return source;
    };
    tokens.active = seeded.source.token;
    sourceIds.active = seeded.source.id;
    const deactivated = await make('deactivated');
    await setSourceActive({ ctx, input: { sourceId: deactivated.id, active: false } });
    const botCheck = await make('botCheck');
    await configureBotCheck({
      ctx,
      input: { sourceId: botCheck.id, settings: { provider: 'turnstile', secret: 's3cret' } },
    });
    const down = await make('botCheckDown');
    await configureBotCheck({
      ctx,
      input: { sourceId: down.id, settings: { provider: 'hcaptcha', secret: 's3cret' } },
    });
    tokens.unknown = crypto.randomUUID();
    sourceIds.unknown = 'none';
    tokens.malformed = 'not-a-uuid';
    sourceIds.malformed = 'none';
  });
  afterAll(async () => {
    await world.close();
    await fake.close();
  });

  async function allRows() {
    const leads = await world.store.db.selectFrom('leads').selectAll().execute();
    const quarantine = await world.store.db.selectFrom('quarantine').selectAll().execute();
    return { leads, quarantine };
  }

  for (const row of ROWS) {
    it(`${row.name} → ${row.status}${row.code ? ` ${row.code}` : ''}`, async () => {
      const before = await allRows();
      const headers: Record<string, string> = { 'user-agent': 'intake-test/1', origin: 'https://shop.example' };
      let payload: string | Buffer | undefined;
      if (row.raw) {
        payload = row.raw.payload;
        if (row.raw.contentType) headers['content-type'] = row.raw.contentType;
      } else {
        payload = JSON.stringify(row.json);
        headers['content-type'] = 'application/json';
      }
      const res = await app.inject({ method: 'POST', url: `/api/intake/${tokens[row.source]}`, headers, payload });

      expect(res.statusCode).toBe(row.status);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-expose-headers']).toBe(EXPOSED);
      const body = res.json();
      if (row.code) {
        expect(res.headers['content-type']).toBe('application/problem+json; charset=utf-8');
        expect(body).toMatchObject({
          ok: false,
          status: row.status,
          code: row.code,
          requestId: res.headers['x-request-id'],
        });
        if (row.errors) expect(body.errors).toEqual(row.errors);
      } else {
        expect(Object.keys(body).sort()).toEqual(['id', 'ok']);
        expect(body.ok).toBe(true);
        expect(looksLikeId('lead', body.id)).toBe(true);
      }

      const after = await allRows();
      const newLeads = after.leads.filter((l) => !before.leads.some((b) => b.id === l.id));
      const newQuarantine = after.quarantine.filter((q) => !before.quarantine.some((b) => b.id === q.id));
      if (row.stored === 'lead') {
        expect(newLeads).toHaveLength(1);
        expect(newQuarantine).toHaveLength(0);
        const lead = newLeads[0]!;
        expect(lead.id).toBe(body.id);
        expect(lead).toMatchObject({
          source_id: sourceIds[row.source],
          pipeline_id: seeded.pipelineId,
          workspace_id: seeded.workspaceId,
          user_agent: 'intake-test/1',
          origin: 'https://shop.example',
          client_ip: '127.0.0.1',
          ...row.lead,
        });
        // The bot-check token is never a field.
        expect(lead.extra).not.toContain('botCheckToken');
      } else if (row.stored === 'quarantine') {
        expect(newLeads).toHaveLength(0);
        expect(newQuarantine).toHaveLength(1);
        expect(newQuarantine[0]).toMatchObject({ source_id: sourceIds[row.source], reason: 'honeypot' });
        // The id answered names no lead at all.
        expect(after.leads.some((l) => l.id === body.id)).toBe(false);
      } else {
        expect(newLeads).toHaveLength(0);
        expect(newQuarantine).toHaveLength(0);
      }
    });
  }

  it('answers unknown and deactivated tokens with the same body', async () => {
    const strip = (b: Record<string, unknown>) => ({ ...b, requestId: undefined });
    const unknown = await app.inject({ method: 'POST', url: `/api/intake/${tokens.unknown}`, payload: { name: 'A' } });
    const closed = await app.inject({
      method: 'POST',
      url: `/api/intake/${tokens.deactivated}`,
      payload: { name: 'A' },
    });
    expect(strip(unknown.json())).toEqual(strip(closed.json()));
  });

  it('accepts the token in any case', async () => {
    const res = await app.inject({
      method: 'POST',
      url: `/api/intake/${tokens.active.toUpperCase()}`,
      payload: { name: 'Upper' },
    });
    expect(res.statusCode).toBe(200);
    const { leads } = await storedRows(world, sourceIds.active);
    expect(leads.find((l) => l.id === res.json().id)?.name).toBe('Upper');
  });

  it('drops U+0000 from text values the same way on both backends instead of failing', async () => {
    const res = await app.inject({
      method: 'POST',
      url: `/api/intake/${tokens.active}`,
      headers: { 'content-type': 'application/json' },
      payload: '{"name":"Ada\\u0000 Lovelace","notes":"\\u0000line","utm_source":"x\\u0000y"}',
    });
    expect(res.statusCode).toBe(200);
    const lead = await world.store.db
      .selectFrom('leads')
      .selectAll()
      .where('id', '=', res.json().id)
      .executeTakeFirstOrThrow();
    expect(lead.name).toBe('Ada Lovelace');
    expect(lead.notes).toBe('line');
    expect(JSON.parse(lead.extra)).toEqual({ utm_source: 'xy' });
  });

  describe('content types', () => {
    async function post(payload: string | Buffer, contentType: string) {
      const res = await app.inject({
        method: 'POST',
        url: `/api/intake/${tokens.active}`,
        headers: { 'content-type': contentType },
        payload,
      });
      expect(res.statusCode, res.body).toBe(200);
      const lead = await world.store.db
        .selectFrom('leads')
        .selectAll()
        .where('id', '=', res.json().id)
        .executeTakeFirstOrThrow();
      return { ...lead, extra: JSON.parse(lead.extra) as Record<string, string> };
    }

    it('application/json', async () => {
      const lead = await post(
        JSON.stringify({ name: 'Zoë', notes: 'a\r\nb', tags: ['x', 'y'] }),
        'application/json; charset=utf-8',
      );
      expect(lead).toMatchObject({ name: 'Zoë', notes: 'a\r\nb', extra: { tags: '["x","y"]' } });
    });

    it('application/x-www-form-urlencoded, with the first value of a repeated known key', async () => {
      const form = new URLSearchParams([
        ['name', 'Zoë Ångström'],
        ['name', 'ignored'],
        ['phone', '+1 415'],
        ['notes', 'line 1\nline 2'],
        ['website', ''],
        ['interest', 'kitchen'],
        ['interest', 'bath'],
      ]);
      const lead = await post(form.toString(), 'application/x-www-form-urlencoded');
      expect(lead).toMatchObject({
        name: 'Zoë Ångström',
        phone: '+1 415',
        notes: 'line 1\nline 2',
        extra: { interest: '["kitchen","bath"]' },
      });
    });

    it('form-encoded: a stray % is kept as sent', async () => {
      const lead = await post('name=Ann&notes=100% sure', 'application/x-www-form-urlencoded');
      expect(lead).toMatchObject({ name: 'Ann', notes: '100% sure' });
    });

    it('multipart/form-data from a real FormData: text parts are fields, file parts are ignored', async () => {
      const form = new FormData();
      form.append('name', '👩‍💻 Dev');
      form.append('email', 'dev@example.com');
      form.append('attachment', new Blob([new Uint8Array([0xff, 0x00, 0xfe])]), 'plan.bin');
      form.append('name', 'second value');
      form.append('company', 'Acme');
      const { payload, contentType } = await multipartOf(form);
      expect(contentType).toMatch(/^multipart\/form-data; boundary=/);
      const lead = await post(payload, contentType);
      expect(lead).toMatchObject({ name: '👩‍💻 Dev', email: 'dev@example.com', extra: { company: 'Acme' } });
    });

    it('multipart with invalid UTF-8 in a text part is unreadable', async () => {
      const boundary = 'b0undary';
      const payload = Buffer.concat([
        Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="name"\r\n\r\n`),
        Buffer.from([0x41, 0xff, 0x42]),
        Buffer.from(`\r\n--${boundary}--\r\n`),
      ]);
      const res = await app.inject({
        method: 'POST',
        url: `/api/intake/${tokens.active}`,
        headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
        payload,
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().code).toBe('unreadable_body');
    });

    it('multipart over 64 KiB is 413, even when the bulk is a file part', async () => {
      const form = new FormData();
      form.append('name', 'A');
      form.append('file', new Blob([new Uint8Array(65 * 1024)]), 'big.bin');
      const { payload, contentType } = await multipartOf(form);
      const before = await storedRows(world, sourceIds.active);
      const res = await app.inject({
        method: 'POST',
        url: `/api/intake/${tokens.active}`,
        headers: { 'content-type': contentType },
        payload,
      });
      expect(res.statusCode).toBe(413);
      expect(res.json().code).toBe('body_too_large');
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect((await storedRows(world, sourceIds.active)).leads).toHaveLength(before.leads.length);
    });

    it('text/plain holding a JSON object', async () => {
      const lead = await post(JSON.stringify({ email: 'plain@example.com' }), 'text/plain;charset=UTF-8');
      expect(lead).toMatchObject({ email: 'plain@example.com', name: null });
    });

    it('names the accepted types when it cannot read a body', async () => {
      const res = await app.inject({
        method: 'POST',
        url: `/api/intake/${tokens.active}`,
        headers: { 'content-type': 'application/octet-stream' },
        payload: Buffer.from([1, 2, 3]),
      });
      expect(res.statusCode).toBe(400);
      const { detail } = res.json() as { detail: string };
      for (const type of [
        'application/json',
        'application/x-www-form-urlencoded',
        'multipart/form-data',
        'text/plain',
      ]) {
        expect(detail).toContain(type);
      }
    });
  });

  it('stores bounds exactly at the limit in code points and refuses one over', async () => {
    const name = '👩‍💻'.repeat(40); // 120 code points, 200 UTF-16 units
    const address = 'e\u0301'.repeat(120); // 240 code points
    const notes = '\u00e9'.repeat(2000);
    expect([...name].length).toBe(120);
    const ok = await app.inject({
      method: 'POST',
      url: `/api/intake/${tokens.active}`,
      payload: { name, address, notes },
    });
    expect(ok.statusCode).toBe(200);
    const lead = await world.store.db
      .selectFrom('leads')
      .selectAll()
      .where('id', '=', ok.json().id)
      .executeTakeFirstOrThrow();
    expect(lead).toMatchObject({ name, address, notes });

    const before = await storedRows(world, sourceIds.active);
    const over = await app.inject({
      method: 'POST',
      url: `/api/intake/${tokens.active}`,
      payload: { name: `${name}x`, address: `${address}e\u0301`, notes: `${notes}\u00e9` },
    });
    expect(over.statusCode).toBe(400);
    expect(over.json().errors.map((e: { field: string; max: number }) => [e.field, e.max])).toEqual([
      ['name', 120],
      ['address', 240],
      ['notes', 2000],
    ]);
    expect((await storedRows(world, sourceIds.active)).leads).toHaveLength(before.leads.length);
  });

  it('a honeypot answer looks like a real one; the catch keeps every field, the honeypot and the request details', async () => {
    const real = await app.inject({ method: 'POST', url: `/api/intake/${tokens.active}`, payload: { name: 'Real' } });
    const caught = await app.inject({
      method: 'POST',
      url: `/api/intake/${tokens.active}`,
      headers: { 'user-agent': 'bot/1', referer: 'https://shop.example/contact' },
      payload: { name: ' Autofilled ', website: 'https://my.site', botCheckToken: 'tok', extra1: 7 },
    });
    expect(caught.statusCode).toBe(real.statusCode);
    expect(caught.headers['content-type']).toBe(real.headers['content-type']);
    expect(Object.keys(caught.json()).sort()).toEqual(Object.keys(real.json()).sort());
    expect(caught.json().id).toMatch(/^lead_[0-9a-f]{32}$/);

    const { leads, quarantine } = await storedRows(world, sourceIds.active);
    expect(leads.some((l) => l.id === caught.json().id)).toBe(false);
    const row = quarantine.at(-1)!;
    expect(JSON.parse(row.fields)).toEqual({ name: ' Autofilled ', website: 'https://my.site', extra1: '7' });
    expect(row).toMatchObject({
      reason: 'honeypot',
      user_agent: 'bot/1',
      referer: 'https://shop.example/contact',
      restored_lead_id: null,
    });
  });

  describe('CORS (docs/api.md)', () => {
    const corsOf = (headers: Record<string, unknown>) => ({
      origin: headers['access-control-allow-origin'],
      expose: headers['access-control-expose-headers'],
      credentials: headers['access-control-allow-credentials'],
    });

    it('preflight: 204 with methods, allowed headers plus the requested ones, max age, no credentials', async () => {
      const res = await app.inject({
        method: 'OPTIONS',
        url: `/api/intake/${tokens.active}`,
        headers: {
          origin: 'https://shop.example',
          'access-control-request-method': 'POST',
          'access-control-request-headers': 'content-type, x-custom-thing',
        },
      });
      expect(res.statusCode).toBe(204);
      expect(res.body).toBe('');
      expect(res.headers['access-control-allow-methods']).toBe('POST, OPTIONS');
      expect(res.headers['access-control-allow-headers']).toBe('Content-Type, Idempotency-Key, x-custom-thing');
      expect(res.headers['access-control-max-age']).toBe('86400');
      expect(corsOf(res.headers)).toEqual({ origin: '*', expose: EXPOSED, credentials: undefined });
    });

    it('a wrong method is a 405 problem with Allow and CORS headers', async () => {
      for (const method of ['GET', 'PUT', 'DELETE', 'PATCH'] as const) {
        const res = await app.inject({ method, url: `/api/intake/${tokens.active}` });
        expect(res.statusCode).toBe(405);
        expect(res.json().code).toBe('method_not_allowed');
        expect(res.headers.allow).toBe('POST, OPTIONS');
        expect(corsOf(res.headers)).toEqual({ origin: '*', expose: EXPOSED, credentials: undefined });
      }
    });

    it('other paths under /api/intake/ answer with CORS headers too', async () => {
      const res = await app.inject({
        method: 'POST',
        url: `/api/intake/${tokens.active}/extra`,
        payload: { name: 'A' },
      });
      expect(res.statusCode).toBe(404);
      expect(corsOf(res.headers)).toEqual({ origin: '*', expose: EXPOSED, credentials: undefined });
    });

    it('routes outside /api/intake/ carry no CORS headers', async () => {
      const res = await app.inject({ method: 'GET', url: '/healthz' });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    });

    it('a real browser-style request over HTTP: FormData post from another origin', async () => {
      const base = await world.listen();
      const form = new FormData();
      form.append('name', 'Over the wire');
      form.append('file', new Blob(['ignored']), 'a.txt');
      const res = await fetch(`${base}/api/intake/${tokens.active}`, {
        method: 'POST',
        body: form,
        headers: { origin: 'https://elsewhere.example' },
      });
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      const { id } = (await res.json()) as { id: string };
      const lead = await world.store.db.selectFrom('leads').selectAll().where('id', '=', id).executeTakeFirstOrThrow();
      expect(lead).toMatchObject({ name: 'Over the wire', extra: '{}', origin: 'https://elsewhere.example' });
    });
  });

  it('is described in /openapi.json with every response code', async () => {
    const doc = (await app.inject({ method: 'GET', url: '/openapi.json' })).json();
    const op = doc.paths['/api/intake/{token}'].post;
    expect(Object.keys(op.requestBody.content).sort()).toEqual([
      'application/json',
      'application/x-www-form-urlencoded',
      'multipart/form-data',
      'text/plain',
    ]);
    expect(Object.keys(op.responses).sort()).toEqual([
      '200',
      '400',
      '404',
      '405',
      '409',
      '413',
      '415',
      '422',
      '429',
      '503',
    ]);
    for (const code of ['400', '404', '405', '413', '429', '503']) {
      const media = op.responses[code].content['application/problem+json'];
      expect(media.schema.$ref).toBe('#/components/schemas/Problem');
      expect(media.example.status).toBe(Number(code));
    }
  });
});

describeEachBackend('POST /api/intake/{token} when the database fails', (backend) => {
  it('a 5xx still carries the CORS headers and shows no internals', async () => {
    const world = await createWorld(backend);
    try {
      const seeded = await world.seed();
      const app = await world.app();
      await world.store.db.destroy();
      const res = await app.inject({
        method: 'POST',
        url: `/api/intake/${seeded.source.token}`,
        payload: { name: 'A' },
      });
      expect(res.statusCode).toBeGreaterThanOrEqual(500);
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-expose-headers']).toBe(EXPOSED);
      expect(res.body).not.toMatch(/select|lead_sources|at .*\.js/i);
    } finally {
      await world.close();
    }
  });
});

describeEachBackend('POST /api/intake/{token} over the rate limit', (backend) => {
  it('a 429 carries the CORS headers, and the refused post stores nothing', async () => {
    const world = await createWorld(backend, { env: { INTAKE_RATE_LIMIT: '1' } });
    try {
      const seeded = await world.seed();
      const app = await world.app();
      const url = `/api/intake/${seeded.source.token}`;
      expect((await app.inject({ method: 'POST', url, payload: { name: 'First' } })).statusCode).toBe(200);
      const res = await app.inject({ method: 'POST', url, payload: { name: 'Second' } });
      expect(res.statusCode).toBe(429);
      expect(res.json().code).toBe('rate_limited');
      expect(res.headers['access-control-allow-origin']).toBe('*');
      expect(res.headers['access-control-expose-headers']).toBe(EXPOSED);
      const { leads } = await storedRows(world, seeded.source.id);
      expect(leads.map((l) => l.name)).toEqual(['First']);
    } finally {
      await world.close();
    }
  });
});
