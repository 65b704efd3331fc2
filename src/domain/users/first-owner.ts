import type { Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';
import type { DomainContext } from '../context.js';
import { newId } from '../ids.js';
import { issueSetupLink, type SetupLink } from '../auth/setup-links.js';
import { FIRST_OWNER_EMAIL } from '../email-address.js';

export { FIRST_OWNER_EMAIL };

/**
 * First start (docs/security.md): owner admin@localhost of the new workspace, with a one-time setup link. The setup
 * page asks whoever opens the link for their real email and name (see `setPasswordWithLink`).
 */
export async function insertFirstOwner(
  trx: Transaction<Schema>,
  ctx: DomainContext,
  input: { workspaceId: string; now: string },
): Promise<SetupLink> {
  const userId = newId('usr');
  await trx
    .insertInto('users')
    .values({
      id: userId,
      email: FIRST_OWNER_EMAIL,
      email_key: FIRST_OWNER_EMAIL,
      display_name: 'Admin',
      password_hash: null,
      created_at: input.now,
      password_changed_at: null,
      email_proven_at: null,
      link_workspace_id: null,
    })
    .execute();
  await trx
    .insertInto('memberships')
    .values({ workspace_id: input.workspaceId, user_id: userId, role: 'owner', created_at: input.now })
    .execute();
  // Printed once in the server's banner: only the operator sees it, so it proves the account.
  return issueSetupLink(trx, ctx, userId, 'operator');
}
