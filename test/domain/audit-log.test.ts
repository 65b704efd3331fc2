import { sql } from 'kysely';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { regenerateUploadKey } from '../../src/domain/keys/regenerate-upload-key.js';
import { createSource } from '../../src/domain/sources/create-source.js';
import { ADMIN_AREAS } from '../../src/web/admin/areas.js';
import { useAdminFixture } from '../helpers/admin-fixture.js';
import { ADMIN_ROUTE_CASES, send, type AdminFixture } from '../helpers/admin-security.js';
import { describeEachBackend } from '../helpers/backends.js';
import { cliJson, runCli } from '../helpers/cli.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';
import { inWorkspace } from '../../src/domain/context.js';

/**
 * What each admin POST records (null: nothing, for a change that is only the person's own notification choices, a
 * test email, or the Personal data lookup, which only reads).
 */
const POST_ACTIONS: Record<string, string | null> = {
  '/account/name': 'account.name_changed',
  // Refused here (409: the fixture has no SMTP, and the change needs an emailed link), so nothing is recorded.
  '/account/email': null,
  '/account/password': 'account.password_changed',
  '/account/invitations/:invitationId/accept': 'member.invitation_accepted',
  '/account/invitations/:invitationId/decline': 'member.invitation_declined',
  '/w/:workspaceId/scans/key': 'key.copied',
  '/w/:workspaceId/scans/key/regenerate': 'key.regenerated',
  '/w/:workspaceId/scans/:scanId/attach': 'scan.attached',
  '/w/:workspaceId/scans/:scanId/rooms/:room/rename': 'scan.room_renamed',
  '/w/:workspaceId/scans/:scanId/detach': 'scan.detached',
  '/w/:workspaceId/scans/:scanId/delete': 'scan.deleted',
  '/w/:workspaceId/notifications': null,
  '/w/:workspaceId/notifications/test': null,
  '/w/:workspaceId/leads/:leadId/notes': 'lead.note_added',
  '/w/:workspaceId/leads/:leadId/notes/:noteId/delete': 'lead.note_deleted',
  '/w/:workspaceId/leads/:leadId/assign': 'lead.assigned',
  '/w/:workspaceId/leads/:leadId/follow-up': 'lead.follow_up_set',
  '/w/:workspaceId/leads/:leadId/move': 'lead.moved',
  '/w/:workspaceId/leads/:leadId/delete': 'lead.deleted',
  '/w/:workspaceId/leads/:leadId/spam': 'lead.marked_spam',
  '/w/:workspaceId/pipelines/:pipelineId/stages': 'stage.added',
  '/w/:workspaceId/pipelines/:pipelineId/stages/:stageKey/rename': 'stage.renamed',
  '/w/:workspaceId/pipelines/:pipelineId/stages/:stageKey/move': 'stage.reordered',
  '/w/:workspaceId/pipelines/:pipelineId/stages/:stageKey/remove': 'stage.removed',
  '/w/:workspaceId/settings': 'settings.changed',
  '/w/:workspaceId/settings/documents': 'settings.changed',
  '/w/:workspaceId/settings/follow-ups': 'settings.changed',
  // A sent quote whose PDF did not fail: nothing to make again, nothing recorded.
  '/w/:workspaceId/quotes/:quoteId/pdf/retry': null,
  '/w/:workspaceId/sources': 'source.created',
  '/w/:workspaceId/sources/:sourceId/active': 'source.deactivated',
  '/w/:workspaceId/sources/:sourceId/bot-check': 'source.bot_check_changed',
  '/w/:workspaceId/sources/:sourceId/texts': 'source.texts_changed',
  '/w/:workspaceId/sources/:sourceId/confirmation': 'source.confirmation_changed',
  '/w/:workspaceId/sources/:sourceId/spam': 'source.spam_rules_changed',
  '/w/:workspaceId/sources/:sourceId/form/fields': 'source.form_changed',
  '/w/:workspaceId/sources/:sourceId/form/fields/:fieldId': 'source.form_changed',
  '/w/:workspaceId/sources/:sourceId/form/built-in/:name': 'source.form_changed',
  '/w/:workspaceId/sources/:sourceId/form/fields/:fieldId/move': 'source.form_changed',
  '/w/:workspaceId/sources/:sourceId/form/fields/:fieldId/remove': 'source.form_changed',
  '/w/:workspaceId/sources/:sourceId/form/look': 'source.accent_changed',
  '/w/:workspaceId/members': 'member.invited',
  '/w/:workspaceId/members/invitations/:invitationId/cancel': 'member.invitation_cancelled',
  '/w/:workspaceId/members/:userId/role': 'member.role_changed',
  '/w/:workspaceId/members/:userId/remove': 'member.removed',
  '/w/:workspaceId/quarantine/:itemId/restore': 'quarantine.restored',
  '/w/:workspaceId/quarantine/:itemId/delete': 'quarantine.deleted',
  '/w/:workspaceId/people': null,
  '/w/:workspaceId/people/export': 'person.exported',
  '/w/:workspaceId/people/erase': 'person.erased',
  '/w/:workspaceId/settings/price-list': 'price_list.item_added',
  '/w/:workspaceId/settings/price-list/:itemId': 'price_list.item_changed',
  '/w/:workspaceId/settings/price-list/:itemId/remove': 'price_list.item_removed',
  '/w/:workspaceId/settings/price-list/import': 'price_list.imported',
  '/w/:workspaceId/leads/:leadId/quotes': 'quote.created',
  // Saving a draft and adding lines to it change only the draft: the record is made when it is sent.
  '/w/:workspaceId/quotes/:quoteId': null,
  '/w/:workspaceId/quotes/:quoteId/items': null,
  // The builder's Preview saves the draft like Save, then shows the customer's page: no record either.
  '/w/:workspaceId/quotes/:quoteId/preview': null,
  '/w/:workspaceId/quotes/:quoteId/send': 'quote.sent',
  '/w/:workspaceId/quotes/:quoteId/revise': 'quote.revised',
  '/w/:workspaceId/quotes/:quoteId/withdraw': 'quote.withdrawn',
  '/w/:workspaceId/quotes/:quoteId/copy': 'quote.created',
  // A draft invoice's edits change only the draft, as a quote's do: the record is made when it is sent.
  '/w/:workspaceId/invoices/:invoiceId': null,
  '/w/:workspaceId/invoices/:invoiceId/send': 'invoice.sent',
  '/w/:workspaceId/invoices/:invoiceId/payments': 'invoice.payment_recorded',
  '/w/:workspaceId/invoices/:invoiceId/payments/:paymentId/delete': 'invoice.payment_deleted',
  '/w/:workspaceId/invoices/:invoiceId/void': 'invoice.voided',
  '/w/:workspaceId/invoices/:invoiceId/credit': 'invoice.credited',
  // An invoice whose PDF did not fail: nothing to make again, nothing recorded.
  '/w/:workspaceId/invoices/:invoiceId/pdf/retry': null,
  // The fixture's quote is sent, not accepted: the verb refuses, nothing is made.
  '/w/:workspaceId/quotes/:quoteId/invoices': null,
  '/w/:workspaceId/leads/:leadId/invoices': 'invoice.created',
  '/w/:workspaceId/settings/invoices': 'settings.changed',
};

/** Routes the owner's request is refused on in this fixture (each says why above): only nothing recorded is checked. */
const REFUSED_HERE = new Set(['/account/email', '/w/:workspaceId/quotes/:quoteId/invoices']);

/** Audited reads among the GET routes; every other GET records nothing. */
const GET_ACTIONS: Record<string, { url: (f: AdminFixture) => string; action: string }> = {
  '/w/:workspaceId/scans': { url: (f) => `/w/${f.home.workspaceId}/scans?show=key`, action: 'key.shown' },
  '/w/:workspaceId/pipelines/:pipelineId/leads.csv': {
    url: (f) => `/w/${f.home.workspaceId}/pipelines/${f.home.pipelineId}/leads.csv`,
    action: 'export.downloaded',
  },
  '/w/:workspaceId/pipelines/:pipelineId/leads.xlsx': {
    url: (f) => `/w/${f.home.workspaceId}/pipelines/${f.home.pipelineId}/leads.xlsx`,
    action: 'export.downloaded',
  },
  '/w/:workspaceId/invoices/export.xlsx': {
    url: (f) => `/w/${f.home.workspaceId}/invoices/export.xlsx?from=2026-01-01&to=2026-12-31`,
    action: 'invoice.exported',
  },
  '/w/:workspaceId/invoices/export.csv': {
    url: (f) => `/w/${f.home.workspaceId}/invoices/export.csv?from=2026-01-01&to=2026-12-31`,
    action: 'invoice.exported',
  },
};

const auditRows = (world: TestWorld) => world.store.db.selectFrom('audit_log').selectAll().orderBy('id').execute();

describe('the audit table covers the admin routes', () => {
  it('names an expectation for every POST route', () => {
    const posts = ADMIN_AREAS.flatMap((a) => a.routes)
      .filter((r) => r.method === 'POST')
      .map((r) => r.path)
      .sort();
    expect(Object.keys(POST_ACTIONS).sort()).toEqual(posts);
  });
});

describeEachBackend('audit log: each admin action writes exactly one record, by the signed-in person', (backend) => {
  const f = useAdminFixture(backend);

  it('every admin POST and audited GET, as the owner', async () => {
    const cases = [
      ...ADMIN_ROUTE_CASES.filter((r) => r.method === 'POST').map((route) => ({
        route,
        url: route.url,
        action: POST_ACTIONS[route.path] ?? null,
      })),
      ...ADMIN_ROUTE_CASES.filter((r) => r.method === 'GET' && GET_ACTIONS[r.path]).map((route) => ({
        route,
        url: GET_ACTIONS[route.path]!.url,
        action: GET_ACTIONS[route.path]!.action,
      })),
    ];
    // A fixture is made again only after an action that used up what later ones need (a fixture costs seconds).
    const usesUp =
      /\/(delete|remove|erase|accept|decline|cancel|restore|active|password|role|regenerate|detach|spam|send|revise|withdraw)$/;
    const prepare = async () => {
      // The password form checks the current password: give the owner the one the case sends.
      const { hashPassword } = await import('../../src/domain/auth/password.js');
      await f.world.store.db
        .updateTable('users')
        .set({ password_hash: await hashPassword('not needed for the refusals') })
        .where('id', '=', f.owner.userId)
        .execute();
    };
    await prepare();
    for (const [i, c] of cases.entries()) {
      if (i > 0 && usesUp.test(cases[i - 1]!.route.path)) {
        await f.renew();
        await prepare();
      }
      const before = (await auditRows(f.world)).map((r) => r.id);
      const res = await send(f, c.route, c.url(f), { as: f.owner });
      if (!REFUSED_HERE.has(c.route.path))
        expect(res.statusCode, `${c.route.method} ${c.route.path}`).toBeLessThan(400);
      const added = (await auditRows(f.world)).filter((r) => !before.includes(r.id));
      expect(
        added.map((r) => r.action),
        `${c.route.method} ${c.route.path}`,
      ).toEqual(c.action ? [c.action] : []);
      for (const record of added) {
        expect(record).toMatchObject({ actor_kind: 'user', actor_user_id: f.owner.userId });
      }
    }
  }, 300_000);

  it('a sign-in and a throttled one are recorded; a member gets 403 for the Audit log and no nav link', async () => {
    const app = f.app;
    await f.world.store.db.updateTable('users').set({ password_hash: null }).execute();
    const { hashPassword } = await import('../../src/domain/auth/password.js');
    await f.world.store.db
      .updateTable('users')
      .set({ password_hash: await hashPassword('correct horse battery') })
      .where('id', '=', f.member.userId)
      .execute();
    const login = (password: string) =>
      app.inject({
        method: 'POST',
        url: '/login',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ email: f.member.email, password }).toString(),
      });
    expect((await login('correct horse battery')).statusCode).toBe(303);
    for (let i = 0; i < 10; i++) await login('wrong password');
    expect((await login('wrong password')).statusCode).toBe(429);
    const rows = (await auditRows(f.world)).filter((r) => r.action.startsWith('sign_in.'));
    expect(rows.map((r) => [r.action, r.actor_kind, r.actor_user_id, JSON.parse(r.target_ids)])).toEqual([
      ['sign_in.succeeded', 'user', f.member.userId, [f.member.userId]],
      ['sign_in.throttled', 'system', null, [f.member.userId]],
    ]);

    const asMember = await app.inject({
      method: 'GET',
      url: `/w/${f.home.workspaceId}/audit`,
      headers: { cookie: f.member.cookie },
    });
    expect(asMember.statusCode).toBe(403);
    const leads = await app.inject({
      method: 'GET',
      url: `/w/${f.home.workspaceId}/leads`,
      headers: { cookie: f.member.cookie },
    });
    expect(leads.body).not.toContain('/audit"');
    const asOwner = await app.inject({
      method: 'GET',
      url: `/w/${f.home.workspaceId}/audit`,
      headers: { cookie: f.owner.cookie },
    });
    expect(asOwner.statusCode).toBe(200);
    expect(asOwner.body).toContain(`href="/w/${f.home.workspaceId}/audit"`);
    // The member's sign-in shows on the owner's screen; the throttled attempt (no workspace) only on the CLI.
    expect(asOwner.body).toContain('sign_in.succeeded');
  });

  it('the screen filters by person, action and dates and pages with a cursor, in the workspace time zone', async () => {
    for (let i = 0; i < 55; i++)
      await regenerateUploadKey({
        ctx: inWorkspace(
          { ...f.world.ctx, actor: { kind: 'user', userId: f.owner.userId, displayName: 'Olga Owner' } },
          f.home.workspaceId,
        ),
        input: {},
      });
    await f.world.store.db
      .updateTable('workspaces')
      .set({ time_zone: 'America/Toronto' })
      .where('id', '=', f.home.workspaceId)
      .execute();
    const get = (query: string) =>
      f.app.inject({
        method: 'GET',
        url: `/w/${f.home.workspaceId}/audit${query}`,
        headers: { cookie: f.owner.cookie },
      });
    const first = await get('?action=key.regenerated');
    expect(first.statusCode).toBe(200);
    expect(first.body.match(/data-action="key\.regenerated">Upload key regenerated</g)).toHaveLength(50);
    expect(first.body).toMatch(/-0[45]:00<\/time>/);
    const next = /href="([^"]*after=[^"]+)" rel="next"/.exec(first.body)?.[1]?.replaceAll('&amp;', '&');
    expect(next).toBeDefined();
    const second = await f.app.inject({ method: 'GET', url: next!, headers: { cookie: f.owner.cookie } });
    expect(second.body.match(/data-action="key\.regenerated">Upload key regenerated</g)).toHaveLength(5);
    expect((await get(`?person=${f.member.userId}`)).body).toContain('No records match these filters.');
    expect((await get('?to=2000-01-01')).body).toContain('No records match these filters.');
    const bad = await get('?from=yesterday');
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('A date like 2026-03-31');
  });
});

describeEachBackend('audit log: atomic with the change it records', (backend) => {
  let world: TestWorld;
  beforeEach(async () => {
    world = await createWorld(backend);
  });
  afterEach(async () => {
    await world.close();
  });

  it('when the record cannot be written the change is undone, and a refused change leaves no record', async () => {
    const home = await world.seed('Home');
    const keyBefore = await world.store.db
      .selectFrom('upload_keys')
      .select('key_hash')
      .where('workspace_id', '=', home.workspaceId)
      .executeTakeFirstOrThrow();
    if (backend === 'sqlite') {
      await sql`create trigger audit_refuses before insert on audit_log begin select raise(abort, 'audit refused'); end`.execute(
        world.store.db,
      );
    } else {
      await sql`create function audit_refuses() returns trigger language plpgsql as $$ begin raise exception 'audit refused'; end $$`.execute(
        world.store.db,
      );
      await sql`create trigger audit_refuses before insert on audit_log for each row execute function audit_refuses()`.execute(
        world.store.db,
      );
    }
    await expect(regenerateUploadKey({ ctx: inWorkspace(world.ctx, home.workspaceId), input: {} })).rejects.toThrow();
    await expect(
      createSource({
        ctx: inWorkspace(world.ctx, home.workspaceId),
        input: { pipelineId: home.pipelineId, name: 'Never' },
      }),
    ).rejects.toThrow();
    const keyAfter = await world.store.db
      .selectFrom('upload_keys')
      .select('key_hash')
      .where('workspace_id', '=', home.workspaceId)
      .executeTakeFirstOrThrow();
    expect(keyAfter).toEqual(keyBefore);
    expect(await world.store.db.selectFrom('lead_sources').select('id').where('name', '=', 'Never').execute()).toEqual(
      [],
    );

    await sql`drop trigger audit_refuses${sql.raw(backend === 'postgres' ? ' on audit_log' : '')}`.execute(
      world.store.db,
    );
    const records = () =>
      world.store.db.selectFrom('audit_log').select('action').where('workspace_id', '=', home.workspaceId).execute();
    const before = await records();
    // The other way round: a change refused (a name taken) writes no record.
    await expect(
      createSource({
        ctx: inWorkspace(world.ctx, home.workspaceId),
        input: { pipelineId: home.pipelineId, name: 'Website form' },
      }),
    ).rejects.toThrow();
    expect(await records()).toEqual(before);
  });
});

describeEachBackend(
  'audit log: CLI commands record the OS user, and no record holds personal data or a key',
  (backend) => {
    let world: TestWorld;
    beforeEach(async () => {
      world = await createWorld(backend);
    });
    afterEach(async () => {
      await world.close();
    });

    it('each command writes one record as `cli`; `audit list` shows them; nothing of the lead or the key is in any', async () => {
      const home = await world.seed('Home');
      const env = { DATABASE_URL: world.testDb.url, APP_SECRET: world.appSecret };
      const app = await world.app();
      const lead = { name: 'Zelda Quintana', email: 'zelda.quintana@example.org', phone: '+1 416 555 0199' };
      const posted = await app.inject({ method: 'POST', url: `/api/intake/${home.source.token}`, payload: lead });
      expect(posted.statusCode).toBe(200);
      const leadId = posted.json<{ id: string }>().id;
      const commands: Array<[string[], string]> = [
        [['key', 'show', '--workspace', 'Home'], 'key.shown'],
        [['key', 'regenerate', '--workspace', 'Home'], 'key.regenerated'],
        [
          ['source', 'create', '--workspace', 'Home', '--pipeline', home.pipelineId, '--name', 'Flyer'],
          'source.created',
        ],
        [['workspace', 'settings', 'Home', '--lead-retention', '24'], 'settings.changed'],
        [['leads', 'move', leadId, '--stage', 'contacted'], 'lead.moved'],
        [['leads', 'export', '--workspace', 'Home'], 'export.downloaded'],
        [['leads', 'export', '--workspace', 'Home', '--format', 'xlsx'], 'export.downloaded'],
        [['person', 'export', '--workspace', 'Home', '--email', lead.email], 'person.exported'],
        [['person', 'erase', '--workspace', 'Home', '--email', lead.email, '--yes'], 'person.erased'],
        [['retention', 'run'], 'retention.ran'],
      ];
      const keys: string[] = [home.uploadKey];
      for (const [args, action] of commands) {
        const before = (await auditRows(world)).map((r) => r.id);
        const result = await runCli(args, env);
        expect(result.code, `${args.join(' ')}: ${result.stderr}`).toBe(0);
        if (args[0] === 'key') keys.push(...(result.stdout.match(/lsk_[A-Za-z0-9_-]+/g) ?? []));
        const added = (await auditRows(world)).filter((r) => !before.includes(r.id));
        expect(
          added.map((r) => r.action),
          args.join(' '),
        ).toEqual([action]);
        expect(added[0]).toMatchObject({ actor_kind: 'cli', actor_user_id: null });
        expect(added[0]!.actor_label.length).toBeGreaterThan(0);
      }
      expect(await runCli(['audit', 'list', '--workspace', 'Home'], env)).toMatchObject({ code: 0 });
      const listed = await cliJson<{ records: Array<{ action: string }>; next: string | null }>(
        ['audit', 'list', '--action', 'key.regenerated'],
        env,
      );
      expect(listed.records.map((r) => r.action)).toEqual(['key.regenerated']);

      const text = JSON.stringify(await auditRows(world)).toLowerCase();
      for (const secret of [lead.name, lead.email, lead.phone, '4165550199', ...keys]) {
        expect(text).not.toContain(secret.toLowerCase());
      }
      expect(keys.length).toBeGreaterThanOrEqual(2);
    }, 120_000);
  },
);
