import { afterEach, beforeEach, expect, it } from 'vitest';
import { listAudit } from '../../src/domain/audit/list-audit.js';
import { issueSetupLink, setPasswordWithLink } from '../../src/domain/auth/setup-links.js';
import { createUser } from '../../src/domain/users/create-user.js';
import { resetPassword } from '../../src/domain/users/reset-password.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';

const tokenOf = (url: string) => url.split('/').at(-1)!;
const PASSWORD = 'correct horse battery staple';

describeEachBackend('audit: passwords set through a one-time link', (backend) => {
  let world: TestWorld;
  let seeded: Seeded;
  beforeEach(async () => {
    world = await createWorld(backend);
    seeded = await world.seed();
  });
  afterEach(async () => {
    await world.close();
  });

  it('records a new account’s first setup and a password set through a reset link, as the person, and shows both to the workspace', async () => {
    // Made on the CLI: its link is the operator's.
    const user = await createUser({
      ctx: world.ctx,
      input: { email: 'nia@example.com', workspaceId: seeded.workspaceId, displayName: 'Nia' },
    });
    await setPasswordWithLink({ ctx: world.ctx, input: { token: tokenOf(user.setupUrl!), password: PASSWORD } });

    // The emailed Forgot-password link is a link only the person saw, made the same way.
    const emailed = await world.store.writer.write((trx) => issueSetupLink(trx, world.ctx, user.userId, 'email'));
    await setPasswordWithLink({
      ctx: world.ctx,
      input: { token: tokenOf(emailed.setupUrl), password: `${PASSWORD} 2` },
    });
    // And the CLI's reset link, once used.
    const reset = await resetPassword({ ctx: world.ctx, input: { email: 'nia@example.com' } });
    await setPasswordWithLink({ ctx: world.ctx, input: { token: tokenOf(reset.setupUrl), password: `${PASSWORD} 3` } });

    const all = (await listAudit({ ctx: world.ctx, input: { workspaceId: null } })).records.filter((r) =>
      r.action.startsWith('account.'),
    );
    expect(all.map((r) => [r.action, r.actor.kind, r.actor.userId, r.actor.label, r.targetIds])).toEqual([
      ['account.password_set_by_link', 'user', user.userId, 'Nia', [user.userId]],
      ['account.password_set_by_link', 'user', user.userId, 'Nia', [user.userId]],
      ['account.set_up', 'user', user.userId, 'Nia', [user.userId]],
    ]);
    // Server-wide records, seen on the Audit log screen of a workspace the person is a member of.
    const shown = (await listAudit({ ctx: world.ctx, input: { workspaceId: seeded.workspaceId } })).records.map(
      (r) => r.action,
    );
    expect(shown).toContain('account.set_up');
    expect(shown.filter((a) => a === 'account.password_set_by_link')).toHaveLength(2);
    const other = await world.seed('Other');
    const elsewhere = (await listAudit({ ctx: world.ctx, input: { workspaceId: other.workspaceId } })).records.map(
      (r) => r.action,
    );
    expect(elsewhere.filter((a) => a.startsWith('account.'))).toEqual([]);
  });
});
