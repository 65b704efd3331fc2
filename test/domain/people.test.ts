import { afterEach, beforeEach, expect, it } from 'vitest';
import { changeMemberRole } from '../../src/domain/members/change-role.js';
import { listMembers } from '../../src/domain/members/list-members.js';
import { removeMember } from '../../src/domain/members/remove-member.js';
import { workspaceAccess } from '../../src/domain/members/workspace-access.js';
import { openSetupLink, setPasswordWithLink } from '../../src/domain/auth/setup-links.js';
import { resolveSession } from '../../src/domain/auth/sessions.js';
import { signIn } from '../../src/domain/auth/sign-in.js';
import { changePassword } from '../../src/domain/users/change-password.js';
import { createUser } from '../../src/domain/users/create-user.js';
import { listUsers } from '../../src/domain/users/list-users.js';
import { removeUser } from '../../src/domain/users/remove-user.js';
import { resetPassword } from '../../src/domain/users/reset-password.js';
import { bootstrap } from '../../src/domain/bootstrap.js';
import { describeEachBackend } from '../helpers/backends.js';
import { TestClock } from '../helpers/clock.js';
import { errorCodeOf } from '../helpers/error-code.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { inWorkspace } from '../../src/domain/context.js';

const tokenOf = (url: string) => url.split('/setup/')[1]!;
const PASSWORD = 'correct horse battery';

describeEachBackend('people, setup links and sessions', (backend) => {
  let world: TestWorld;
  let clock: TestClock;
  let acme: Seeded;
  beforeEach(async () => {
    clock = new TestClock(Date.parse('2026-03-01T10:00:00Z'));
    world = await createWorld(backend, { clock });
    acme = await world.seed('Acme');
  });
  afterEach(async () => {
    await world.close();
  });
  const ctx = () => world.ctx;

  async function owner(email = 'olga@example.com', workspace = acme.workspaceId) {
    const created = await createUser({ ctx: ctx(), input: { email, workspaceId: workspace, role: 'owner' } });
    await setPasswordWithLink({ ctx: ctx(), input: { token: tokenOf(created.setupUrl!), password: PASSWORD } });
    return created;
  }

  it('first start makes owner admin@localhost of Default with a one-time link', async () => {
    const fresh = await createWorld(backend, { clock });
    try {
      const result = await bootstrap({ ctx: fresh.ctx });
      if (!result.created) throw new Error('expected a first start');
      expect(result.adminSetup?.setupUrl).toMatch(/^http:\/\/leadscan\.test\/setup\/[A-Za-z0-9_-]{43}$/);
      const users = await listUsers({ ctx: fresh.ctx, input: { workspaceId: null } });
      expect(users).toEqual([
        expect.objectContaining({
          email: 'admin@localhost',
          passwordSet: false,
          memberships: [{ workspaceId: result.workspaceId, workspaceName: 'Default', role: 'owner' }],
        }),
      ]);
      expect((await bootstrap({ ctx: fresh.ctx })).created).toBe(false);
    } finally {
      await fresh.close();
    }
  });

  it('a setup link sets the password once, stores only hashes, and expires after 24 h', async () => {
    const created = await createUser({
      ctx: ctx(),
      input: { email: 'Ada@Example.com', workspaceId: acme.workspaceId },
    });
    expect(created.role).toBe('member');
    const token = tokenOf(created.setupUrl!);
    const stored = await world.store.db.selectFrom('setup_links').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(token);
    expect((await openSetupLink({ ctx: ctx(), input: { token } })).email).toBe('Ada@Example.com');
    expect(await errorCodeOf(setPasswordWithLink({ ctx: ctx(), input: { token, password: 'short' } }))).toBe(
      'invalid_fields',
    );
    await setPasswordWithLink({ ctx: ctx(), input: { token, password: PASSWORD } });
    expect(await errorCodeOf(setPasswordWithLink({ ctx: ctx(), input: { token, password: PASSWORD } }))).toBe(
      'setup_link_unusable',
    );
    const users = await world.store.db.selectFrom('users').select('password_hash').execute();
    expect(users[0]!.password_hash).toMatch(/^scrypt\$/);
    expect(users[0]!.password_hash).not.toContain(PASSWORD);

    const reset = await resetPassword({ ctx: ctx(), input: { email: 'ada@example.com' } });
    clock.advance(24 * 60 * 60 * 1000 + 1);
    expect(await errorCodeOf(openSetupLink({ ctx: ctx(), input: { token: tokenOf(reset.setupUrl) } }))).toBe(
      'setup_link_unusable',
    );
    // A newer link replaces the older unused one.
    const first = await resetPassword({ ctx: ctx(), input: { email: 'ada@example.com' } });
    await resetPassword({ ctx: ctx(), input: { email: 'ada@example.com' } });
    expect(await errorCodeOf(openSetupLink({ ctx: ctx(), input: { token: tokenOf(first.setupUrl) } }))).toBe(
      'setup_link_unusable',
    );
  });

  it('a setup link opened in two tabs at once sets the password once', async () => {
    const created = await createUser({
      ctx: ctx(),
      input: { email: 'twice@example.com', workspaceId: acme.workspaceId },
    });
    const token = tokenOf(created.setupUrl!);
    // Both calls pass the read-only check before either writes; the conditional UPDATE picks one winner.
    const outcomes = await Promise.allSettled([
      setPasswordWithLink({ ctx: ctx(), input: { token, password: PASSWORD } }),
      setPasswordWithLink({ ctx: ctx(), input: { token, password: `${PASSWORD} two` } }),
    ]);
    expect(outcomes.map((o) => o.status).sort()).toEqual(['fulfilled', 'rejected']);
    const refused = outcomes.find((o) => o.status === 'rejected') as PromiseRejectedResult;
    expect(await errorCodeOf(Promise.reject(refused.reason))).toBe('setup_link_unusable');
  });

  it('emails are unique case-insensitively; a second workspace adds a membership without a new link', async () => {
    await owner('olga@example.com');
    expect(
      await errorCodeOf(
        createUser({ ctx: ctx(), input: { email: 'OLGA@example.com', workspaceId: acme.workspaceId } }),
      ),
    ).toBe('already_member');
    const other = await world.seed('Other');
    const again = await createUser({
      ctx: ctx(),
      input: { email: 'OLGA@example.com', workspaceId: other.workspaceId },
    });
    expect(again.setupUrl).toBeNull();
    expect(
      await errorCodeOf(createUser({ ctx: ctx(), input: { email: 'not-an-email', workspaceId: acme.workspaceId } })),
    ).toBe('invalid_fields');
    expect(
      await errorCodeOf(
        createUser({ ctx: ctx(), input: { email: 'x@y', workspaceId: acme.workspaceId, role: 'admin' } }),
      ),
    ).toBe('invalid_fields');
  });

  it('signs in with the same refusal for unknown email and wrong password, and throttles the 11th failure', async () => {
    await owner();
    const ok = await signIn({ ctx: ctx(), input: { email: 'OLGA@example.com', password: PASSWORD, ip: '10.0.0.1' } });
    expect(await resolveSession({ ctx: ctx(), input: { sessionId: ok.sessionId } })).toMatchObject({
      email: 'olga@example.com',
    });
    const refusal = async (email: string) => {
      try {
        await signIn({ ctx: ctx(), input: { email, password: 'wrong password!', ip: '10.0.0.2' } });
      } catch (error) {
        return { code: (error as { code: string }).code, detail: (error as Error).message };
      }
      throw new Error('signed in');
    };
    expect(await refusal('nobody@example.com')).toEqual(await refusal('olga@example.com'));
    for (let i = 0; i < 8; i += 1) expect((await refusal('olga@example.com')).code).toBe('invalid_credentials');
    // Ten failures from 10.0.0.2 now: the 11th attempt is refused before the password is looked at.
    expect((await refusal('olga@example.com')).code).toBe('rate_limited');
    // Per email too: olga@ has 9 failures; a 10th from another address, then even the right password is refused.
    expect(
      await errorCodeOf(
        signIn({ ctx: ctx(), input: { email: 'olga@example.com', password: 'nope nope nope', ip: '10.0.0.3' } }),
      ),
    ).toBe('invalid_credentials');
    expect(
      await errorCodeOf(
        signIn({ ctx: ctx(), input: { email: 'olga@example.com', password: PASSWORD, ip: '10.0.0.9' } }),
      ),
    ).toBe('rate_limited');
    clock.advance(15 * 60 * 1000 + 1);
    expect(
      await errorCodeOf(
        signIn({ ctx: ctx(), input: { email: 'olga@example.com', password: PASSWORD, ip: '10.0.0.9' } }),
      ),
    ).toBe('no error');
  });

  it('records the first throttled sign-in of a window per throttled email or address, not every one', async () => {
    const olga = await owner();
    const throttledRecords = async () =>
      (
        await world.store.db
          .selectFrom('audit_log')
          .select('target_ids')
          .where('action', '=', 'sign_in.throttled')
          .execute()
      ).map((r) => JSON.parse(r.target_ids) as string[]);
    const attempt = (email: string, ip: string) =>
      errorCodeOf(signIn({ ctx: ctx(), input: { email, password: 'wrong password!', ip } }));
    for (let i = 0; i < 10; i += 1) expect(await attempt('olga@example.com', '10.0.0.2')).toBe('invalid_credentials');
    // Hammering: from the same address, and for the same email from other addresses (the email's limit refuses).
    for (let i = 0; i < 30; i += 1) expect(await attempt('olga@example.com', '10.0.0.2')).toBe('rate_limited');
    for (let i = 0; i < 10; i += 1) expect(await attempt('olga@example.com', `10.0.1.${i}`)).toBe('rate_limited');
    clock.advance(10 * 60 * 1000);
    for (let i = 0; i < 10; i += 1) expect(await attempt('olga@example.com', '10.0.0.2')).toBe('rate_limited');
    expect(await throttledRecords()).toEqual([[olga.userId]]);

    // Another throttled address is another key: its own record, naming no account when the email has none.
    for (let i = 0; i < 10; i += 1)
      expect(await attempt(`nobody${i}@example.com`, '10.0.0.3')).toBe('invalid_credentials');
    for (let i = 0; i < 5; i += 1) expect(await attempt(`else${i}@example.com`, '10.0.0.3')).toBe('rate_limited');
    expect(await throttledRecords()).toEqual([[olga.userId], []]);

    // A new window: the failures have aged out, the hammering starts again, one more record.
    clock.advance(15 * 60 * 1000 + 1);
    for (let i = 0; i < 10; i += 1) expect(await attempt('olga@example.com', '10.0.0.2')).toBe('invalid_credentials');
    for (let i = 0; i < 5; i += 1) expect(await attempt('olga@example.com', '10.0.0.2')).toBe('rate_limited');
    expect(await throttledRecords()).toEqual([[olga.userId], [], [olga.userId]]);
  }, 120_000); // many sign-ins, each a password hash: slow on a loaded machine

  it('sessions end after 14 idle days or 30 days in all; a password change ends the others', async () => {
    await owner();
    const sign = () => signIn({ ctx: ctx(), input: { email: 'olga@example.com', password: PASSWORD, ip: '10.0.0.1' } });
    const a = await sign();
    const b = await sign();
    const stored = await world.store.db.selectFrom('sessions').select('id_hash').execute();
    expect(JSON.stringify(stored)).not.toContain(a.sessionId);
    for (let day = 0; day < 29; day += 1) {
      clock.advance(24 * 60 * 60 * 1000);
      expect(await resolveSession({ ctx: ctx(), input: { sessionId: a.sessionId } })).not.toBeNull();
    }
    expect(await resolveSession({ ctx: ctx(), input: { sessionId: b.sessionId } })).toBeNull();
    clock.advance(24 * 60 * 60 * 1000);
    expect(await resolveSession({ ctx: ctx(), input: { sessionId: a.sessionId } })).toBeNull();

    const c = await sign();
    const d = await sign();
    const current = (await resolveSession({ ctx: ctx(), input: { sessionId: c.sessionId } }))!;
    const input = {
      userId: current.userId,
      currentPassword: 'wrong one!!',
      newPassword: 'a new long password',
      keepSessionHash: current.sessionHash,
    };
    expect(await errorCodeOf(changePassword({ ctx: ctx(), input }))).toBe('invalid_fields');
    await changePassword({ ctx: ctx(), input: { ...input, currentPassword: PASSWORD } });
    expect(await resolveSession({ ctx: ctx(), input: { sessionId: c.sessionId } })).not.toBeNull();
    expect(await resolveSession({ ctx: ctx(), input: { sessionId: d.sessionId } })).toBeNull();
  });

  it('roles, access and the last owner', async () => {
    const olga = await owner();
    const other = await world.seed('Other');
    expect(
      await errorCodeOf(
        workspaceAccess({ ctx: ctx(), input: { userId: olga.userId, workspaceId: other.workspaceId } }),
      ),
    ).toBe('workspace_not_found');
    const ws = acme.workspaceId;
    expect(
      await errorCodeOf(
        changeMemberRole({ ctx: inWorkspace(ctx(), ws), input: { userId: olga.userId, role: 'member' } }),
      ),
    ).toBe('last_owner');
    expect(await errorCodeOf(removeMember({ ctx: inWorkspace(ctx(), ws), input: { userId: olga.userId } }))).toBe(
      'last_owner',
    );
    expect(await errorCodeOf(removeUser({ ctx: ctx(), input: { email: 'olga@example.com', workspaceId: null } }))).toBe(
      'last_owner',
    );
    const max = await createUser({ ctx: ctx(), input: { email: 'max@example.com', workspaceId: ws } });
    await changeMemberRole({ ctx: inWorkspace(ctx(), ws), input: { userId: max.userId, role: 'owner' } });
    await changeMemberRole({ ctx: inWorkspace(ctx(), ws), input: { userId: olga.userId, role: 'member' } });
    expect((await listMembers({ ctx: inWorkspace(ctx(), ws), input: {} })).map((m) => [m.email, m.role])).toEqual([
      ['max@example.com', 'owner'],
      ['olga@example.com', 'member'],
    ]);
    await removeMember({ ctx: inWorkspace(ctx(), ws), input: { userId: olga.userId } });
    expect(await errorCodeOf(workspaceAccess({ ctx: ctx(), input: { userId: olga.userId, workspaceId: ws } }))).toBe(
      'workspace_not_found',
    );
    await removeUser({ ctx: ctx(), input: { email: 'olga@example.com', workspaceId: null } });
    expect((await listUsers({ ctx: ctx(), input: { workspaceId: null } })).map((u) => u.email)).toEqual([
      'max@example.com',
    ]);
  });
});
