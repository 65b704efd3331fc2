import type { Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';
import { recordLeadEvent } from './lead-work.js';

const BATCH = 500;

/**
 * A removed member's leads in that workspace become unassigned, inside the removing transaction, and each lead's
 * history says so. Read and written in batches so a member with many leads does not make one huge statement.
 */
export async function unassignMember(
  trx: Transaction<Schema>,
  input: { workspaceId: string; userId: string; at: string },
): Promise<number> {
  let total = 0;
  for (;;) {
    const leads = await trx
      .selectFrom('leads')
      .select('id')
      .where('workspace_id', '=', input.workspaceId)
      .where('assignee_user_id', '=', input.userId)
      .limit(BATCH)
      .execute();
    if (leads.length === 0) return total;
    const ids = leads.map((l) => l.id);
    await trx.updateTable('leads').set({ assignee_user_id: null }).where('id', 'in', ids).execute();
    for (const id of ids) {
      await recordLeadEvent(
        trx,
        id,
        { kind: 'assigned', value: null, at: input.at },
        { userId: null, label: 'member removed' },
      );
    }
    total += ids.length;
  }
}
