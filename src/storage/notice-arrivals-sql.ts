import { sql, type Transaction } from 'kysely';
import type { Dialect } from './dialect.js';
import type { Schema } from './schema.js';

/** What the notifier notices in one look (src/domain/notifications/notice-arrivals.ts): a time range of one kind. */
export interface ArrivalRange {
  workspaceId: string;
  kind: 'lead' | 'scan';
  table: 'leads' | 'scans';
  userIds: string[];
  nowIso: string;
  from: string;
  /** Inclusive upper end, or `below` for an exclusive one; neither: everything from `from`. */
  through?: string;
  below?: string;
}

/**
 * Notices every arrival of the range not noticed yet, and queues it for each of `userIds`, in SQL. On PostgreSQL
 * one statement (a data-modifying WITH) does both, so a lead committed by another instance meanwhile is either in
 * both or in neither; on SQLite the writer holds the database for the whole transaction, so nothing commits between
 * the statements. Returns how many it noticed and the newest received time among them.
 */
export async function noticeArrivalsIn(
  trx: Transaction<Schema>,
  dialect: Dialect,
  r: ArrivalRange,
): Promise<{ count: number; newest: string | null }> {
  const t = sql.table(r.table);
  const upper =
    r.through !== undefined
      ? sql`and a.received_at <= ${r.through}`
      : r.below !== undefined
        ? sql`and a.received_at < ${r.below}`
        : sql``;
  const arrivals = sql`select a.id, a.received_at from ${t} a
    where a.workspace_id = ${r.workspaceId} and a.received_at >= ${r.from} ${upper}
      and not exists (select 1 from noticed n where n.kind = ${r.kind} and n.subject_id = a.id)`;
  if (dialect === 'postgres') {
    const { rows } = await sql<{ count: string; newest: string | null }>`
      with fresh as (${arrivals}),
      mark as (insert into noticed (kind, subject_id, noticed_at) select ${r.kind}, id, ${r.nowIso} from fresh),
      queue as (
        insert into notification_pending (workspace_id, user_id, kind, subject_id, noticed_at)
        select ${r.workspaceId}, u.user_id, ${r.kind}, fresh.id, ${r.nowIso}
        from fresh cross join unnest(${r.userIds}::text[]) as u(user_id)
      )
      select count(*) as count, max(received_at) as newest from fresh`.execute(trx);
    return { count: Number(rows[0]?.count ?? 0), newest: rows[0]?.newest ?? null };
  }
  const { rows } = await sql<{
    count: number;
    newest: string | null;
  }>`select count(*) as count, max(received_at) as newest from (${arrivals})`.execute(trx);
  const count = Number(rows[0]?.count ?? 0);
  if (count === 0) return { count: 0, newest: null };
  for (const userId of r.userIds) {
    await sql`insert into notification_pending (workspace_id, user_id, kind, subject_id, noticed_at)
      select ${r.workspaceId}, ${userId}, ${r.kind}, id, ${r.nowIso} from (${arrivals})`.execute(trx);
  }
  await sql`insert into noticed (kind, subject_id, noticed_at)
    select ${r.kind}, id, ${r.nowIso} from (${arrivals})`.execute(trx);
  return { count, newest: rows[0]?.newest ?? null };
}
