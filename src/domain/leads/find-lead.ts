import type { Kysely, Transaction } from 'kysely';
import type { DomainContext, WorkspaceVerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { leadName } from './lead-view.js';
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

/**
 * How a page that links to a lead names it (an invoice's page, back to its lead): its name, else its email or phone;
 * null when the workspace has no such lead (erased, or another workspace's). One row, nothing marked opened.
 */
export async function leadLabel({ ctx, input }: WorkspaceVerbArgs<{ id: string }>): Promise<string | null> {
  const row = await ctx.store.db
    .selectFrom('leads')
    .select(['name', 'email', 'phone'])
    .where('id', '=', input.id)
    .where('workspace_id', '=', ctx.workspaceId)
    .executeTakeFirst();
  return row ? leadName(row) : null;
}
