import type { Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';
import type { DialectOps } from '../../storage/dialect-ops.js';
import { AppError } from '../errors.js';

/**
 * Inside the transaction that removes or demotes `userId`: refuse when they are the workspace's only owner.
 * On PostgreSQL the owners' rows are locked, so two owners demoting each other at once cannot both succeed.
 */
export async function keepAnOwner(
  trx: Transaction<Schema>,
  ops: DialectOps,
  input: { workspaceId: string; userId: string; action: string },
): Promise<void> {
  const query = trx
    .selectFrom('memberships')
    .select('user_id')
    .where('workspace_id', '=', input.workspaceId)
    .where('role', '=', 'owner');
  const owners = await ops.lockedRead(query).execute();
  if (owners.length === 1 && owners[0]!.user_id === input.userId) {
    throw new AppError(
      'last_owner',
      `The last owner of a workspace cannot be ${input.action}; make someone else owner first`,
    );
  }
}
