import type { Kysely, Transaction } from 'kysely';
import type { DomainContext } from '../context.js';
import { AppError } from '../errors.js';
import type { LeadTable, Schema } from '../../storage/schema.js';

/** A lead of the workspace by id; another workspace's lead is "not found", exactly like a missing one. */
export async function findLeadRow(
  db: Kysely<Schema> | Transaction<Schema>,
  { workspaceId, id }: { workspaceId: string; id: string },
): Promise<LeadTable> {
  const row = await db
    .selectFrom('leads')
    .selectAll()
    .where('id', '=', id)
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirst();
  if (!row) throw new AppError('lead_not_found', `No lead ${id} in this workspace`);
  return row;
}

/** The workspace a lead belongs to, for the operator's CLI, which names any lead (its verbs then run inside it). */
export async function workspaceOfLead(ctx: DomainContext, id: string): Promise<string> {
  const row = await ctx.store.db.selectFrom('leads').select('workspace_id').where('id', '=', id).executeTakeFirst();
  if (!row) throw new AppError('lead_not_found', `No lead ${id}; see \`leadscan leads list\``);
  return row.workspace_id;
}
