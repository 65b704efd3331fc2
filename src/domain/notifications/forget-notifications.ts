import type { Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';

/**
 * What the notifier keeps about a person in a workspace (their choices, what they are still to be told, emails
 * not yet sent), removed with their membership: a removed member is mailed nothing more, not even what was already
 * waiting. Sent emails stay as history until the outbox prunes them.
 */
export async function forgetMemberNotifications(
  trx: Transaction<Schema>,
  input: { workspaceId: string; userId: string },
): Promise<void> {
  await trx
    .deleteFrom('notification_choices')
    .where('workspace_id', '=', input.workspaceId)
    .where('user_id', '=', input.userId)
    .execute();
  await trx
    .deleteFrom('notification_pending')
    .where('workspace_id', '=', input.workspaceId)
    .where('user_id', '=', input.userId)
    .execute();
  await trx
    .deleteFrom('outbox')
    .where('workspace_id', '=', input.workspaceId)
    .where('user_id', '=', input.userId)
    .where('state', 'in', ['pending', 'sending'])
    .execute();
}

/** Everything the notifier keeps about a deleted workspace, its email history included (it names its people). */
export async function forgetWorkspaceNotifications(trx: Transaction<Schema>, workspaceId: string): Promise<void> {
  await trx.deleteFrom('notification_choices').where('workspace_id', '=', workspaceId).execute();
  await trx.deleteFrom('notification_pending').where('workspace_id', '=', workspaceId).execute();
  await trx.deleteFrom('notice_cursors').where('workspace_id', '=', workspaceId).execute();
  await trx.deleteFrom('outbox').where('workspace_id', '=', workspaceId).execute();
  await trx.deleteFrom('confirmation_sends').where('workspace_id', '=', workspaceId).execute();
  await trx.deleteFrom('confirmation_counts').where('workspace_id', '=', workspaceId).execute();
}
