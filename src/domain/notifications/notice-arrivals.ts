import type { Transaction } from 'kysely';
import type { DialectOps } from '../../storage/dialect-ops.js';
import type { Schema } from '../../storage/schema.js';
import type { DomainContext } from '../context.js';
import { choicesOf } from './choices.js';
import { holdsNotifierLock } from './outbox.js';

type Kind = 'lead' | 'scan';

/**
 * A lead's received time is taken a moment before its batch commits, and on PostgreSQL several instances commit
 * side by side: a lead can become visible after a newer one was noticed. Every LATE_EVERY_MS a look also reads
 * this far behind the newest time seen, and `noticed` keeps the overlap from announcing a lead twice.
 */
const OVERLAP_MS = 2 * 60_000;
/**
 * How often the overlap is read again. Each look reads only what is at or after the mark (one probe of `noticed`
 * per new lead); reading the two minutes behind it on every look would cost, under a flood, 60 times the new
 * leads themselves. A late commit is rare and is announced at most this much later.
 */
const LATE_EVERY_MS = 15_000;
/** Nothing older than a day is announced (e.g. after email was switched on again): old news is not news. */
const MAX_AGE_MS = 24 * 60 * 60_000;
/**
 * Arrivals noticed per workspace and kind per look, at most (a day's backlog after an outage is taken in a few
 * looks rather than one long transaction). Far above what intake can store between two looks.
 */
export const MOST_PER_LOOK = 50_000;
/** `noticed` rows are needed for the overlap only; two days is plenty. */
const KEEP_NOTICED_MS = 2 * 24 * 60 * 60_000;

/**
 * When each store last read the overlap, per workspace and kind (a look's pace, not state: a restart reads it at once).
 */
const lateReadAt = new WeakMap<object, Map<string, number>>();

/**
 * Reads new leads and scans from their tables' time indexes and queues them for everyone who wants each one
 * (`notification_pending`). The intake path writes nothing for this: a lead is committed exactly as before, and a
 * lead committed just before a crash is read here after the restart, because the mark only moves in the same
 * transaction as the pending rows. All of it is set-based SQL: a look turns every new arrival since the
 * workspace's mark into `noticed` and pending rows without reading them into the process, so the notifier keeps up
 * with intake under a flood. Returns how many arrivals it noticed.
 */
export async function noticeArrivals(ctx: DomainContext): Promise<number> {
  const now = ctx.clock.now();
  const readAt = lateReadAt.get(ctx.store) ?? new Map<string, number>();
  lateReadAt.set(ctx.store, readAt);
  return ctx.store.writer.write(async (trx) => {
    if (!(await holdsNotifierLock(trx, ctx.store.ops))) return 0;
    const recipients = await recipientsByWorkspace(trx);
    let noticed = 0;
    for (const [workspaceId, wants] of recipients) {
      for (const kind of ['lead', 'scan'] as const) {
        noticed += await noticeKind(trx, ctx.store.ops, readAt, { workspaceId, kind, userIds: wants[kind], now });
      }
    }
    await trx
      .deleteFrom('noticed')
      .where('noticed_at', '<', new Date(now.getTime() - KEEP_NOTICED_MS).toISOString())
      .execute();
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
    const choices = choicesOf(
      row.role,
      row.leads === null || row.scans === null ? undefined : { leads: row.leads, scans: row.scans },
    );
    if (choices.leads === 'each') wants.lead.push(row.user_id);
    if (choices.scans === 'each') wants.scan.push(row.user_id);
  }
  return byWorkspace;
}

async function noticeKind(
  trx: Transaction<Schema>,
  ops: DialectOps,
  readAt: Map<string, number>,
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
  const oldest = new Date(now.getTime() - MAX_AGE_MS).toISOString();
  const table = kind === 'lead' ? 'leads' : 'scans';
  const key = `${workspaceId}/${kind}`;
  let noticed = 0;
  // Behind the mark: leads committed after a newer one was noticed (the first look of a workspace, then now and then).
  const lastLate = readAt.get(key);
  if (!cursor || lastLate === undefined || now.getTime() - lastLate >= LATE_EVERY_MS || now.getTime() < lastLate) {
    readAt.set(key, now.getTime());
    const since = new Date(Math.max(Date.parse(seenThrough) - OVERLAP_MS, Date.parse(oldest))).toISOString();
    if (since < seenThrough)
      noticed += (
        await ops.noticeArrivals(trx, { workspaceId, kind, table, userIds, nowIso, from: since, below: seenThrough })
      ).count;
  }
  // At and after the mark, up to MOST_PER_LOOK (with every lead of the last time taken, so the mark never splits one).
  const from = seenThrough > oldest ? seenThrough : oldest;
  const boundary = await trx
    .selectFrom(table)
    .select('received_at')
    .where('workspace_id', '=', workspaceId)
    .where('received_at', '>=', from)
    .orderBy('received_at')
    .limit(1)
    .offset(MOST_PER_LOOK - 1)
    .executeTakeFirst();
  const fresh = await ops.noticeArrivals(trx, {
    workspaceId,
    kind,
    table,
    userIds,
    nowIso,
    from,
    ...(boundary ? { through: boundary.received_at } : {}),
  });
  noticed += fresh.count;
  const newest = fresh.newest !== null && fresh.newest > seenThrough ? fresh.newest : seenThrough;
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
  return noticed;
}
