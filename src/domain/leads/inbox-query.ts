import type { DomainContext } from '../context.js';
import { possibleDuplicate } from './duplicates.js';
import { afterCursor, filterCondition, type LeadCursor, type LeadFilters } from './lead-filters.js';

/**
 * One page of leads matching `filters`, newest first, after `cursor`. The list and the export both read through
 * here, page by page, so the export never holds more than one page in memory.
 */
export function leadPageQuery(ctx: DomainContext, filters: LeadFilters, cursor: LeadCursor | undefined, limit: number) {
  const { ops } = ctx.store;
  return ctx.store.db
    .selectFrom('leads')
    .innerJoin('lead_sources', 'lead_sources.id', 'leads.source_id')
    .leftJoin('stages', (join) =>
      join.onRef('stages.pipeline_id', '=', 'leads.pipeline_id').onRef('stages.key', '=', 'leads.stage'),
    )
    .leftJoin('lead_unread', 'lead_unread.lead_id', 'leads.id')
    .leftJoin('users as assignee', 'assignee.id', 'leads.assignee_user_id')
    .selectAll('leads')
    .select([
      'lead_sources.name as source_name',
      'stages.name as stage_name',
      'lead_unread.lead_id as unread_id',
      'assignee.email as assignee_email',
    ])
    .select(possibleDuplicate(ops).as('possible_duplicate'))
    .where((eb) => filterCondition(eb, ops, filters))
    .$if(cursor !== undefined, (q) => q.where(afterCursor(cursor!)))
    .orderBy('leads.received_at', 'desc')
    .orderBy('leads.id', 'desc')
    .limit(limit);
}

export type LeadPageRow = Awaited<ReturnType<ReturnType<typeof leadPageQuery>['execute']>>[number];
