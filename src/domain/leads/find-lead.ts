import type { Kysely, Transaction } from 'kysely';
import type { DomainContext } from '../context.js';
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

/** The workspace a lead belongs to, for the operator's CLI, which names any lead (its verbs then run inside it). */
export async function workspaceOfLead(ctx: DomainContext, id: string): Promise<string> {
  return (await findLeadRow(ctx.store.db, { id })).workspace_id;
}
