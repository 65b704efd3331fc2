import type { WorkspaceVerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { decodeCursor, encodeCursor, resolveLeadFilters, type LeadFilterInput } from './lead-filters.js';
import { leadPageQuery, type LeadPageRow } from './inbox-query.js';
import { toLeadView, type InboxLead } from './lead-view.js';

export { toLeadView, type LeadView, type InboxLead } from './lead-view.js';

export const PAGE_SIZE = 50;
const MAX_LIMIT = 1000;

export interface LeadListInput extends LeadFilterInput {
  limit?: number;
  cursor?: string;
}

export interface LeadPage {
  leads: InboxLead[];
  /** Pass as `cursor` for the next page; null on the last page. */
  nextCursor: string | null;
}

export function toInboxLead(row: LeadPageRow): InboxLead {
  return {
    ...toLeadView(row),
    stageName: row.stage_name ?? row.stage,
    sourceName: row.source_name,
    isNew: row.unread_id !== null,
    assigneeEmail: row.assignee_email ?? null,
    followUpOn: row.follow_up_on ?? null,
    possibleDuplicate: Boolean(Number(row.possible_duplicate)),
  };
}

/**
 * A pipeline's (or workspace's) leads, newest first, filtered and searched, one cursor page at a time
 * (docs/admin-app.md).
 */
export async function listLeads({ ctx, input }: WorkspaceVerbArgs<LeadListInput>): Promise<LeadPage> {
  const limit = input.limit ?? PAGE_SIZE;
  if (!Number.isInteger(limit) || limit < 1 || limit > MAX_LIMIT) {
    throw new AppError('invalid_request', `A page holds 1 to ${MAX_LIMIT} leads`);
  }
  const filters = await resolveLeadFilters(ctx, input);
  const cursor = input.cursor ? decodeCursor(input.cursor) : undefined;
  // One row more than the page tells whether a next page exists without a count.
  const rows = await leadPageQuery(ctx, filters, cursor, limit + 1).execute();
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    leads: page.map(toInboxLead),
    nextCursor: rows.length > limit && last ? encodeCursor({ receivedAt: last.received_at, id: last.id }) : null,
  };
}
