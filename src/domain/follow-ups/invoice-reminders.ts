import { sql } from 'kysely';
import { recordAudit } from '../audit/record-audit.js';
import type { DomainContext } from '../context.js';
import { newId } from '../ids.js';
import { localDayAndHour } from '../notifications/choices.js';
import { queueInvoiceEmail } from '../notifications/invoice-emails.js';
import { addDays } from '../quotes/quote-view.js';
import { INVOICE_REMINDERS } from '../settings/follow-up-settings.js';

/** Invoices due longer ago than the largest day the setting allows (and a day more for the zones) have nothing due. */
const LOOKBACK_DAYS = INVOICE_REMINDERS.max + 2;

/** An open invoice with a customer address in a workspace whose overdue reminders are on. */
interface OverdueCandidate {
  id: string;
  workspace_id: string;
  lead_id: string | null;
  due_date: string;
  time_zone: string | null;
  invoice_reminder_days: string;
}

/**
 * The open invoices (sent, viewed, partly paid) due since `sinceDay` with a customer address, in workspaces with
 * overdue reminders on. Read by the partial index `invoices_workspace_open_due` (migration 0048), its condition
 * spelled out as the list does.
 */
export function overdueCandidatesQuery(ctx: DomainContext, sinceDay: string) {
  return ctx.store.db
    .selectFrom('invoices as i')
    .innerJoin('workspaces as w', 'w.id', 'i.workspace_id')
    .select(['i.id', 'i.workspace_id', 'i.lead_id', 'i.due_date', 'w.time_zone', 'w.invoice_reminder_days'])
    .where(sql<boolean>`i.status in ('sent', 'viewed', 'partly_paid')`)
    .where('i.due_date', '>=', sinceDay)
    .where('i.kind', '<>', 'credit_note')
    .where('i.customer_email', 'is not', null)
    .where('w.invoice_reminder_days', '<>', '[]')
    .orderBy('i.due_date');
}

/**
 * The reminder due today for one overdue invoice: the latest of the workspace's days after the due date that has
 * come (an earlier one the job missed is not sent late once the next is due), from `reminderHour` in the workspace's
 * time zone. `ordinal` counts from 1.
 */
export function dueInvoiceReminder(
  c: OverdueCandidate,
  now: Date,
  reminderHour: number,
): { ordinal: number; days: number } | undefined {
  const { day: today, hour } = localDayAndHour(now, c.time_zone ?? 'UTC');
  if (hour < reminderHour) return undefined;
  const days = JSON.parse(c.invoice_reminder_days) as number[];
  const last = days.findLastIndex((d) => addDays(c.due_date, d) <= today);
  return last < 0 ? undefined : { ordinal: last + 1, days: days[last]! };
}

/**
 * Queues one overdue reminder to the customer, once: in one transaction the invoice is checked to be still open with
 * a balance (a payment in full, a void or a credit note covering it stops its reminders), the reminder's row is
 * claimed by its unique key (`invoice_customer`, the invoice, the ordinal), the email goes into the outbox and the
 * audit log records it. Of two instances that claim the same key the second queues nothing.
 */
async function remindOverdue(
  ctx: DomainContext,
  c: OverdueCandidate,
  due: { ordinal: number; days: number },
): Promise<boolean> {
  return ctx.store.writer.write(async (trx) => {
    const open = await trx
      .selectFrom('invoices')
      .select(['id', 'customer_email'])
      .where('id', '=', c.id)
      .where('status', 'in', ['sent', 'viewed', 'partly_paid'])
      .where('balance', '>', 0)
      .executeTakeFirst();
    if (!open?.customer_email) return false;
    const claimed = await trx
      .insertInto('reminders')
      .values({
        id: newId('rem'),
        workspace_id: c.workspace_id,
        kind: 'invoice_customer',
        subject_id: c.id,
        ordinal: due.ordinal,
        quote_id: null,
        chain_id: null,
        outbox_id: null,
        stop_token_hash: null,
        stopped_at: null,
        created_at: ctx.clock.now().toISOString(),
      })
      .onConflict((oc) => oc.columns(['kind', 'subject_id', 'ordinal']).doNothing())
      .returning('id')
      .executeTakeFirst();
    if (!claimed) return false;
    await queueInvoiceEmail(trx, ctx, {
      to: open.customer_email,
      workspaceId: c.workspace_id,
      payload: { event: 'overdue', invoiceId: c.id },
    });
    await recordAudit(trx, ctx, {
      action: 'invoice.customer_reminded',
      workspaceId: c.workspace_id,
      targetIds: [c.id, ...(c.lead_id ? [c.lead_id] : [])],
      details: { days: due.days, reminder: due.ordinal },
    });
    return true;
  });
}

/**
 * The overdue invoices' part of the follow-up job (docs/quotes.md, "Follow-ups"): each open invoice past its due
 * date gets the reminder due today, once. Answers how many were queued.
 */
export async function remindOverdueInvoices(ctx: DomainContext, reminderHour: number): Promise<number> {
  const now = ctx.clock.now();
  const sinceDay = new Date(now.getTime() - LOOKBACK_DAYS * 24 * 60 * 60_000).toISOString().slice(0, 10);
  const candidates = (await overdueCandidatesQuery(ctx, sinceDay).execute()) as OverdueCandidate[];
  let queued = 0;
  for (const c of candidates) {
    const due = dueInvoiceReminder(c, now, reminderHour);
    if (!due) continue;
    const done = await ctx.store.db
      .selectFrom('reminders')
      .select('id')
      .where('kind', '=', 'invoice_customer')
      .where('subject_id', '=', c.id)
      .where('ordinal', '=', due.ordinal)
      .executeTakeFirst();
    if (done) continue;
    if (await remindOverdue(ctx, c, due)) queued += 1;
  }
  return queued;
}
