import crypto from 'node:crypto';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import type { ErrorCode } from '../../src/domain/errors.js';
import { HTTP_ERRORS } from '../../src/http/error-statuses.js';
import { requestHash, sourceScope, workspaceScope } from '../../src/domain/idempotency/idempotency-key.js';
import { claimKey } from '../../src/domain/idempotency/idempotency-store.js';
import { leadPayloadHash } from '../../src/domain/intake/submit-lead-once.js';
import { configureBotCheck } from '../../src/domain/sources/configure-bot-check.js';
import { setSourceActive } from '../../src/domain/sources/set-source-active.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';

/**
 * The OpenAPI document is what clients are built from, and its response schemas are also what Fastify serializes
 * with (fast-json-stringify drops properties a schema does not list, silently). So: every documented status of
 * the public operations is provoked by a real request, and the answer must match the published schema, media type
 * and example; and the body that left the handler (captured before serialization) must equal the body that was
 * sent, so a schema that disagrees with the code fails here instead of losing data.
 */

type Json = Record<string, unknown>;
type Operation = 'POST /api/intake/{token}' | 'POST /api/scan/upload' | 'GET /healthz' | 'GET /readyz';

/** docs/api.md: statuses each operation must document (more may be documented, and then provoked too). */
const CONTRACT_STATUSES: Record<Operation, number[]> = {
  'POST /api/intake/{token}': [200, 400, 404, 413, 429],
  'POST /api/scan/upload': [200, 400, 401, 413, 429],
  'GET /healthz': [200, 503],
  'GET /readyz': [200, 503],
};
const OPERATIONS = Object.keys(CONTRACT_STATUSES) as Operation[];
/** Response headers a client relies on: each one sent must be documented for its status, and each documented one sent. */
const TRACKED_HEADERS = [
  'x-request-id',
  'ratelimit',
  'ratelimit-policy',
  'retry-after',
  'idempotent-replayed',
  'accept-encoding',
  'access-control-allow-origin',
  'access-control-expose-headers',
];
const BASE_URL = 'http://leadscan.test';
const SCAN_MAX_BYTES = 16 * 1024;

function operationOf(doc: Json, operation: Operation): Json {
  const [method, path] = operation.split(' ') as [string, string];
  const paths = doc.paths as Record<string, Record<string, Json>>;
  return paths[path]?.[method.toLowerCase()] as Json;
}

function responsesOf(doc: Json, operation: Operation): Record<string, Json> {
  return (operationOf(doc, operation)?.responses ?? {}) as Record<string, Json>;
}

function resolvePointer(doc: Json, ref: string): unknown {
  if (!ref.startsWith('#/')) return undefined;
  return ref
    .slice(2)
    .split('/')
    .map((part) => part.replaceAll('~1', '/').replaceAll('~0', '~'))
    .reduce<unknown>((node, part) => (node && typeof node === 'object' ? (node as Json)[part] : undefined), doc);
}

function allRefs(node: unknown, found: string[] = []): string[] {
  if (Array.isArray(node)) node.forEach((item) => allRefs(item, found));
  else if (node && typeof node === 'object') {
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string') found.push(value);
      else allRefs(value, found);
    }
  }
  return found;
}

/**
 * The schema with every `$ref` replaced by what it points to, and every object schema that does not say otherwise
 * closed (additionalProperties: false): fast-json-stringify drops unlisted properties, so the published schema
 * promises exactly the listed ones.
 */
function closedSchema(doc: Json, node: unknown, depth = 0): unknown {
  if (depth > 20) throw new Error('schema nests too deep (a $ref cycle?)');
  if (Array.isArray(node)) return node.map((item) => closedSchema(doc, item, depth + 1));
  if (!node || typeof node !== 'object') return node;
  const { $ref, ...rest } = node as Json;
  const merged: Json = typeof $ref === 'string' ? { ...(resolvePointer(doc, $ref) as Json), ...rest } : rest;
  const out: Json = {};
  for (const [key, value] of Object.entries(merged)) {
    out[key] = key === 'examples' || key === 'example' ? value : closedSchema(doc, value, depth + 1);
  }
  if (out.type === 'object' && out.additionalProperties === undefined) out.additionalProperties = false;
  return out;
}

function mediaOf(response: Json): [string, Json][] {
  return Object.entries((response.content ?? {}) as Record<string, Json>);
}

function examplesOf(media: Json): unknown[] {
  if ('example' in media) return [media.example];
  return Object.values((media.examples ?? {}) as Record<string, { value: unknown }>).map((e) => e.value);
}

const ajv = new Ajv2020({ strict: false, allErrors: true });
addFormats.default(ajv);
const validators = new Map<string, ValidateFunction>();

function validatorFor(
  doc: Json,
  operation: Operation,
  status: number,
): { mediaType: string; validate: ValidateFunction } {
  const response = responsesOf(doc, operation)[String(status)];
  expect(response, `${operation} documents ${status}`).toBeDefined();
  const [[mediaType, media]] = mediaOf(response!) as [[string, Json]];
  const key = `${operation} ${status}`;
  let validate = validators.get(key);
  if (!validate) {
    validate = ajv.compile(closedSchema(doc, media.schema) as Json);
    validators.set(key, validate);
  }
  return { mediaType, validate };
}

/** The problem body the code builds for `code` (docs/api.md), before any serializer touches it. */
function problem(res: LightMyRequestResponse, code: ErrorCode, errors?: unknown[]): Json {
  return {
    ok: false,
    type: `${BASE_URL}/problems/${code}`,
    title: HTTP_ERRORS[code].title,
    status: HTTP_ERRORS[code].status,
    detail: expect.stringMatching(/\S/),
    code,
    requestId: res.headers['x-request-id'],
    ...(errors ? { errors } : {}),
  };
}

interface Case {
  label: string;
  operation: Operation;
  /** The app to ask; the suite's main app when absent. */
  app?: () => Promise<App>;
  request: () => Promise<InjectOptions> | InjectOptions;
  status: number;
  /** The exact body the contract asks for (an unserialized expectation), given the response. */
  body: (res: LightMyRequestResponse) => Json;
  /** What must (or must not) be in the database afterwards. */
  stored?: (res: LightMyRequestResponse) => Promise<void>;
}

describeEachBackend('OpenAPI conformance', (backend) => {
  const worlds: TestWorld[] = [];
  let world: TestWorld;
  let seeded: Seeded;
  let doc: Json;
  /** Payloads as handlers and error handlers sent them, before serialization, by request id. */
  const sent = new Map<string, unknown>();
  const covered = new Map<Operation, Set<number>>(OPERATIONS.map((op) => [op, new Set<number>()]));
  const headersSeen = new Map<Operation, Set<string>>(OPERATIONS.map((op) => [op, new Set<string>()]));

  async function newWorld(env: Record<string, string> = {}): Promise<TestWorld> {
    const made = await createWorld(backend, { env: { SCAN_MAX_BYTES: String(SCAN_MAX_BYTES), ...env } });
    worlds.push(made);
    const app = await made.app();
    app.addHook('preSerialization', async (request, _reply, payload) => {
      sent.set(request.id, structuredClone(payload));
      return payload;
    });
    return made;
  }

  beforeEach(async () => {
    world = await newWorld();
    seeded = await world.seed();
    doc = (await (await world.app()).inject({ method: 'GET', url: '/openapi.json' })).json<Json>();
  });
  afterEach(async () => {
    for (const made of worlds.splice(0)) await made.close();
    sent.clear();
  });

  const leadsOf = (sourceId: string, w = world) =>
    w.store.db.selectFrom('leads').select('id').where('source_id', '=', sourceId).execute();
  const scansOf = (workspaceId: string, w = world) =>
    w.store.db.selectFrom('scans').select(['id', 'room_count']).where('workspace_id', '=', workspaceId).execute();

  const intake = (token: string, payload: unknown, headers: Record<string, string> = {}): InjectOptions => ({
    method: 'POST',
    url: `/api/intake/${token}`,
    headers: { 'content-type': 'application/json', ...headers },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
  });
  const upload = (
    payload: string,
    headers: Record<string, string> = { 'x-scan-key': seeded.uploadKey },
  ): InjectOptions => ({
    method: 'POST',
    url: '/api/scan/upload',
    headers: { 'content-type': 'application/json', ...headers },
    payload,
  });
  const rooms = (n: number) => JSON.stringify({ rooms: Array.from({ length: n }, (_, i) => ({ name: `Room ${i}` })) });

  /** Sends one case and checks it against the published document, the contract body and the unserialized payload. */
  async function check(c: Case): Promise<void> {
    const app = await (c.app ?? (() => world.app()))();
    const res = await app.inject(await c.request());
    const where = `${c.operation} — ${c.label}`;
    expect(res.statusCode, `${where}: ${res.body}`).toBe(c.status);
    const { mediaType, validate } = validatorFor(doc, c.operation, c.status);
    const contentType = c.status < 300 ? 'application/json; charset=utf-8' : 'application/problem+json; charset=utf-8';
    expect(res.headers['content-type'], where).toBe(contentType);
    expect(mediaType, `${where}: documented media type`).toBe(contentType.split(';')[0]);
    const body = res.json<Json>();
    expect(validate(body), `${where}: ${ajv.errorsText(validate.errors)}`).toBe(true);
    expect(body, where).toStrictEqual(c.body(res));
    // Nothing the code sent was dropped or coerced by the response serializer.
    const requestId = String(res.headers['x-request-id']);
    expect(sent.has(requestId), `${where}: payload captured before serialization`).toBe(true);
    expect(body, `${where}: serialized body equals what the code sent`).toStrictEqual(sent.get(requestId));
    // Every response header a client relies on is documented for this status (names are case-insensitive).
    expect(res.headers['x-request-id'], `${where}: x-request-id`).toBeDefined();
    const documentedHeaders = Object.keys((responsesOf(doc, c.operation)[String(c.status)]?.headers ?? {}) as Json).map(
      (h) => h.toLowerCase(),
    );
    for (const name of TRACKED_HEADERS) {
      if (res.headers[name] === undefined) continue;
      expect(documentedHeaders, `${where}: header ${name} is documented`).toContain(name);
      headersSeen.get(c.operation)!.add(name);
    }
    await c.stored?.(res);
    covered.get(c.operation)!.add(c.status);
  }

  function expectEveryDocumentedStatusProvoked(operations: Operation[]): void {
    for (const operation of operations) {
      const documented = Object.keys(responsesOf(doc, operation)).map(Number).sort();
      expect([...covered.get(operation)!].sort(), `${operation}: documented statuses provoked`).toEqual(documented);
      const documentedHeaders = new Set(
        Object.values(responsesOf(doc, operation)).flatMap((response) =>
          Object.keys((response.headers ?? {}) as Json).map((h) => h.toLowerCase()),
        ),
      );
      const tracked = TRACKED_HEADERS.filter((name) => documentedHeaders.has(name)).sort();
      expect([...headersSeen.get(operation)!].sort(), `${operation}: documented headers seen`).toEqual(tracked);
    }
  }

  it('publishes an OpenAPI 3.1 document: contract statuses documented with schema and example, every $ref resolves', () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    expect(doc.info).toMatchObject({ title: expect.any(String), version: expect.any(String) });
    for (const operation of OPERATIONS) {
      const responses = responsesOf(doc, operation);
      expect(Object.keys(responses), operation).toEqual(
        expect.arrayContaining(CONTRACT_STATUSES[operation].map(String)),
      );
      for (const [status, response] of Object.entries(responses)) {
        const where = `${operation} ${status}`;
        expect(response.description, where).toEqual(expect.stringMatching(/\S/));
        const media = mediaOf(response);
        expect(
          media.map(([type]) => type),
          where,
        ).toEqual([Number(status) < 300 ? 'application/json' : 'application/problem+json']);
        const [, content] = media[0]!;
        expect(content.schema, where).toBeDefined();
        const examples = examplesOf(content);
        expect(examples.length, `${where} has an example`).toBeGreaterThan(0);
        const { validate } = validatorFor(doc, operation, Number(status));
        for (const example of examples) {
          expect(validate(example), `${where} example: ${ajv.errorsText(validate.errors)}`).toBe(true);
          if (Number(status) >= 400) expect((example as Json).status, `${where} example status`).toBe(Number(status));
        }
      }
    }
    // "Try it out" posts to the origin the reference was opened from, and fills no fixed Idempotency-Key.
    expect(doc.servers).toEqual([expect.objectContaining({ url: '/' })]);
    for (const operation of ['POST /api/intake/{token}', 'POST /api/scan/upload'] as const) {
      const parameters = operationOf(doc, operation).parameters as Json[];
      const key = parameters.find((p) => p.name === 'idempotency-key');
      expect(key, operation).toBeDefined();
      expect(JSON.stringify(key), `${operation}: no example key to fill in`).not.toMatch(/"examples?"/);
    }
    // Intake fields take numbers and booleans as text; scans take any content type.
    const leadSchema = (
      (operationOf(doc, 'POST /api/intake/{token}').requestBody as Json).content as Record<string, Json>
    )['application/json']!.schema as Json;
    expect(JSON.stringify((leadSchema.properties as Json).phone)).toContain('"number"');
    expect(Object.keys((operationOf(doc, 'POST /api/scan/upload').requestBody as Json).content as Json)).toEqual([
      'application/json',
      '*/*',
    ]);
    const refs = allRefs(doc);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(resolvePointer(doc, ref), `$ref ${ref} resolves`).toBeDefined();
  });

  it('POST /api/intake/{token}: every documented answer matches its schema and carries every property sent', async () => {
    const op: Operation = 'POST /api/intake/{token}';
    const token = seeded.source.token;
    const ok = () => ({ ok: true, id: expect.stringMatching(/^lead_[0-9a-f]{32}$/) });
    const closed = await world.seed('Closed');
    await setSourceActive({ ctx: world.ctx, input: { sourceId: closed.source.id, active: false } });
    const guarded = await world.seed('Guarded');
    await configureBotCheck({
      ctx: world.ctx,
      input: { sourceId: guarded.source.id, settings: { provider: 'turnstile', secret: 'x-secret' } },
    });
    const heldBody = { name: 'Held elsewhere' };
    await claimKey(world.ctx, {
      scope: sourceScope(seeded.source.id),
      key: 'held',
      requestHash: leadPayloadHash(heldBody),
    });
    const limited = await newWorld({ INTAKE_RATE_LIMIT: '1' });
    const limitedSeed = await limited.seed();
    await check({
      label: 'a lead, with the rate limit on',
      operation: op,
      app: () => limited.app(),
      request: () => intake(limitedSeed.source.token, { name: 'First' }),
      status: 200,
      body: (r) => {
        expect(r.headers.ratelimit).toBeDefined();
        return ok();
      },
    });
    const nothingStored =
      (sourceId = seeded.source.id) =>
      async () =>
        expect(await leadsOf(sourceId)).toEqual([]);

    const cases: Case[] = [
      {
        label: 'a lead',
        operation: op,
        request: () => intake(token, { name: 'Ada', email: 'ada@example.com', extraField: 'kept' }),
        status: 200,
        body: ok,
        stored: async (res) => expect(await leadsOf(seeded.source.id)).toEqual([{ id: res.json().id }]),
      },
      {
        label: 'a honeypot catch',
        operation: op,
        request: () => intake(guarded.source.token, { name: 'Bot', website: 'x' }),
        status: 200,
        body: ok,
        stored: async (res) => {
          expect(await leadsOf(guarded.source.id)).toEqual([]);
          const quarantined = await world.store.db
            .selectFrom('quarantine')
            .select('id')
            .where('source_id', '=', guarded.source.id)
            .execute();
          expect(quarantined).toHaveLength(1);
          expect(quarantined[0]!.id).not.toBe(res.json().id);
        },
      },
      {
        label: 'a replayed lead',
        operation: op,
        request: async () => {
          expect(
            (await (await world.app()).inject(intake(token, { name: 'Twice sent' }, { 'idempotency-key': 'replay' })))
              .statusCode,
          ).toBe(200);
          return intake(token, { name: 'Twice sent' }, { 'idempotency-key': 'replay' });
        },
        status: 200,
        body: (r) => {
          expect(r.headers['idempotent-replayed']).toBe('true');
          return ok();
        },
      },
      {
        label: 'an unsupported Content-Encoding',
        operation: op,
        request: () => intake(token, { name: 'A' }, { 'content-encoding': 'compress' }),
        status: 415,
        body: (r) => {
          expect(r.headers['accept-encoding']).toBe('gzip, deflate, br');
          return problem(r, 'unsupported_encoding');
        },
      },
      {
        label: 'malformed token',
        operation: op,
        request: () => intake('not-a-uuid', { name: 'A' }),
        status: 400,
        body: (r) => problem(r, 'malformed_token'),
      },
      {
        label: 'bad JSON',
        operation: op,
        request: () => intake(token, '{"name":'),
        status: 400,
        body: (r) => problem(r, 'unreadable_body'),
      },
      {
        label: 'no contact',
        operation: op,
        request: () => intake(token, { notes: 'hi' }),
        status: 400,
        body: (r) => problem(r, 'missing_contact'),
      },
      {
        label: 'too-long name and an object as phone',
        operation: op,
        request: () => intake(token, { name: 'n'.repeat(121), phone: { a: 1 } }),
        status: 400,
        body: (r) =>
          problem(r, 'invalid_fields', [
            { field: 'name', code: 'too_long', max: 120, message: expect.stringMatching(/\S/) },
            { field: 'phone', code: 'invalid_type', message: expect.stringMatching(/\S/) },
          ]),
      },
      {
        label: 'bot check on, no token',
        operation: op,
        request: () => intake(guarded.source.token, { name: 'Ada' }),
        status: 400,
        body: (r) => problem(r, 'bot_check_failed'),
        stored: nothingStored(guarded.source.id),
      },
      {
        label: 'an Idempotency-Key that is too long',
        operation: op,
        request: () => intake(token, { name: 'Ada' }, { 'idempotency-key': 'k'.repeat(256) }),
        status: 400,
        body: (r) => problem(r, 'invalid_idempotency_key'),
      },
      {
        label: 'unknown token',
        operation: op,
        request: () => intake(crypto.randomUUID(), { name: 'A' }),
        status: 404,
        body: (r) => problem(r, 'intake_unavailable'),
      },
      {
        label: 'deactivated source',
        operation: op,
        request: () => intake(closed.source.token, { name: 'A' }),
        status: 404,
        body: (r) => problem(r, 'intake_unavailable'),
        stored: nothingStored(closed.source.id),
      },
      {
        label: 'GET instead of POST',
        operation: op,
        request: () => ({ method: 'GET', url: `/api/intake/${token}` }),
        status: 405,
        body: (r) => problem(r, 'method_not_allowed'),
      },
      {
        label: 'a key still in flight on another instance',
        operation: op,
        request: () => intake(token, heldBody, { 'idempotency-key': 'held' }),
        status: 409,
        body: (r) => problem(r, 'idempotency_in_flight'),
      },
      {
        label: 'over 64 KiB',
        operation: op,
        request: () => intake(token, { name: 'Ada', notes: 'x'.repeat(64 * 1024) }),
        status: 413,
        body: (r) => problem(r, 'body_too_large'),
      },
      {
        label: 'a key reused with another body',
        operation: op,
        request: async () => {
          const first = await (
            await world.app()
          ).inject(intake(token, { name: 'Once' }, { 'idempotency-key': 'reused' }));
          expect(first.statusCode).toBe(200);
          return intake(token, { name: 'Twice' }, { 'idempotency-key': 'reused' });
        },
        status: 422,
        body: (r) => problem(r, 'idempotency_key_reused'),
      },
      {
        label: 'over the rate limit',
        operation: op,
        app: () => limited.app(),
        request: () => intake(limitedSeed.source.token, { name: 'Second' }),
        status: 429,
        body: (r) => {
          expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
          return problem(r, 'rate_limited');
        },
        stored: async () => expect(await leadsOf(limitedSeed.source.id, limited)).toHaveLength(1),
      },
    ];
    for (const c of cases) await check(c);
    // Only the three successful submissions (the first lead, the replayed one, the first "reused" one) are leads.
    expect(await leadsOf(seeded.source.id)).toHaveLength(3);

    const outage = await newWorld();
    const outageSeed = await outage.seed();
    await outage.app();
    await Promise.all([outage.store.writer.close(), outage.store.hot.close()]);
    await check({
      label: 'the database refuses writes',
      operation: op,
      app: () => outage.app(),
      request: () => intake(outageSeed.source.token, { name: 'Ada' }),
      status: 503,
      body: (r) => {
        expect(r.headers['retry-after']).toBeDefined();
        return problem(r, 'service_unavailable');
      },
      stored: async () => expect(await leadsOf(outageSeed.source.id, outage)).toEqual([]),
    });
    expectEveryDocumentedStatusProvoked([op]);
  }, 120_000); // several worlds, each a database and an app

  it('POST /api/scan/upload: every documented answer matches its schema and carries every property sent', async () => {
    const op: Operation = 'POST /api/scan/upload';
    const ws = seeded.workspaceId;
    const noScan = async () => expect(await scansOf(ws)).toEqual([]);
    const held = rooms(1);
    await claimKey(world.ctx, {
      scope: workspaceScope(ws),
      key: 'held',
      requestHash: requestHash({ contentType: 'application/json', body: Buffer.from(held) }),
    });
    const limited = await newWorld({ SCAN_RATE_LIMIT: '1' });
    const limitedSeed = await limited.seed();
    await check({
      label: 'one room, with the rate limit on',
      operation: op,
      app: () => limited.app(),
      request: () => upload(rooms(1), { 'x-scan-key': limitedSeed.uploadKey }),
      status: 200,
      body: (r) => {
        expect(r.headers.ratelimit).toBeDefined();
        return { ok: true, count: 1 };
      },
    });

    const cases: Case[] = [
      {
        label: 'rooms: [] (connection test)',
        operation: op,
        request: () => upload('{"rooms":[]}'),
        status: 200,
        body: () => ({ ok: true, count: 0 }),
        stored: noScan,
      },
      {
        label: 'missing key',
        operation: op,
        request: () => upload(rooms(1), {}),
        status: 401,
        body: (r) => problem(r, 'missing_scan_key'),
        stored: noScan,
      },
      {
        label: 'short key',
        operation: op,
        request: () => upload(rooms(1), { 'x-scan-key': 'lsk_short' }),
        status: 401,
        body: (r) => problem(r, 'invalid_scan_key'),
      },
      {
        label: 'wrong key',
        operation: op,
        request: () => upload(rooms(1), { 'x-scan-key': `lsk_${crypto.randomBytes(32).toString('base64url')}` }),
        status: 401,
        body: (r) => problem(r, 'invalid_scan_key'),
        stored: noScan,
      },
      {
        label: 'bad JSON',
        operation: op,
        request: () => upload('{"rooms":['),
        status: 400,
        body: (r) => problem(r, 'unreadable_body'),
      },
      {
        label: 'no rooms array',
        operation: op,
        request: () => upload('{"room":[]}'),
        status: 400,
        body: (r) => problem(r, 'invalid_rooms'),
      },
      {
        label: 'a room that is not an object',
        operation: op,
        request: () => upload('{"rooms":[{},3]}'),
        status: 400,
        body: (r) => problem(r, 'invalid_rooms'),
      },
      {
        label: '501 rooms',
        operation: op,
        request: () => upload(rooms(501)),
        status: 400,
        body: (r) => problem(r, 'too_many_rooms'),
        stored: noScan,
      },
      {
        label: 'a key still in flight on another instance',
        operation: op,
        request: () => upload(held, { 'x-scan-key': seeded.uploadKey, 'idempotency-key': 'held' }),
        status: 409,
        body: (r) => problem(r, 'idempotency_in_flight'),
      },
      {
        label: 'over SCAN_MAX_BYTES',
        operation: op,
        request: () => upload(JSON.stringify({ rooms: [{ name: 'x'.repeat(SCAN_MAX_BYTES) }] })),
        status: 413,
        body: (r) => problem(r, 'body_too_large'),
        stored: noScan,
      },
      {
        label: 'two rooms',
        operation: op,
        request: () => upload(rooms(2), { 'x-scan-key': seeded.uploadKey, 'idempotency-key': 'reused' }),
        status: 200,
        body: () => ({ ok: true, count: 2 }),
        stored: async () => expect((await scansOf(ws)).map((s) => s.room_count)).toEqual([2]),
      },
      {
        label: 'two rooms again (a replay)',
        operation: op,
        request: () => upload(rooms(2), { 'x-scan-key': seeded.uploadKey, 'idempotency-key': 'reused' }),
        status: 200,
        body: (r) => {
          expect(r.headers['idempotent-replayed']).toBe('true');
          return { ok: true, count: 2 };
        },
        stored: async () => expect((await scansOf(ws)).map((s) => s.room_count)).toEqual([2]),
      },
      {
        label: 'an unsupported Content-Encoding',
        operation: op,
        request: () => upload(rooms(1), { 'x-scan-key': seeded.uploadKey, 'content-encoding': 'zstd' }),
        status: 415,
        body: (r) => {
          expect(r.headers['accept-encoding']).toBe('gzip, deflate, br');
          return problem(r, 'unsupported_encoding');
        },
      },
      {
        label: 'a key reused with another body',
        operation: op,
        request: () => upload(rooms(3), { 'x-scan-key': seeded.uploadKey, 'idempotency-key': 'reused' }),
        status: 422,
        body: (r) => problem(r, 'idempotency_key_reused'),
        stored: async () => expect((await scansOf(ws)).map((s) => s.room_count)).toEqual([2]),
      },
      {
        label: 'over the rate limit',
        operation: op,
        app: () => limited.app(),
        request: () => upload(rooms(1), { 'x-scan-key': limitedSeed.uploadKey }),
        status: 429,
        body: (r) => {
          expect(Number(r.headers['retry-after'])).toBeGreaterThan(0);
          return problem(r, 'rate_limited');
        },
        stored: async () => expect(await scansOf(limitedSeed.workspaceId, limited)).toHaveLength(1),
      },
    ];
    for (const c of cases) await check(c);

    const outage = await newWorld();
    const outageSeed = await outage.seed();
    await outage.app();
    await Promise.all([outage.store.writer.close(), outage.store.hot.close()]);
    await check({
      label: 'the database refuses writes',
      operation: op,
      app: () => outage.app(),
      request: () => upload(rooms(1), { 'x-scan-key': outageSeed.uploadKey }),
      status: 503,
      body: (r) => problem(r, 'service_unavailable'),
      stored: async () => expect(await scansOf(outageSeed.workspaceId, outage)).toEqual([]),
    });
    expectEveryDocumentedStatusProvoked([op]);
  }, 120_000); // several worlds, each a database and an app

  it('GET /healthz and GET /readyz: every documented answer matches its schema', async () => {
    const healthz: Case = {
      label: 'up',
      operation: 'GET /healthz',
      request: () => ({ method: 'GET', url: '/healthz' }),
      status: 200,
      body: () => ({ ok: true, database: 'writable' }),
    };
    await check(healthz);
    await check({
      label: 'ready',
      operation: 'GET /readyz',
      request: () => ({ method: 'GET', url: '/readyz' }),
      status: 200,
      body: () => ({ ok: true }),
    });
    await world.store.db.destroy();
    await check({
      label: 'the database is gone',
      operation: 'GET /readyz',
      request: () => ({ method: 'GET', url: '/readyz' }),
      status: 503,
      body: (r) => {
        expect(r.headers['retry-after']).toBe('5');
        return problem(r, 'service_unavailable');
      },
    });
    // The answer above is kept for a second (docs/operations.md, "Health"); the next probe finds no database.
    const app = await world.app();
    await expect
      .poll(async () => (await app.inject({ method: 'GET', url: '/healthz' })).statusCode, { timeout: 5000 })
      .toBe(503);
    await check({
      label: 'up without a database: no writes',
      operation: 'GET /healthz',
      request: () => ({ method: 'GET', url: '/healthz' }),
      status: 503,
      body: (r) => {
        expect(r.headers['retry-after']).toBe('5');
        return problem(r, 'service_unavailable');
      },
    });
    // The documented 4xx of a probe: a URL over 8 KiB, refused before the route.
    for (const operation of ['GET /healthz', 'GET /readyz'] as const) {
      await check({
        label: 'a URL over 8 KiB',
        operation,
        request: () => ({ method: 'GET', url: `${operation.slice(4)}?pad=${'x'.repeat(9000)}` }),
        status: 414,
        body: (r) => problem(r, 'uri_too_long'),
      });
    }
    expectEveryDocumentedStatusProvoked(['GET /healthz', 'GET /readyz']);
  });
});
