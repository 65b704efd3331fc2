import crypto from 'node:crypto';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { authenticateUploadKey } from '../../src/domain/keys/authenticate-upload-key.js';
import { hashUploadKey } from '../../src/domain/secret-box.js';
import { regenerateUploadKey } from '../../src/domain/keys/regenerate-upload-key.js';
import { showUploadKey } from '../../src/domain/keys/show-upload-key.js';
import { listLeads } from '../../src/domain/leads/list-leads.js';
import { newId } from '../../src/domain/ids.js';
import { listQuarantine } from '../../src/domain/quarantine/list-quarantine.js';
import { listScans } from '../../src/domain/scans/list-scans.js';
import { readScanRaw, readScanRoom } from '../../src/domain/scans/read-scan-bytes.js';
import { configureBotCheck } from '../../src/domain/sources/configure-bot-check.js';
import { setSourceActive } from '../../src/domain/sources/set-source-active.js';
import { isStorageUnavailable } from '../../src/storage/storage-errors.js';
import type { LeadTable } from '../../src/storage/schema.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { inWorkspace } from '../../src/domain/context.js';

/**
 * Every table and the verbs over it, on each backend from one definition: what goes in comes back out the same,
 * constraints hold in the database (not in memory), and concurrent writes each land exactly once.
 */
describeEachBackend('storage round trips', (backend) => {
  let world: TestWorld;
  let seeded: Seeded;
  beforeAll(async () => {
    world = await createWorld(backend);
    seeded = await world.seed('Round Trip');
  });
  afterAll(async () => {
    await world.close();
  });

  const db = () => world.store.db;

  function leadRow(overrides: Partial<LeadTable> = {}): LeadTable {
    const row: LeadTable = {
      id: newId('lead'),
      workspace_id: seeded.workspaceId,
      pipeline_id: seeded.pipelineId,
      source_id: seeded.source.id,
      stage: 'inbox',
      name: 'Zoë Ångström 🏠',
      phone: '+44 20 7946 0958',
      email: 'zoe@example.com',
      address: '1 Rue de l’Église\nParis',
      notes: 'Line one\r\nLine two\ttabbed "quoted" \\ backslash',
      extra: JSON.stringify({ budget: '12,000', nested: '{"a":[1,2]}' }),
      received_at: new Date().toISOString(),
      client_ip: '203.0.113.7',
      user_agent: 'Mozilla/5.0',
      origin: 'https://example.com',
      referer: 'https://example.com/contact',
      bot_check: 'off',
      idempotency_key: null,
      restored_from: null,
      assignee_user_id: null,
      follow_up_on: null,
      email_key: null,
      phone_key: null,
      page_url: 'https://example.com/contact?utm_source=ad',
      utm_source: 'ad',
      utm_medium: 'cpc',
      utm_campaign: 'Spring “sale” ü',
      gclid: 'Cj0KCQ',
      fbclid: 'IwAR1',
      ...overrides,
    };
    return row;
  }

  const insertLead = (row: LeadTable) =>
    world.store.writer.write((trx) => trx.insertInto('leads').values(row).execute());

  it('migrates to every table, and migrating again changes nothing', async () => {
    await world.store.migrate();
    const tables = (await db().introspection.getTables())
      .map((t) => t.name)
      .filter((name) => !name.startsWith('kysely_'))
      // SQLite only: the trigram search index of migration 0004 (a virtual table and its shadow tables).
      .filter((name) => !name.startsWith('leads_search'))
      .sort();
    // PostgreSQL only: where the leads' search documents are (migration 0025).
    const postgresOnly = backend === 'postgres' ? ['lead_search', 'lead_search_pending'] : [];
    expect(tables).toEqual([
      'app_meta',
      'audit_log',
      'confirmation_counts',
      'confirmation_sends',
      'documents',
      'email_changes',
      'idempotency_keys',
      'intake_log',
      'invitations',
      'invoice_counters',
      'invoice_lines',
      'invoice_open_totals',
      'invoice_payments',
      'invoices',
      'job_claims',
      'lead_events',
      'lead_notes',
      ...postgresOnly,
      'lead_source_texts',
      'lead_sources',
      'lead_unread',
      'lead_unread_counts',
      'leads',
      'memberships',
      'notice_cursors',
      'noticed',
      'notification_choices',
      'notification_pending',
      'outbox',
      'pipelines',
      'price_list_items',
      'quarantine',
      'quote_counters',
      'quote_lines',
      'quote_outcomes',
      'quote_report_months',
      'quote_sections',
      'quotes',
      'reminders',
      'scan_measurements',
      'scan_rooms',
      'scan_unread',
      'scans',
      'server_instances',
      'sessions',
      'setup_links',
      'sign_in_failures',
      'stage_history',
      'stages',
      'upload_keys',
      'users',
      'workspaces',
    ]);
    const scanRaw = (await db().introspection.getTables())
      .find((t) => t.name === 'scans')!
      .columns.find((c) => c.name === 'raw')!;
    expect(scanRaw.dataType.toLowerCase()).toBe(backend === 'postgres' ? 'bytea' : 'blob');
  });

  it('runs with the durability settings the contract promises', async () => {
    if (backend === 'postgres') {
      // Ask on several pooled connections at once: every connection of the pool must carry the setting.
      const answers = await Promise.all(
        Array.from({ length: 6 }, () =>
          world.store.db.connection().execute(async (conn) => {
            const { rows } = await sql<{ synchronous_commit: string }>`show synchronous_commit`.execute(conn);
            await sql`select pg_sleep(0.05)`.execute(conn);
            return rows[0]!.synchronous_commit;
          }),
        ),
      );
      expect(answers).toEqual(Array(6).fill('on'));
    } else {
      const { rows: sync } = await sql<{ synchronous: number }>`pragma synchronous`.execute(db());
      const { rows: journal } = await sql<{ journal_mode: string }>`pragma journal_mode`.execute(db());
      const { rows: fk } = await sql<{ foreign_keys: number }>`pragma foreign_keys`.execute(db());
      expect(sync[0]!.synchronous).toBe(2); // FULL
      expect(journal[0]!.journal_mode).toBe('wal');
      expect(fk[0]!.foreign_keys).toBe(1);
    }
  });

  it('returns counts (int8 on PostgreSQL) as numbers, like SQLite', async () => {
    const { rows } = await sql<{
      n: unknown;
      big: unknown;
    }>`select count(*) as n, cast(9007199254740991 as bigint) as big from workspaces`.execute(db());
    expect(rows[0]).toEqual({ n: 1, big: 9007199254740991 });
    const viaBuilder = await db()
      .selectFrom('workspaces')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .executeTakeFirstOrThrow();
    expect(viaBuilder.n).toBe(1);
  });

  it('refuses an int8 beyond 2^53 instead of rounding it (PostgreSQL)', async () => {
    if (backend !== 'postgres') return;
    await expect(sql`select cast(9007199254740993 as bigint) as big`.execute(db())).rejects.toThrow(/does not fit/);
  });

  it('app_meta: a key is written once; a second insert of the same key is refused by the primary key', async () => {
    await world.store.writer.write((trx) => trx.insertInto('app_meta').values({ key: 'rt', value: 'first' }).execute());
    await expect(
      world.store.writer.write((trx) => trx.insertInto('app_meta').values({ key: 'rt', value: 'second' }).execute()),
    ).rejects.toThrow();
    const rows = await db().selectFrom('app_meta').selectAll().where('key', '=', 'rt').execute();
    expect(rows).toEqual([{ key: 'rt', value: 'first' }]);
  });

  it('workspaces, pipelines, lead_sources, upload_keys: the verbs write what they report', async () => {
    const ws = await db()
      .selectFrom('workspaces')
      .selectAll()
      .where('id', '=', seeded.workspaceId)
      .executeTakeFirstOrThrow();
    expect(ws.name).toBe('Round Trip');
    expect(new Date(ws.created_at).toISOString()).toBe(ws.created_at);
    const pl = await db()
      .selectFrom('pipelines')
      .selectAll()
      .where('id', '=', seeded.pipelineId)
      .executeTakeFirstOrThrow();
    expect(pl).toMatchObject({ workspace_id: seeded.workspaceId, name: 'Sales' });
    const src = await db()
      .selectFrom('lead_sources')
      .selectAll()
      .where('id', '=', seeded.source.id)
      .executeTakeFirstOrThrow();
    expect(src).toMatchObject({
      token: seeded.source.token,
      active: 1,
      bot_check_provider: null,
      pipeline_id: seeded.pipelineId,
    });

    await setSourceActive({ ctx: world.ctx, input: { sourceId: seeded.source.id, active: false } });
    expect(
      (await db().selectFrom('lead_sources').select('active').where('id', '=', src.id).executeTakeFirstOrThrow())
        .active,
    ).toBe(0);
    await setSourceActive({ ctx: world.ctx, input: { sourceId: seeded.source.id, active: true } });
    expect(
      (await db().selectFrom('lead_sources').select('active').where('id', '=', src.id).executeTakeFirstOrThrow())
        .active,
    ).toBe(1);

    await configureBotCheck({
      ctx: world.ctx,
      input: {
        sourceId: seeded.source.id,
        settings: { provider: 'recaptcha', secret: 'rc-secret-value', siteKey: 'site', minScore: 0.7 },
      },
    });
    const checked = await db()
      .selectFrom('lead_sources')
      .selectAll()
      .where('id', '=', src.id)
      .executeTakeFirstOrThrow();
    expect(checked).toMatchObject({
      bot_check_provider: 'recaptcha',
      bot_check_site_key: 'site',
      bot_check_min_score: 0.7,
    });
    expect(checked.bot_check_secret_enc).not.toContain('rc-secret-value');
    expect(world.ctx.secrets.open(checked.bot_check_secret_enc!)).toBe('rc-secret-value');
    await configureBotCheck({ ctx: world.ctx, input: { sourceId: seeded.source.id, settings: { off: true } } });
    expect(
      await db()
        .selectFrom('lead_sources')
        .select(['bot_check_provider', 'bot_check_secret_enc'])
        .where('id', '=', src.id)
        .executeTakeFirstOrThrow(),
    ).toEqual({ bot_check_provider: null, bot_check_secret_enc: null });
  });

  it('upload_keys: stored as hash + ciphertext, shown decrypted, regenerated in place, old key refused at once', async () => {
    const row = await db()
      .selectFrom('upload_keys')
      .selectAll()
      .where('workspace_id', '=', seeded.workspaceId)
      .executeTakeFirstOrThrow();
    expect(row.key_hash).toBe(hashUploadKey(seeded.uploadKey));
    expect(row.key_enc).not.toContain(seeded.uploadKey);
    expect(await showUploadKey({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: {} })).toEqual({
      uploadKey: seeded.uploadKey,
    });
    expect(await authenticateUploadKey({ ctx: world.ctx, input: { presented: seeded.uploadKey } })).toEqual({
      workspaceId: seeded.workspaceId,
    });

    const { uploadKey } = await regenerateUploadKey({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: {} });
    await expect(
      authenticateUploadKey({ ctx: world.ctx, input: { presented: seeded.uploadKey } }),
    ).rejects.toMatchObject({ code: 'invalid_scan_key' });
    expect(await authenticateUploadKey({ ctx: world.ctx, input: { presented: uploadKey } })).toEqual({
      workspaceId: seeded.workspaceId,
    });
    const rows = await db()
      .selectFrom('upload_keys')
      .selectAll()
      .where('workspace_id', '=', seeded.workspaceId)
      .execute();
    expect(rows).toHaveLength(1);
    seeded = { ...seeded, uploadKey };
  });

  it('unique constraints, not in-memory checks, refuse duplicates (token, key hash, upload key per workspace)', async () => {
    const now = new Date().toISOString();
    const other = await world.seed('Other');
    const duplicateToken = world.store.writer.write((trx) =>
      trx
        .insertInto('lead_sources')
        .values({
          id: newId('src'),
          workspace_id: other.workspaceId,
          pipeline_id: other.pipelineId,
          name: 'Copy',
          token: seeded.source.token,
          active: 1,
          bot_check_provider: null,
          bot_check_secret_enc: null,
          bot_check_site_key: null,
          bot_check_min_score: null,
          created_at: now,
          updated_at: now,
        })
        .execute(),
    );
    const secondKeyRow = world.store.writer.write((trx) =>
      trx
        .insertInto('upload_keys')
        .values({
          workspace_id: seeded.workspaceId,
          key_hash: 'x'.repeat(64),
          key_enc: 'e',
          created_at: now,
          last_connected_at: null,
          last_used_at: null,
        })
        .execute(),
    );
    const sameHash = world.store.writer.write((trx) =>
      trx
        .updateTable('upload_keys')
        .set({ key_hash: hashUploadKey(seeded.uploadKey) })
        .where('workspace_id', '=', other.workspaceId)
        .execute(),
    );
    const outcomes = await Promise.allSettled([duplicateToken, secondKeyRow, sameHash]);
    expect(outcomes.map((o) => o.status)).toEqual(['rejected', 'rejected', 'rejected']);
    // A constraint violation is the caller's conflict, never "database unavailable".
    for (const o of outcomes) expect(isStorageUnavailable((o as PromiseRejectedResult).reason)).toBe(false);
    expect(
      await db().selectFrom('lead_sources').select('id').where('token', '=', seeded.source.token).execute(),
    ).toHaveLength(1);
    expect(
      await db()
        .selectFrom('upload_keys')
        .select('workspace_id')
        .where('key_hash', '=', hashUploadKey(seeded.uploadKey))
        .execute(),
    ).toEqual([{ workspace_id: seeded.workspaceId }]);
  });

  it('foreign keys hold: a lead for a workspace that does not exist is refused', async () => {
    await expect(insertLead(leadRow({ workspace_id: 'ws_missing' }))).rejects.toThrow();
    expect(await db().selectFrom('leads').select('id').where('workspace_id', '=', 'ws_missing').execute()).toEqual([]);
  });

  it('leads: every column comes back as written through listLeads', async () => {
    const row = leadRow({
      received_at: '2030-01-01T00:00:00.000Z',
      bot_check: 'unverified',
      idempotency_key: 'idem-1',
    });
    const bare = leadRow({
      received_at: '2030-01-01T00:00:00.001Z',
      name: null,
      email: null,
      address: null,
      notes: null,
      extra: '{}',
      client_ip: null,
      user_agent: null,
      origin: null,
      referer: null,
      page_url: null,
      utm_source: null,
      utm_medium: null,
      utm_campaign: null,
      gclid: null,
      fbclid: null,
    });
    await Promise.all([insertLead(row), insertLead(bare)]);
    const stored = await db()
      .selectFrom('leads')
      .selectAll()
      .where('id', 'in', [row.id, bare.id])
      .orderBy('received_at')
      .execute();
    expect(stored).toEqual([row, bare]);
    const { leads: listed } = await listLeads({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: {} });
    expect(listed.slice(0, 2).map((l) => l.id)).toEqual([bare.id, row.id]);
    expect(listed[1]).toEqual({
      id: row.id,
      sourceId: row.source_id,
      pipelineId: row.pipeline_id,
      stage: 'inbox',
      stageName: 'Inbox',
      sourceName: 'Website form',
      isNew: true,
      name: row.name,
      phone: row.phone,
      email: row.email,
      address: row.address,
      notes: row.notes,
      extra: { budget: '12,000', nested: '{"a":[1,2]}' },
      botCheck: 'unverified',
      receivedAt: row.received_at,
      assigneeEmail: null,
      followUpOn: null,
      possibleDuplicate: false,
      pageUrl: row.page_url,
      marketing: {
        utm_source: 'ad',
        utm_medium: 'cpc',
        utm_campaign: 'Spring “sale” ü',
        gclid: 'Cj0KCQ',
        fbclid: 'IwAR1',
      },
    });
  });

  it('quarantine: a caught submission round-trips through listQuarantine', async () => {
    const id = newId('qr');
    const fields = { name: 'Bot', website: 'http://spam.example', notes: 'ünïcödé' };
    await world.store.writer.write((trx) =>
      trx
        .insertInto('quarantine')
        .values({
          id,
          workspace_id: seeded.workspaceId,
          source_id: seeded.source.id,
          reason: 'honeypot',
          fields: JSON.stringify(fields),
          received_at: '2030-02-01T00:00:00.000Z',
          client_ip: null,
          user_agent: 'curl/8',
          origin: null,
          referer: null,
          restored_lead_id: null,
        })
        .execute(),
    );
    const listed = await listQuarantine({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: {} });
    expect(listed).toEqual([
      {
        id,
        sourceId: seeded.source.id,
        reason: 'honeypot',
        detail: null,
        fields,
        receivedAt: '2030-02-01T00:00:00.000Z',
        restoredLeadId: null,
      },
    ]);
  });

  it('scans and scan_rooms: several MB of arbitrary bytes come back byte for byte (BLOB/BYTEA)', async () => {
    // Every byte value, long zero runs, invalid UTF-8, and a backslash-x prefix that a text escape would mangle.
    const raw = Buffer.concat([
      Buffer.from('\\x00\\\\x\u0000', 'latin1'),
      Buffer.from(Array.from({ length: 256 }, (_, i) => i)),
      Buffer.alloc(65_536),
      Buffer.from([0xff, 0xfe, 0xc3, 0x28, 0xed, 0xa0, 0x80]),
      crypto.randomBytes(4 * 1024 * 1024),
    ]);
    const scanId = newId('scan');
    const slices = [raw.subarray(0, 300), raw.subarray(300, 70_000), Buffer.alloc(0)];
    await world.store.writer.write(async (trx) => {
      await trx
        .insertInto('scans')
        .values({
          id: scanId,
          workspace_id: seeded.workspaceId,
          received_at: '2030-03-01T00:00:00.000Z',
          room_count: slices.length,
          byte_size: raw.length,
          user_agent: 'ScanApp/1.0',
          raw,
          idempotency_key: null,
        })
        .execute();
      await trx
        .insertInto('scan_rooms')
        .values(
          slices.map((slice, idx) => ({
            scan_id: scanId,
            idx,
            name: idx === 1 ? 'Küche' : `Room ${idx + 1}`,
            raw: slice,
          })),
        )
        .execute();
    });
    const back = await readScanRaw({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { scanId } });
    expect(back.length).toBe(raw.length);
    expect(back.equals(raw)).toBe(true);
    for (const [index, slice] of slices.entries()) {
      const room = await readScanRoom({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { scanId, index } });
      expect(room.equals(slice)).toBe(true);
    }
    await expect(
      readScanRoom({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { scanId, index: 3 } }),
    ).rejects.toMatchObject({ code: 'room_not_found' });
    const [listed] = await listScans({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: {} });
    expect(listed).toEqual({
      id: scanId,
      count: 3,
      rooms: [
        { index: 0, name: 'Room 1' },
        { index: 1, name: 'Küche' },
        { index: 2, name: 'Room 3' },
      ],
      byteSize: raw.length,
      userAgent: 'ScanApp/1.0',
      receivedAt: '2030-03-01T00:00:00.000Z',
      // New until someone opens it; no lead yet; not measured yet (nothing reads the bytes to list a scan).
      isNew: true,
      lead: null,
      floorArea: null,
    });
    // The (scan_id, idx) primary key refuses a second copy of a room.
    await expect(
      world.store.writer.write((trx) =>
        trx
          .insertInto('scan_rooms')
          .values({ scan_id: scanId, idx: 0, name: 'again', raw: Buffer.from('x') })
          .execute(),
      ),
    ).rejects.toThrow();
    expect(await db().selectFrom('scan_rooms').select('idx').where('scan_id', '=', scanId).execute()).toHaveLength(3);
  });

  it('idempotency_keys: in_flight then done; (scope, key) is unique', async () => {
    const base = {
      scope: `src:${seeded.source.id}`,
      key: 'k-1',
      request_hash: 'h1',
      state: 'in_flight',
      response_status: null,
      response_body: null,
      created_at: '2030-04-01T00:00:00.000Z',
      expires_at: '2030-04-02T00:00:00.000Z',
    };
    await world.store.writer.write((trx) => trx.insertInto('idempotency_keys').values(base).execute());
    await expect(
      world.store.writer.write((trx) =>
        trx
          .insertInto('idempotency_keys')
          .values({ ...base, request_hash: 'h2' })
          .execute(),
      ),
    ).rejects.toThrow();
    const body = JSON.stringify({ ok: true, id: 'lead_x' });
    await world.store.writer.write((trx) =>
      trx
        .updateTable('idempotency_keys')
        .set({ state: 'done', response_status: 200, response_body: body })
        .where('scope', '=', base.scope)
        .where('key', '=', base.key)
        .execute(),
    );
    const rows = await db().selectFrom('idempotency_keys').selectAll().where('scope', '=', base.scope).execute();
    expect(rows).toEqual([{ ...base, state: 'done', response_status: 200, response_body: body }]);
  });

  it('a write op that fails half-way leaves none of its rows', async () => {
    const first = leadRow();
    const failing = world.store.writer.write(async (trx) => {
      await trx.insertInto('leads').values(first).execute();
      await trx
        .insertInto('leads')
        .values(leadRow({ id: first.id }))
        .execute();
    });
    await expect(failing).rejects.toThrow();
    expect(await db().selectFrom('leads').select('id').where('id', '=', first.id).execute()).toEqual([]);
  });

  it('many parallel writes: every acknowledged write is stored exactly once, failures alone are missing', async () => {
    const before = { ...world.store.writer.stats };
    const existing = leadRow({ received_at: '2031-01-01T00:00:00.000Z' });
    await insertLead(existing);
    const rows = Array.from({ length: 600 }, (_, i) =>
      // Every 25th write collides with an existing primary key and must fail on its own.
      leadRow({
        id: i % 25 === 7 ? existing.id : newId('lead'),
        received_at: '2031-01-02T00:00:00.000Z',
        notes: `parallel ${i}`,
      }),
    );
    const outcomes = await Promise.allSettled(
      rows.map((row) =>
        world.store.writer.write(async (trx) => {
          await trx.insertInto('leads').values(row).execute();
          // Two statements per write, like a real intake (lead + idempotency record).
          await trx
            .updateTable('upload_keys')
            .set({ last_used_at: row.received_at })
            .where('workspace_id', '=', seeded.workspaceId)
            .execute();
          return row.id;
        }),
      ),
    );
    const acknowledged = outcomes.flatMap((o) => (o.status === 'fulfilled' ? [o.value] : []));
    const refused = outcomes.filter((o) => o.status === 'rejected');
    expect(acknowledged).toHaveLength(576);
    expect(refused).toHaveLength(24);
    const stored = await db()
      .selectFrom('leads')
      .select('id')
      .where('received_at', '=', '2031-01-02T00:00:00.000Z')
      .execute();
    expect(stored.map((r) => r.id).sort()).toEqual([...acknowledged].sort());
    expect(new Set(stored.map((r) => r.id)).size).toBe(stored.length);
    const { commits, writes } = world.store.writer.stats;
    expect(writes - before.writes).toBeGreaterThanOrEqual(600);
    // Group commit: far fewer transactions than writes.
    expect(commits - before.commits).toBeLessThan(100);
  });
});
