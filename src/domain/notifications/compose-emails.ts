import type { DomainContext } from '../context.js';
import { choicesOf, pastDigestHour } from './choices.js';
import { enqueueEmail, holdsNotifierLock } from './outbox.js';

/** Most leads per source, and most scans, one email lists by name; more are counted and linked to the inbox. */
export const MOST_PER_EMAIL = 50;

/**
 * Turns what people are waiting to be told into emails: one per person and workspace, at most one per
 * EMAIL_BATCH_SECONDS (a burst of leads becomes one email listing them). The pending rows go in the same
 * transaction as the outbox row, so each lead reaches each person's email exactly once. People no longer in the
 * workspace, or who no longer want these emails, are dropped here.
 */
export async function composeArrivalEmails(ctx: DomainContext): Promise<number> {
  const now = ctx.clock.now();
  const quietSince = new Date(now.getTime() - ctx.config.emailBatchSeconds * 1000).toISOString();
  return ctx.store.writer.write(async (trx) => {
    if (!(await holdsNotifierLock(trx, ctx.store.ops))) return 0;
    const waiting = await trx
      .selectFrom('notification_pending as p')
      .leftJoin('memberships as m', (join) =>
        join.onRef('m.workspace_id', '=', 'p.workspace_id').onRef('m.user_id', '=', 'p.user_id'),
      )
      .leftJoin('users as u', 'u.id', 'p.user_id')
      .leftJoin('notification_choices as c', (join) =>
        join.onRef('c.workspace_id', '=', 'p.workspace_id').onRef('c.user_id', '=', 'p.user_id'),
      )
      .select(['p.workspace_id', 'p.user_id', 'm.role', 'u.email', 'c.leads', 'c.scans'])
      .distinct()
      .execute();
    let composed = 0;
    for (const person of waiting) {
      const forget = trx
        .deleteFrom('notification_pending')
        .where('workspace_id', '=', person.workspace_id)
        .where('user_id', '=', person.user_id);
      if (person.role === null || person.email === null) {
        await forget.execute();
        continue;
      }
      const recent = await trx
        .selectFrom('outbox')
        .select('id')
        .where('workspace_id', '=', person.workspace_id)
        .where('user_id', '=', person.user_id)
        .where('purpose', '=', 'leads')
        .where('created_at', '>', quietSince)
        .limit(1)
        .executeTakeFirst();
      if (recent) continue;
      const choices = choicesOf(
        person.role,
        person.leads === null || person.scans === null ? undefined : { leads: person.leads, scans: person.scans },
      );
      const pending = trx
        .selectFrom('notification_pending as p')
        .where('p.workspace_id', '=', person.workspace_id)
        .where('p.user_id', '=', person.user_id);
      // Counted per source in SQL; each source's first MOST_PER_EMAIL leads are named, so a quiet source's lead is
      // listed even while another source is flooded. A lead deleted meanwhile is neither counted nor named.
      const bySource =
        choices.leads === 'each'
          ? await pending
              .innerJoin('leads as l', 'l.id', 'p.subject_id')
              .where('p.kind', '=', 'lead')
              .select(['l.source_id', (eb) => eb.fn.countAll<number>().as('n')])
              .groupBy('l.source_id')
              .orderBy('l.source_id')
              .execute()
          : [];
      const leadIds: string[] = [];
      for (const source of bySource) {
        const first = await pending
          .innerJoin('leads as l', 'l.id', 'p.subject_id')
          .where('p.kind', '=', 'lead')
          .where('l.source_id', '=', source.source_id)
          .select('p.subject_id')
          .orderBy('p.noticed_at')
          .orderBy('p.subject_id')
          .limit(MOST_PER_EMAIL)
          .execute();
        leadIds.push(...first.map((row) => row.subject_id));
      }
      const scanIds =
        choices.scans === 'each'
          ? (
              await pending
                .where('p.kind', '=', 'scan')
                .select('p.subject_id')
                .orderBy('p.noticed_at')
                .orderBy('p.subject_id')
                .limit(MOST_PER_EMAIL)
                .execute()
            ).map((row) => row.subject_id)
          : [];
      const scanTotal =
        scanIds.length < MOST_PER_EMAIL
          ? scanIds.length
          : Number(
              (
                await pending
                  .where('p.kind', '=', 'scan')
                  .select((eb) => eb.fn.countAll<number>().as('n'))
                  .executeTakeFirstOrThrow()
              ).n,
            );
      await forget.execute();
      if (leadIds.length === 0 && scanIds.length === 0) continue;
      await enqueueEmail(trx, ctx, {
        purpose: 'leads',
        to: person.email,
        workspaceId: person.workspace_id,
        userId: person.user_id,
        payload: {
          kind: 'arrivals',
          leadIds,
          scanIds,
          leadsBySource: bySource.map((s) => ({ sourceId: s.source_id, count: Number(s.n) })),
          scanTotal,
        },
      });
      composed += 1;
    }
    return composed;
  });
}

/**
 * The daily summary: at 08:00 in the workspace's time zone (the first look at or after it), everyone who chose it
 * gets one email listing the leads received since their last summary. A day without leads sends nothing.
 */
export async function composeDigests(ctx: DomainContext): Promise<number> {
  const now = ctx.clock.now();
  const nowIso = now.toISOString();
  return ctx.store.writer.write(async (trx) => {
    if (!(await holdsNotifierLock(trx, ctx.store.ops))) return 0;
    const people = await trx
      .selectFrom('notification_choices as c')
      .innerJoin('memberships as m', (join) =>
        join.onRef('m.workspace_id', '=', 'c.workspace_id').onRef('m.user_id', '=', 'c.user_id'),
      )
      .innerJoin('users as u', 'u.id', 'c.user_id')
      .innerJoin('workspaces as w', 'w.id', 'c.workspace_id')
      .select(['c.workspace_id', 'c.user_id', 'c.digest_day', 'c.digest_through', 'u.email', 'w.time_zone'])
      .where('c.leads', '=', 'daily')
      .execute();
    let composed = 0;
    for (const person of people) {
      const today = pastDigestHour(now, person.time_zone ?? 'UTC');
      if (today === undefined || person.digest_day === today) continue;
      const from = person.digest_through ?? new Date(now.getTime() - 24 * 60 * 60_000).toISOString();
      const inRange = trx
        .selectFrom('leads')
        .where('workspace_id', '=', person.workspace_id)
        .where('received_at', '>=', from)
        .where('received_at', '<', nowIso);
      // [from, now): each lead is in exactly one person's summary, even one received at the very millisecond.
      const { total } = await inRange.select((eb) => eb.fn.countAll<number>().as('total')).executeTakeFirstOrThrow();
      const first = await inRange.select('id').orderBy('received_at').limit(MOST_PER_EMAIL).execute();
      if (Number(total) > 0) {
        await enqueueEmail(trx, ctx, {
          purpose: 'digest',
          to: person.email,
          workspaceId: person.workspace_id,
          userId: person.user_id,
          payload: { kind: 'digest', leadIds: first.map((l) => l.id), total: Number(total), from, to: nowIso },
        });
        composed += 1;
      }
      await trx
        .updateTable('notification_choices')
        .set({ digest_day: today, digest_through: nowIso })
        .where('workspace_id', '=', person.workspace_id)
        .where('user_id', '=', person.user_id)
        .execute();
    }
    return composed;
  });
}
