import type { Kysely, Transaction } from 'kysely';
import { AppError } from '../errors.js';
import type { LeadTable, Schema } from '../../storage/schema.js';

/**
 * A lead by id. With a workspace (the admin pages always give the signed-in one), another workspace's lead is
 * "not found", exactly like a missing one; the CLI runs on the server and may name any lead.
 */
export async function findLeadRow(
  db: Kysely<Schema> | Transaction<Schema>,
  { workspaceId, id }: { workspaceId?: string; id: string },
): Promise<LeadTable> {
  const row = await db
    .selectFrom('leads')
    .selectAll()
    .where('id', '=', id)
    .$if(workspaceId !== undefined, (q) => q.where('workspace_id', '=', workspaceId!))
    .executeTakeFirst();
  if (!row)
    throw new AppError(
      'lead_not_found',
      `No lead ${id}${workspaceId ? ' in this workspace' : ''}; see \`leadscan leads list\``,
    );
  return row;
}
