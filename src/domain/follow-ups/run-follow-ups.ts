import { sql } from 'kysely';
import { recordAudit } from '../audit/record-audit.js';
import type { DomainContext, VerbArgs } from '../context.js';
import { newId } from '../ids.js';
import { localDayAndHour } from '../notifications/choices.js';
import { enqueueEmail } from '../notifications/outbox.js';
import type { FollowUpPayload } from '../notifications/follow-up-emails.js';
import { addDays, todayIn } from '../quotes/quote-view.js';
import { hashQuoteToken, mintQuoteToken } from '../quotes/quote-token.js';
import { CUSTOMER_REMINDERS, FOLLOW_UP_DAYS } from '../settings/follow-up-settings.js';
import { remindOverdueInvoices } from './invoice-reminders.js';

/** Reminders go out from this hour of their day, in the workspace's time zone: nobody is reminded at midnight. */
export const REMINDER_HOUR = 8;
/** Quotes sent longer ago than the largest day a setting allows (and a day more for the zones) have nothing due. */
const LOOKBACK_DAYS = Math.max(FOLLOW_UP_DAYS.max, CUSTOMER_REMINDERS.max) + 2;
const DAY_MS = 24 * 60 * 60_000;
/** Ids per lookup of the reminders already queued. */
const CHUNK = 500;

export type ReminderKind = 'quote_sender' | 'quote_customer';

export interface FollowUpRun {
  /** Whether email is on: without it no reminder is queued (and none is counted as sent). */
  emailOn: boolean;
  senderReminders: number;
  customerReminders: number;
  /** Overdue invoices' reminders to their customers (docs/invoices.md, "Overdue reminders"). */
  invoiceReminders: number;
}

/** An open revision the job looks at. */
interface Candidate {
  id: string;
  chain_id: string;
  workspace_id: string;
  lead_id: string;
  revision: number;
  sent_at: string;
  valid_until: string;
  customer_email: string | null;
  sent_by_user_id: string | null;
  time_zone: string | null;
  follow_up_days: number | null;
  customer_reminder_days: string;
}

interface Due {
  candidate: Candidate;
  kind: ReminderKind;
  ordinal: number;
  days: number;
}

/**
 * What is due today for one open revision: the sender's reminder once `follow_up_days` have passed since its send
 * (its day in the workspace's time zone), and the customer's latest reminder day that has come (an earlier one the
 * job missed, with the server stopped or email off, is not sent late once the next is due). Nothing before
 * REMINDER_HOUR or once the quote has expired.
 */
export function dueReminders(c: Candidate, now: Date): Due[] {
  const zone = c.time_zone ?? 'UTC';
  const { day: today, hour } = localDayAndHour(now, zone);
  if (hour < REMINDER_HOUR || c.valid_until < today) return [];
  const sentDay = todayIn(zone, new Date(c.sent_at));
  const due: Due[] = [];
  const followUp = c.follow_up_days === null ? null : Number(c.follow_up_days);
  if (followUp !== null && addDays(sentDay, followUp) <= today)
    due.push({ candidate: c, kind: 'quote_sender', ordinal: 1, days: followUp });
  const customerDays = JSON.parse(c.customer_reminder_days) as number[];
  if (c.customer_email) {
    const last = customerDays.findLastIndex((d) => addDays(sentDay, d) <= today);
    if (last >= 0) due.push({ candidate: c, kind: 'quote_customer', ordinal: last + 1, days: customerDays[last]! });
  }
  return due;
}

/** Which of these revisions' reminders are queued already, and which quotes' customers stopped theirs. */
async function alreadyDone(ctx: DomainContext, candidates: Candidate[]) {
  const queued = new Set<string>();
  const stopped = new Set<string>();
  for (let i = 0; i < candidates.length; i += CHUNK) {
    const part = candidates.slice(i, i + CHUNK);
    const rows = await ctx.store.db
      .selectFrom('reminders')
      .select(['kind', 'subject_id', 'ordinal'])
      .where(
        'subject_id',
        'in',
        part.map((c) => c.id),
      )
      .execute();
    for (const r of rows) queued.add(`${r.kind}:${r.subject_id}:${r.ordinal}`);
    const stops = await ctx.store.db
      .selectFrom('reminders')
      .select('chain_id')
      .where(
        'chain_id',
        'in',
        part.map((c) => c.chain_id),
      )
      .where('stopped_at', 'is not', null)
      .execute();
    for (const r of stops) if (r.chain_id) stopped.add(r.chain_id);
  }
  return { queued, stopped };
}

/**
 * Queues one reminder, once: in one transaction, the revision is checked to be still open and current (and, for the
 * customer, not stopped), the reminder's row is claimed by its unique key (kind, revision, ordinal), the email goes
 * into the outbox and the audit log records it. Of two instances that claim the same key, the second finds it taken
 * (PostgreSQL makes it wait for the first's commit) and queues nothing. Answers whether it queued the email.
 */
async function remind(ctx: DomainContext, due: Due): Promise<boolean> {
  const { candidate: c } = due;
  return ctx.store.writer.write(async (trx) => {
    const current = await trx
      .selectFrom('quotes as q')
      .select(['q.id', 'q.status'])
      .where('q.id', '=', c.id)
      .where(sql<boolean>`q.status in ('sent', 'viewed')`)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('quotes as later')
              .select('later.id')
              .whereRef('later.chain_id', '=', 'q.chain_id')
              .whereRef('later.revision', '>', 'q.revision'),
          ),
        ),
      )
      .executeTakeFirst();
    if (!current) return false;
    if (due.kind === 'quote_customer') {
      const stopped = await trx
        .selectFrom('reminders')
        .select('id')
        .where('chain_id', '=', c.chain_id)
        .where('stopped_at', 'is not', null)
        .executeTakeFirst();
      if (stopped) return false;
    }
    const token = due.kind === 'quote_customer' ? mintQuoteToken() : null;
    const id = newId('rem');
    const claimed = await trx
      .insertInto('reminders')
      .values({
        id,
        workspace_id: c.workspace_id,
        kind: due.kind,
        subject_id: c.id,
        ordinal: due.ordinal,
        quote_id: c.id,
        chain_id: c.chain_id,
        outbox_id: null,
        stop_token_hash: token === null ? null : hashQuoteToken(token),
        stopped_at: null,
        created_at: ctx.clock.now().toISOString(),
      })
      .onConflict((oc) => oc.columns(['kind', 'subject_id', 'ordinal']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!claimed) return false;
    // The sender, while still a member with an email; the reminder is claimed either way (it is not tried again).
    const sender =
      due.kind === 'quote_sender' && c.sent_by_user_id
        ? await trx
            .selectFrom('users as u')
            .innerJoin('memberships as m', 'm.user_id', 'u.id')
            .select(['u.id', 'u.email'])
            .where('u.id', '=', c.sent_by_user_id)
            .where('m.workspace_id', '=', c.workspace_id)
            .executeTakeFirst()
        : undefined;
    const to = due.kind === 'quote_sender' ? sender?.email : c.customer_email;
    if (!to) return false;
    const base = ctx.config.publicBaseUrl.replace(/\/+$/, '');
    const payload: FollowUpPayload = {
      kind: 'follow_up',
      to: due.kind === 'quote_sender' ? 'sender' : 'customer',
      quoteId: c.id,
      ordinal: due.ordinal,
      days: due.days,
      ...(token === null ? {} : { stopLink: `${base}/q/stop/${token}` }),
    };
    const outboxId = await enqueueEmail(trx, ctx, {
      purpose: 'follow_up',
      to,
      workspaceId: c.workspace_id,
      ...(sender ? { userId: sender.id } : {}),
      payload,
    });
    await trx.updateTable('reminders').set({ outbox_id: outboxId }).where('id', '=', id).execute();
    await recordAudit(trx, ctx, {
      action: due.kind === 'quote_sender' ? 'quote.follow_up_reminded' : 'quote.customer_reminded',
      workspaceId: c.workspace_id,
      targetIds: [c.id, c.lead_id],
      details: {
        revision: Number(c.revision),
        days: due.days,
        ...(due.kind === 'quote_customer' ? { reminder: due.ordinal } : {}),
      },
    });
    return true;
  });
}

/**
 * The open revisions sent since `since` in workspaces with a follow-up on: sent or viewed, the latest of their quote.
 * Kept apart so a test can pin its plan: `quotes_open_sent` (migration 0047), written as that partial index's own
 * condition (as the list does its own, for SQLite's planner), so the job reads only what awaits an answer.
 */
export function followUpCandidatesQuery(ctx: DomainContext, since: string) {
  return ctx.store.db
    .selectFrom('quotes as q')
    .innerJoin('workspaces as w', 'w.id', 'q.workspace_id')
    .select([
      'q.id',
      'q.chain_id',
      'q.workspace_id',
      'q.lead_id',
      'q.revision',
      'q.sent_at',
      'q.valid_until',
      'q.customer_email',
      'q.sent_by_user_id',
      'w.time_zone',
      'w.follow_up_days',
      'w.customer_reminder_days',
    ])
    .where(sql<boolean>`q.status in ('sent', 'viewed')`)
    .where('q.sent_at', '>=', since)
    .where((eb) => eb.or([eb('w.follow_up_days', 'is not', null), eb('w.customer_reminder_days', '<>', '[]')]))
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('quotes as later')
            .select('later.id')
            .whereRef('later.chain_id', '=', 'q.chain_id')
            .whereRef('later.revision', '>', 'q.revision'),
        ),
      ),
    )
    .orderBy('q.sent_at');
}

/**
 * One pass of the follow-up job (docs/quotes.md, "Follow-ups"): every workspace's open sent quotes of the last weeks
 * are looked at, and the reminders due today are queued, each once (`remind`); so are overdue invoices' reminders
 * (`remindOverdueInvoices`). Run by each serving process every few
 * minutes (src/jobs/follow-ups.ts) and by `leadscan jobs run follow-ups`; several at once queue each reminder once.
 * With email off nothing is queued: the Needs follow-up list on the Quotes screen still shows what waits.
 */
export async function runFollowUps({ ctx, input }: VerbArgs<{ emailOn: boolean }>): Promise<FollowUpRun> {
  const run: FollowUpRun = { emailOn: input.emailOn, senderReminders: 0, customerReminders: 0, invoiceReminders: 0 };
  if (!input.emailOn) return run;
  const now = ctx.clock.now();
  const since = new Date(now.getTime() - LOOKBACK_DAYS * DAY_MS).toISOString();
  run.invoiceReminders = await remindOverdueInvoices(ctx, REMINDER_HOUR);
  const candidates = (await followUpCandidatesQuery(ctx, since).execute()) as Candidate[];
  const due = candidates.flatMap((c) => dueReminders(c, now));
  if (due.length === 0) return run;
  const { queued, stopped } = await alreadyDone(ctx, [...new Set(due.map((d) => d.candidate))]);
  for (const d of due) {
    if (queued.has(`${d.kind}:${d.candidate.id}:${d.ordinal}`)) continue;
    if (d.kind === 'quote_customer' && stopped.has(d.candidate.chain_id)) continue;
    if (!(await remind(ctx, d))) continue;
    if (d.kind === 'quote_sender') run.senderReminders += 1;
    else run.customerReminders += 1;
  }
  return run;
}
