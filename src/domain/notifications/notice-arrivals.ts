import type { Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';
import type { DomainContext } from '../context.js';
import { choicesOf } from './choices.js';
import { holdsNotifierLock } from './outbox.js';

type Kind = 'lead' | 'scan';

/**
 * A lead's received time is taken a moment before its batch commits, and on PostgreSQL several instances commit
 * side by side: each look reads back this far behind the newest time seen, and `noticed` keeps the overlap from
 * announcing a lead twice.
 */
const OVERLAP_MS = 2 * 60_000;
/** Nothing older than a day is announced (e.g. after email was switched on again): old news is not news. */
const MAX_AGE_MS = 24 * 60 * 60_000;
/** Arrivals read per workspace and kind per look; the rest are read by the next look, a few seconds later. */
const PER_LOOK = 500;
/** `noticed` rows are needed for the overlap only; two days is plenty. */
const KEEP_NOTICED_MS = 2 * 24 * 60 * 60_000;

/**
 * Reads new leads and scans from their tables' time indexes and queues them for everyone who wants each one
 * (`notification_pending`). The intake path writes nothing for this: a lead is committed exactly as before, and a
 * lead committed just before a crash is read here after the restart, because the cursor only moves in the same
 * transaction as the pending rows. Returns how many arrivals it noticed.
 */
export async function noticeArrivals(ctx: DomainContext): Promise<number> {
  const now = ctx.clock.now();
  return ctx.store.writer.write(async (trx) => {
    if (!(await holdsNotifierLock(trx, ctx.store.ops))) return 0;
    const recipients = await recipientsByWorkspace(trx);
    let noticed = 0;
    for (const [workspaceId, wants] of recipients) {
      for (const kind of ['lead', 'scan'] as const) {
        noticed += await noticeKind(trx, { workspaceId, kind, userIds: wants[kind], now });
      }
    }
    await trx.deleteFrom('noticed').where('noticed_at', '<', new Date(now.getTime() - KEEP_NOTICED_MS).toISOString()).execute();
    return noticed;
  });
}

/** Per workspace, who wants an email for each lead and for each scan (members only; the role's default when unset). */
async function recipientsByWorkspace(trx: Transaction<Schema>): Promise<Map<string, Record<Kind, string[]>>> {
  const rows = await trx
    .selectFrom('memberships')
    .leftJoin('notification_choices as c', (join) =>
      join.onRef('c.workspace_id', '=', 'memberships.workspace_id').onRef('c.user_id', '=', 'memberships.user_id'),
    )
    .select(['memberships.workspace_id', 'memberships.user_id', 'memberships.role', 'c.leads', 'c.scans'])
    .execute();
  const byWorkspace = new Map<string, Record<Kind, string[]>>();
  for (const row of rows) {
    const wants = byWorkspace.get(row.workspace_id) ?? { lead: [], scan: [] };
    byWorkspace.set(row.workspace_id, wants);
    const choices = choicesOf(row.role, row.leads === null || row.scans === null ? undefined : { leads: row.leads, scans: row.scans });
    if (choices.leads === 'each') wants.lead.push(row.user_id);
    if (choices.scans === 'each') wants.scan.push(row.user_id);
  }
  return byWorkspace;
}

async function noticeKind(
  trx: Transaction<Schema>,
  { workspaceId, kind, userIds, now }: { workspaceId: string; kind: Kind; userIds: string[]; now: Date },
): Promise<number> {
  const cursor = await trx
    .selectFrom('notice_cursors')
    .select('seen_through')
    .where('workspace_id', '=', workspaceId)
    .where('kind', '=', kind)
    .executeTakeFirst();
  const nowIso = now.toISOString();
  // A workspace seen for the first time starts now: a server upgraded to this version does not mail old leads.
  const seenThrough = cursor?.seen_through ?? nowIso;
  const since = new Date(Math.max(Date.parse(seenThrough) - OVERLAP_MS, now.getTime() - MAX_AGE_MS)).toISOString();
  const table = kind === 'lead' ? 'leads' : 'scans';
  const arrivals = await trx
    .selectFrom(table)
    .select(['id', 'received_at'])
    .where('workspace_id', '=', workspaceId)
    .where('received_at', '>=', since)
    .where(({ not, exists, selectFrom }) =>
      not(exists(selectFrom('noticed').select('subject_id').where('noticed.kind', '=', kind).whereRef('noticed.subject_id', '=', `${table}.id`))),
    )
    .orderBy('received_at')
    .limit(PER_LOOK)
    .execute();
  const newest = arrivals.reduce((max, a) => (a.received_at > max ? a.received_at : max), seenThrough);
  if (arrivals.length > 0) {
    await trx
      .insertInto('noticed')
      .values(arrivals.map((a) => ({ kind, subject_id: a.id, noticed_at: nowIso })))
      .execute();
    const pending = userIds.flatMap((userId) =>
      arrivals.map((a) => ({ workspace_id: workspaceId, user_id: userId, kind, subject_id: a.id, noticed_at: nowIso })),
    );
    for (let i = 0; i < pending.length; i += 200) {
      await trx.insertInto('notification_pending').values(pending.slice(i, i + 200)).execute();
    }
  }
  if (!cursor) {
    await trx.insertInto('notice_cursors').values({ workspace_id: workspaceId, kind, seen_through: newest }).execute();
  } else if (newest !== cursor.seen_through) {
    await trx
      .updateTable('notice_cursors')
      .set({ seen_through: newest })
      .where('workspace_id', '=', workspaceId)
      .where('kind', '=', kind)
      .execute();
  }
  return arrivals.length;
}
