import { Option, type Command } from 'commander';
import { createUser } from '../domain/users/create-user.js';
import { listUsers, type UserView } from '../domain/users/list-users.js';
import { removeUser } from '../domain/users/remove-user.js';
import { resetPassword } from '../domain/users/reset-password.js';
import type { CliKit } from './kit.js';
import { workspaceIdOf } from './resolve.js';

function linkLines(result: {
  email: string;
  setupUrl: string | null;
  expiresAt: string | null;
  emailed?: boolean;
}): string {
  if (result.emailed) {
    return `We emailed an invitation to ${result.email} (the running server sends it within a few seconds).\n`;
  }
  if (!result.setupUrl) {
    return (
      `${result.email} already has an account: ` +
      'an invitation waits for them to accept after signing in (Account page).\n'
    );
  }
  return (
    `One-time link for ${result.email} to set a password (valid until ${result.expiresAt}, works once):\n` +
    `  ${result.setupUrl}\n`
  );
}

function userLines(users: UserView[]): string {
  if (users.length === 0) return '(none)\n';
  return users
    .map((u) => {
      const where = u.memberships.map((m) => `${m.workspaceName} (${m.role})`).join(', ') || 'no workspace';
      return `${u.email}  ${where}${u.passwordSet ? '' : '  [password not set yet]'}\n`;
    })
    .join('');
}

/** `leadscan user …`: people and their one-time set-password links. Nobody types a password here. */
export function registerUserCommands(program: Command, { run, withJson }: CliKit) {
  const user = program.command('user').description('people who sign in to the web app');
  withJson(user.command('create'))
    .description(
      'add a new person to a workspace and print their one-time set-password link, or invite an existing account',
    )
    .requiredOption('--email <email>', 'their email')
    .requiredOption('--workspace <workspace>', 'workspace id or name')
    .addOption(new Option('--role <role>', 'their role').choices(['owner', 'member']).default('member'))
    .option('--name <name>', 'display name (default: the part of the email before @)')
    .action(
      run(
        async (ctx, opts: { email: string; workspace: string; role: string; name?: string }) =>
          createUser({
            ctx,
            input: {
              email: opts.email,
              workspaceId: await workspaceIdOf(ctx, opts.workspace),
              role: opts.role,
              ...(opts.name ? { displayName: opts.name } : {}),
            },
          }),
        linkLines as (r: never) => string,
      ),
    );
  withJson(user.command('reset-password'))
    .description('print a new one-time set-password link (earlier links stop working)')
    .requiredOption('--email <email>', 'their email')
    .action(
      run((ctx, opts: { email: string }) => resetPassword({ ctx, input: opts }), linkLines as (r: never) => string),
    );
  withJson(user.command('list'))
    .description('list people, their workspaces and roles')
    .option('--workspace <workspace>', 'only members of this workspace')
    .action(
      run(
        async (ctx, opts: { workspace?: string }) =>
          listUsers({ ctx, input: { workspaceId: opts.workspace ? await workspaceIdOf(ctx, opts.workspace) : null } }),
        userLines as (r: never) => string,
      ),
    );
  withJson(user.command('remove'))
    .description('remove a person from a workspace, or entirely without --workspace')
    .requiredOption('--email <email>', 'their email')
    .option('--workspace <workspace>', 'only from this workspace')
    .action(
      run(async (ctx, opts: { email: string; workspace?: string }) =>
        removeUser({
          ctx,
          input: {
            email: opts.email,
            workspaceId: opts.workspace ? await workspaceIdOf(ctx, opts.workspace) : null,
          },
        }),
      ),
    );
}
