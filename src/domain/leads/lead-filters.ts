import { sql, type Expression, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { WorkspaceContext } from '../context.js';
import { AppError } from '../errors.js';
import { checkText } from '../text-input.js';
import { possibleDuplicate } from './duplicates.js';
import { getPipeline } from '../pipelines/find-pipeline.js';
import { localDayAndHour } from '../notifications/choices.js';
import { getWorkspaceSettings } from '../settings/workspace-settings.js';
import { emailKey } from '../email-address.js';
import type { Schema } from '../../storage/schema.js';
import type { DialectOps } from '../../storage/dialect-ops.js';
import { searchQuery, type SearchQuery } from '../../storage/search-text.js';

/**
 * The inbox filters (docs/admin-app.md), within the context's workspace: the pipeline by id, the rest as a person gives
 * them (stage and source by id or name, dates as text).
 */
export interface LeadFilterInput {
  pipelineId?: string;
  /** A stage key or name. */
  stage?: string;
  /** A source id or name. */
  source?: string;
  /** A marketing source (`leads.utm_source`), exactly as stored. */
  utmSource?: string;
  botCheck?: string;
  search?: string;
  /** Received at or after: `YYYY-MM-DD` (UTC day) or an ISO instant. */
  since?: string;
  /** Received at or before: `YYYY-MM-DD` (the whole UTC day) or an ISO instant. */
  until?: string;
  /** Assigned to this member (a user id or an email), or `none` for unassigned leads. */
  assignee?: string;
  /** Only leads whose follow-up day is today or earlier, in the workspace's time zone. */
  followUpDue?: boolean;
  /** Only possible duplicates (duplicates.ts). */
  duplicates?: boolean;
}

/** The same filters resolved to ids and bounds; what the list and the export query with. */
export interface LeadFilters {
  workspaceId: string;
  pipelineId?: string;
  stageKeys?: string[];
  sourceIds?: string[];
  utmSource?: string;
  botCheck?: string;
  /** The search as compared (storage/search-text.ts). */
  search?: SearchQuery;
  /**
   * On SQLite, the leads that match `search`, found through the trigram index when they are few (see
   * storage/search-index.ts, `searchLeadIdsSqlite`).
   */
  searchIds?: string[];
  since?: string;
  /** Exclusive upper bound. */
  before?: string;
  assigneeUserId?: string;
  unassigned?: boolean;
  /** Follow-up day on or before this `YYYY-MM-DD`. */
  followUpBy?: string;
  duplicates?: boolean;
}

export const BOT_CHECK_STATES = ['off', 'passed', 'unverified'] as const;
const SEARCH_MAX = 200;
const DAY = /^\d{4}-\d{2}-\d{2}$/;

function instant(label: string, value: string, endOfDay: boolean): string {
  const text = value.trim();
  const date = new Date(DAY.test(text) ? `${text}T00:00:00.000Z` : text);
  if (Number.isNaN(date.getTime()) || !/^\d{4}-\d{2}-\d{2}/.test(text)) {
    throw new AppError('invalid_request', `${label} must be a date (2026-03-31) or a time (2026-03-31T14:00:00Z)`);
  }
  // An until day includes all of that day; an until instant includes that millisecond.
  if (DAY.test(text) && endOfDay) date.setUTCDate(date.getUTCDate() + 1);
  else if (endOfDay) date.setUTCMilliseconds(date.getUTCMilliseconds() + 1);
  return date.toISOString();
}

const blank = (value: string | undefined) => value === undefined || value.trim() === '';

export async function resolveLeadFilters(ctx: WorkspaceContext, input: LeadFilterInput): Promise<LeadFilters> {
  // Refused before any lookup: a NUL would fail the query on PostgreSQL and the search index on SQLite.
  for (const [field, label] of [
    ['assignee', 'The assignee'],
    ['search', 'The search'],
    ['source', 'The source'],
    ['utmSource', 'The campaign source'],
    ['stage', 'The stage'],
    ['since', 'From'],
    ['until', 'To'],
    ['botCheck', 'The bot check'],
  ] as const) {
    const value = input[field];
    if (value !== undefined) checkText(value, field, label);
  }
  const { workspaceId } = ctx;
  const filters: LeadFilters = { workspaceId };
  const { db } = ctx.store;
  if (input.pipelineId !== undefined) {
    filters.pipelineId = (await getPipeline({ ctx, input: { pipelineId: input.pipelineId } })).id;
  }
  if (!blank(input.stage)) {
    const ref = input.stage!.trim();
    let query = db
      .selectFrom('stages')
      .innerJoin('pipelines', 'pipelines.id', 'stages.pipeline_id')
      .select(['stages.key', 'stages.name'])
      .where('pipelines.workspace_id', '=', workspaceId);
    if (filters.pipelineId) query = query.where('stages.pipeline_id', '=', filters.pipelineId);
    const stages = await query.execute();
    const keys = new Set(
      stages.filter((s) => s.key === ref || s.name.toLowerCase() === ref.toLowerCase()).map((s) => s.key),
    );
    if (keys.size === 0)
      throw new AppError(
        'stage_not_found',
        `No stage "${ref}" in ${filters.pipelineId ? 'this pipeline' : 'this workspace'}`,
      );
    filters.stageKeys = [...keys];
  }
  if (!blank(input.source)) {
    const ref = input.source!.trim();
    const sources = await db
      .selectFrom('lead_sources')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where((eb) => eb.or([eb('id', '=', ref), eb('name', '=', ref)]))
      .execute();
    if (sources.length === 0) throw new AppError('source_not_found', `No lead source "${ref}" in this workspace`);
    filters.sourceIds = sources.map((s) => s.id);
  }
  if (!blank(input.utmSource)) filters.utmSource = input.utmSource!.trim();
  if (!blank(input.botCheck)) {
    const state = input.botCheck!.trim();
    if (!(BOT_CHECK_STATES as readonly string[]).includes(state)) {
      throw new AppError('invalid_request', `The bot check filter is one of ${BOT_CHECK_STATES.join(', ')}`);
    }
    filters.botCheck = state;
  }
  if (!blank(input.search)) {
    const search = input.search!.trim();
    if ([...search].length > SEARCH_MAX)
      throw new AppError('invalid_request', `Search for at most ${SEARCH_MAX} characters`);
    filters.search = searchQuery(search);
    // Where the backend has a search index file that answers it (SQLite), its ids replace the condition.
    const ids = await ctx.store.ops.indexedLeadIds(ctx.store.db, workspaceId, filters.search);
    if (ids) {
      filters.searchIds = ids;
      delete filters.search;
    }
  }
  if (!blank(input.assignee)) {
    const ref = input.assignee!.trim();
    if (ref === 'none') filters.unassigned = true;
    else {
      const member = await db
        .selectFrom('memberships')
        .innerJoin('users', 'users.id', 'memberships.user_id')
        .select('users.id')
        .where('memberships.workspace_id', '=', workspaceId)
        .where((eb) => eb.or([eb('users.id', '=', ref), eb('users.email_key', '=', emailKey(ref))]))
        .executeTakeFirst();
      if (!member) throw new AppError('member_not_found', `No member "${ref}" in this workspace`);
      filters.assigneeUserId = member.id;
    }
  }
  if (input.followUpDue) {
    const { timeZone } = await getWorkspaceSettings({ ctx, input: { workspaceId } });
    filters.followUpBy = localDayAndHour(ctx.clock.now(), timeZone).day;
  }
  if (input.duplicates) filters.duplicates = true;
  if (!blank(input.since)) filters.since = instant('From', input.since!, false);
  if (!blank(input.until)) filters.before = instant('To', input.until!, true);
  return filters;
}

/** Every filter as one condition on `leads`, so the list, the count and the export select exactly the same set. */
export function filterCondition(
  eb: ExpressionBuilder<Schema, 'leads'>,
  ops: DialectOps,
  filters: LeadFilters,
): Expression<SqlBool> {
  const parts: Expression<SqlBool>[] = [eb('leads.workspace_id', '=', filters.workspaceId)];
  if (filters.pipelineId) parts.push(eb('leads.pipeline_id', '=', filters.pipelineId));
  if (filters.stageKeys) parts.push(eb('leads.stage', 'in', filters.stageKeys));
  if (filters.sourceIds) parts.push(eb('leads.source_id', 'in', filters.sourceIds));
  // Answered from leads_workspace_utm_source (migration 0038), in page order.
  if (filters.utmSource !== undefined) parts.push(eb('leads.utm_source', '=', filters.utmSource));
  if (filters.botCheck) parts.push(eb('leads.bot_check', '=', filters.botCheck));
  if (filters.assigneeUserId) parts.push(eb('leads.assignee_user_id', '=', filters.assigneeUserId));
  if (filters.unassigned) parts.push(eb('leads.assignee_user_id', 'is', null));
  if (filters.followUpBy) {
    parts.push(eb('leads.follow_up_on', 'is not', null), eb('leads.follow_up_on', '<=', filters.followUpBy));
  }
  if (filters.since) parts.push(eb('leads.received_at', '>=', filters.since));
  if (filters.before) parts.push(eb('leads.received_at', '<', filters.before));
  if (filters.duplicates) parts.push(possibleDuplicate(ops));
  if (filters.search) parts.push(ops.leadSearchMatches(filters.search));
  if (filters.searchIds)
    parts.push(filters.searchIds.length > 0 ? eb('leads.id', 'in', filters.searchIds) : sql<SqlBool>`1 = 0`);
  return eb.and(parts);
}

/** Keyset paging on (received_at, id), newest first: the cursor is the last row of the page before. */
export interface LeadCursor {
  receivedAt: string;
  id: string;
}

export function encodeCursor(cursor: LeadCursor): string {
  return Buffer.from(`${cursor.receivedAt}|${cursor.id}`, 'utf8').toString('base64url');
}

export function decodeCursor(text: string): LeadCursor {
  const [receivedAt, id, ...rest] = Buffer.from(text, 'base64url').toString('utf8').split('|');
  if (
    !receivedAt ||
    !id ||
    rest.length > 0 ||
    Number.isNaN(Date.parse(receivedAt)) ||
    !/^lead_[0-9a-f]{32}$/.test(id)
  ) {
    throw new AppError(
      'invalid_request',
      'That page cursor is not one this server gave out; start again from the first page',
    );
  }
  return { receivedAt, id };
}

/** Rows after the cursor in page order; a row-value comparison both backends answer from the index. */
export function afterCursor(cursor: LeadCursor): Expression<SqlBool> {
  return sql<SqlBool>`(leads.received_at, leads.id) < (${cursor.receivedAt}, ${cursor.id})`;
}
