import { afterEach, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { IDEMPOTENCY_TTL_MS, requestHash } from '../../src/domain/idempotency/idempotency-key.js';
import { leadPayloadHash } from '../../src/domain/intake/submit-lead-once.js';
import { createSource } from '../../src/domain/sources/create-source.js';
import { openDatabase } from '../../src/storage/database.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { multipartOf } from './intake-helpers.js';
import { TestClock } from '../helpers/clock.js';
import { createDomainContext } from '../../src/runtime.js';
import { inWorkspace } from '../../src/domain/context.js';

describeEachBackend('Idempotency-Key', (backend) => {
  let world: TestWorld;
  let clock: TestClock;
  let seeded: Seeded;

  afterEach(async () => {
    await world?.close();
  });

  async function setUp() {
    clock = new TestClock(Date.parse('2025-05-01T09:00:00.000Z'));
    world = await createWorld(backend, { clock });
    seeded = await world.seed();
    return world.app();
  }

  const intake = async (
    key: string | undefined,
    payload: object | string,
    token = seeded.source.token,
    contentType = 'application/json',
  ) =>
    (await world.app()).inject({
      method: 'POST',
      url: `/api/intake/${token}`,
      headers: { 'content-type': contentType, ...(key === undefined ? {} : { 'idempotency-key': key }) },
      payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    });
  const upload = async (key: string | undefined, payload: string, uploadKey = seeded.uploadKey) =>
    (await world.app()).inject({
      method: 'POST',
      url: '/api/scan/upload',
      headers: {
        'content-type': 'application/json',
        'x-scan-key': uploadKey,
        ...(key === undefined ? {} : { 'idempotency-key': key }),
      },
      payload,
    });
  const leads = () =>
    world.store.db.selectFrom('leads').select(['id', 'source_id', 'idempotency_key', 'name']).orderBy('id').execute();
  const scans = () =>
    world.store.db.selectFrom('scans').select(['id', 'workspace_id', 'idempotency_key']).orderBy('id').execute();

  // ---- intake ----

  it('intake: a sequential repeat returns the first answer and stores nothing new', async () => {
    await setUp();
    const first = await intake('order-1', { name: 'Ada' });
    expect(first.statusCode).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const second = await intake('order-1', { name: 'Ada' });
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect(second.headers['idempotent-replayed']).toBe('true');
    const stored = await leads();
    expect(stored).toEqual([
      { id: first.json().id, source_id: seeded.source.id, idempotency_key: 'order-1', name: 'Ada' },
    ]);
    const keys = await world.store.db.selectFrom('idempotency_keys').selectAll().execute();
    // The record keeps the domain result; the answer is made from it each time.
    expect(keys).toEqual([
      expect.objectContaining({
        scope: `src:${seeded.source.id}`,
        key: 'order-1',
        state: 'done',
        response_status: null,
      }),
    ]);
    expect(JSON.parse(keys[0]!.response_body!)).toEqual({ kind: 'lead', leadId: first.json().id });
  });

  /** A done record as the previous version wrote it: the HTTP answer itself (they live 24 hours across an upgrade). */
  async function seedOldRecord(scope: string, key: string, hash: string, answer: object) {
    const now = clock.now();
    await world.store.writer.write((trx) =>
      trx
        .insertInto('idempotency_keys')
        .values({
          scope,
          key,
          request_hash: hash,
          state: 'done',
          response_status: 200,
          response_body: JSON.stringify(answer),
          created_at: now.toISOString(),
          expires_at: new Date(now.getTime() + IDEMPOTENCY_TTL_MS).toISOString(),
        })
        .execute(),
    );
  }

  it('intake: a record written by the previous version (an HTTP answer) replays after the upgrade', async () => {
    await setUp();
    const id = 'lead_0193a4c2e8f07c3b9a1d2e4f5a6b7c8d';
    await seedOldRecord(`src:${seeded.source.id}`, 'old-1', leadPayloadHash({ name: 'Ada' }), { ok: true, id });
    const replay = await intake('old-1', { name: 'Ada' });
    expect(replay.statusCode).toBe(200);
    expect(replay.body).toBe(`{"ok":true,"id":"${id}"}`);
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await leads()).toHaveLength(0);
    // Still compared with its payload: a different one is refused as before.
    expect((await intake('old-1', { name: 'Bea' })).statusCode).toBe(422);
  });

  it('scan: a record written by the previous version (an HTTP answer) replays after the upgrade', async () => {
    await setUp();
    const body = '{"rooms":[{"name":"Kitchen"},{"name":"Hall"}]}';
    const hash = requestHash({ contentType: 'application/json', body: Buffer.from(body) });
    await seedOldRecord(`ws:${seeded.workspaceId}`, 'old-scan', hash, { ok: true, count: 2 });
    const replay = await upload('old-scan', body);
    expect(replay.statusCode).toBe(200);
    expect(replay.body).toBe('{"ok":true,"count":2}');
    expect(replay.headers['idempotent-replayed']).toBe('true');
    expect(await scans()).toHaveLength(0);
  });

  it('intake: a retry with a fresh single-use bot-check token is the same submission', async () => {
    await setUp();
    const first = await intake('retry-1', { name: 'Ada', botCheckToken: 'token-from-first-widget-run' });
    expect(first.statusCode).toBe(200);
    const retry = await intake('retry-1', { name: 'Ada', botCheckToken: 'token-from-re-armed-widget' });
    expect(retry.statusCode).toBe(200);
    expect(retry.json()).toEqual(first.json());
    expect(retry.headers['idempotent-replayed']).toBe('true');
    expect(await leads()).toHaveLength(1);
    // Any real field changed is still a different payload.
    const changed = await intake('retry-1', { name: 'Ada B', botCheckToken: 'token-from-re-armed-widget' });
    expect(changed.statusCode).toBe(422);
    expect(changed.json().code).toBe('idempotency_key_reused');
  });

  it('intake: concurrent repeats store one lead and all answer with its id', async () => {
    await setUp();
    const answers = await Promise.all(
      Array.from({ length: 12 }, () => intake('double-click', { name: 'Ada', phone: '555' })),
    );
    expect(answers.map((a) => a.statusCode)).toEqual(Array(12).fill(200));
    const ids = new Set(answers.map((a) => a.json().id as string));
    expect(ids.size).toBe(1);
    const stored = await leads();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.id).toBe([...ids][0]);
    expect(answers.filter((a) => a.headers['idempotent-replayed'] === 'true')).toHaveLength(11);
  });

  it('intake: concurrent repeats on two instances store one lead; every answer agrees or says in flight', async () => {
    const first = await setUp();
    const store = openDatabase(world.config.database);
    const second = await buildApp(
      createDomainContext({ config: world.config, store, appSecret: world.appSecret, clock }),
      {
        logger: false,
      },
    );
    try {
      const post = (i: number) =>
        (i % 2 === 0 ? first : second).inject({
          method: 'POST',
          url: `/api/intake/${seeded.source.token}`,
          headers: { 'content-type': 'application/json', 'idempotency-key': 'two-instances' },
          payload: JSON.stringify({ name: 'Ada' }),
        });
      const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => post(i)));
      const stored = await leads();
      expect(stored).toHaveLength(1);
      for (const answer of answers) {
        if (answer.statusCode === 200) {
          expect(answer.json().id).toBe(stored[0]!.id);
        } else {
          expect(answer.statusCode).toBe(409);
          expect(answer.json()).toMatchObject({ code: 'idempotency_in_flight' });
          expect(answer.headers['retry-after']).toBe('1');
        }
      }
      expect(answers.some((a) => a.statusCode === 200)).toBe(true);
      // Once the first has finished, a repeat on either instance gets its answer.
      for (const app of [first, second]) {
        const later = await app.inject({
          method: 'POST',
          url: `/api/intake/${seeded.source.token}`,
          headers: { 'content-type': 'application/json', 'idempotency-key': 'two-instances' },
          payload: JSON.stringify({ name: 'Ada' }),
        });
        expect(later.json()).toEqual({ ok: true, id: stored[0]!.id });
      }
    } finally {
      await second.close();
      await store.close();
    }
  });

  it('intake: the same key with a changed payload is 422 idempotency_key_reused', async () => {
    await setUp();
    const first = await intake('order-1', { name: 'Ada' });
    const changed = await intake('order-1', { name: 'Ada Lovelace' });
    expect(changed.statusCode).toBe(422);
    expect(changed.headers['content-type']).toMatch(/^application\/problem\+json/);
    expect(changed.json()).toMatchObject({ code: 'idempotency_key_reused', status: 422 });
    expect(changed.headers['access-control-allow-origin']).toBe('*');
    expect((await leads()).map((l) => l.id)).toEqual([first.json().id]);
  });

  it('intake: a key is kept 24 hours, then the same request makes a new lead', async () => {
    await setUp();
    const first = await intake('order-1', { name: 'Ada' });
    clock.advance(IDEMPOTENCY_TTL_MS - 1000);
    expect((await intake('order-1', { name: 'Ada' })).json()).toEqual(first.json());
    clock.advance(2000);
    const after = await intake('order-1', { name: 'Ada' });
    expect(after.statusCode).toBe(200);
    expect(after.headers['idempotent-replayed']).toBeUndefined();
    expect(after.json().id).not.toBe(first.json().id);
    expect(await leads()).toHaveLength(2);
  });

  it('intake: keys are scoped to the source: the same key on two sources makes two leads', async () => {
    await setUp();
    const other = await createSource({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { pipelineId: seeded.pipelineId, name: 'Other' },
    });
    const a = await intake('shared-key', { name: 'Ada' });
    const b = await intake('shared-key', { name: 'Ada' }, other.token);
    expect(a.statusCode).toBe(200);
    expect(b.statusCode).toBe(200);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect(a.json().id).not.toBe(b.json().id);
    expect((await leads()).map((l) => l.source_id).sort()).toEqual([seeded.source.id, other.id].sort());
  });

  it('intake: a bad key is 400 invalid_idempotency_key and nothing is stored', async () => {
    await setUp();
    for (const bad of ['x'.repeat(256), 'tab\there']) {
      const response = await intake(bad, { name: 'Ada' });
      expect(response.statusCode).toBe(400);
      expect(response.json()).toMatchObject({ code: 'invalid_idempotency_key' });
    }
    expect(await leads()).toHaveLength(0);
    expect(await world.store.db.selectFrom('idempotency_keys').selectAll().execute()).toHaveLength(0);
  });

  it('intake: a refused request frees its key, so the corrected retry succeeds', async () => {
    await setUp();
    const refused = await intake('form-7', { address: 'No contact here' });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ code: 'missing_contact' });
    const fixed = await intake('form-7', { name: 'Ada', address: 'No contact here' });
    expect(fixed.statusCode).toBe(200);
    expect(await leads()).toHaveLength(1);
  });

  it('intake: a honeypot catch replays the same fake id and quarantines once', async () => {
    await setUp();
    const first = await intake('bot-1', { name: 'Bot', website: 'http://spam.example' });
    const second = await intake('bot-1', { name: 'Bot', website: 'http://spam.example' });
    expect(first.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect(first.json().id).toMatch(/^lead_[0-9a-f]{32}$/);
    expect(await leads()).toHaveLength(0);
    const quarantined = await world.store.db.selectFrom('quarantine').select('id').execute();
    expect(quarantined).toHaveLength(1);
  });

  it('intake: a multipart repeat with a new boundary is the same payload', async () => {
    await setUp();
    const form = new FormData();
    form.set('name', 'Ada');
    form.set('email', 'ada@example.com');
    const one = await multipartOf(form);
    const two = await multipartOf(form);
    expect(one.contentType).not.toBe(two.contentType);
    const first = await intake('mp-1', one.payload.toString('latin1'), undefined, one.contentType);
    expect(first.statusCode).toBe(200);
    const app = await world.app();
    const second = await app.inject({
      method: 'POST',
      url: `/api/intake/${seeded.source.token}`,
      headers: { 'content-type': two.contentType, 'idempotency-key': 'mp-1' },
      payload: two.payload,
    });
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    expect(await leads()).toHaveLength(1);
  });

  // ---- scan upload ----

  it('scan: a sequential repeat returns the same count and stores no second scan', async () => {
    await setUp();
    const body = '{"rooms":[{"name":"Kitchen"},{"name":"Hall"}]}';
    const first = await upload('scan-1', body);
    expect(first.statusCode).toBe(200);
    expect(first.json()).toEqual({ ok: true, count: 2 });
    const second = await upload('scan-1', body);
    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual({ ok: true, count: 2 });
    expect(second.headers['idempotent-replayed']).toBe('true');
    const stored = await scans();
    expect(stored).toHaveLength(1);
    expect(stored[0]!.idempotency_key).toBe('scan-1');
    const [record] = await world.store.db.selectFrom('idempotency_keys').selectAll().execute();
    expect(record).toMatchObject({ state: 'done', response_status: null });
    expect(JSON.parse(record!.response_body!)).toEqual({ kind: 'scan', scanId: stored[0]!.id, count: 2 });
  });

  it('scan: concurrent repeats store one scan and all answer alike', async () => {
    await setUp();
    const body = '{"rooms":[{"name":"Kitchen"}]}';
    const answers = await Promise.all(Array.from({ length: 8 }, () => upload('scan-2', body)));
    expect(answers.map((a) => a.statusCode)).toEqual(Array(8).fill(200));
    expect(new Set(answers.map((a) => a.body))).toEqual(new Set(['{"ok":true,"count":1}']));
    expect(await scans()).toHaveLength(1);
  });

  it('scan: the same key with different bytes is 422; the stored scan is untouched', async () => {
    await setUp();
    await upload('scan-3', '{"rooms":[{"name":"Kitchen"}]}');
    const changed = await upload('scan-3', '{"rooms":[{"name":"Kitchen"}] }');
    expect(changed.statusCode).toBe(422);
    expect(changed.json()).toMatchObject({ code: 'idempotency_key_reused' });
    const raw = await world.store.db.selectFrom('scans').select('raw').execute();
    expect(raw.map((r) => Buffer.from(r.raw).toString())).toEqual(['{"rooms":[{"name":"Kitchen"}]}']);
  });

  it('scan: a key expires after 24 hours', async () => {
    await setUp();
    const body = '{"rooms":[{"name":"Kitchen"}]}';
    await upload('scan-4', body);
    clock.advance(IDEMPOTENCY_TTL_MS + 1);
    const again = await upload('scan-4', body);
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(await scans()).toHaveLength(2);
  });

  it('scan: keys are scoped to the workspace', async () => {
    await setUp();
    const other = await world.seed('Other');
    const body = '{"rooms":[{"name":"Kitchen"}]}';
    expect((await upload('shared', body)).statusCode).toBe(200);
    const b = await upload('shared', body, other.uploadKey);
    expect(b.statusCode).toBe(200);
    expect(b.headers['idempotent-replayed']).toBeUndefined();
    expect((await scans()).map((s) => s.workspace_id).sort()).toEqual([seeded.workspaceId, other.workspaceId].sort());
  });
});
