import { nowIso, type WorkspaceVerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import type { Role } from '../roles.js';

export type LeadEmails = 'each' | 'daily' | 'never';
export type ScanEmails = 'each' | 'never';

export interface NotificationChoices {
  leads: LeadEmails;
  scans: ScanEmails;
}

export const LEAD_EMAIL_CHOICES: readonly LeadEmails[] = ['each', 'daily', 'never'];
export const SCAN_EMAIL_CHOICES: readonly ScanEmails[] = ['each', 'never'];

/**
 * What a person gets before they choose: owners hear about each new lead and scan (someone must, or a lead waits
 * unseen), members nothing until they opt in (a large crew should not all be mailed every lead).
 */
export function defaultChoices(role: Role | string): NotificationChoices {
  return role === 'owner' ? { leads: 'each', scans: 'each' } : { leads: 'never', scans: 'never' };
}

/** A stored row, or the role's default. */
export function choicesOf(role: string, row: { leads: string; scans: string } | undefined): NotificationChoices {
  if (!row) return defaultChoices(role);
  return { leads: row.leads as LeadEmails, scans: row.scans as ScanEmails };
}

/** The person's choices in a workspace they belong to. */
export async function getNotificationChoices({
  ctx,
  input,
}: WorkspaceVerbArgs<{ userId: string }>): Promise<NotificationChoices> {
  const row = await ctx.store.db
    .selectFrom('memberships')
    .leftJoin('notification_choices as c', (join) =>
      join.onRef('c.workspace_id', '=', 'memberships.workspace_id').onRef('c.user_id', '=', 'memberships.user_id'),
    )
    .select(['memberships.role', 'c.leads', 'c.scans'])
    .where('memberships.workspace_id', '=', ctx.workspaceId)
    .where('memberships.user_id', '=', input.userId)
    .executeTakeFirst();
  if (!row) throw new AppError('workspace_not_found', 'You are not a member of this workspace');
  return choicesOf(
    row.role,
    row.leads === null || row.scans === null ? undefined : { leads: row.leads, scans: row.scans },
  );
}

function checkChoice<T extends string>(field: string, value: string, allowed: readonly T[], message: string): T {
  if (!(allowed as readonly string[]).includes(value)) {
    throw new AppError('invalid_fields', message, [{ field, code: 'invalid', message }]);
  }
  return value as T;
}

/**
 * Saves a person's choices. Choosing the daily summary after today's 08:00 starts it tomorrow, covering from now:
 * nobody gets a summary of leads they were just told about one by one.
 */
export async function setNotificationChoices({
  ctx,
  input,
}: WorkspaceVerbArgs<{ userId: string; leads: string; scans: string }>): Promise<NotificationChoices> {
  const leads = checkChoice('leads', input.leads, LEAD_EMAIL_CHOICES, 'Choose each lead, a daily summary or never');
  const scans = checkChoice('scans', input.scans, SCAN_EMAIL_CHOICES, 'Choose each scan or never');
  const now = nowIso(ctx);
  await ctx.store.writer.write(async (trx) => {
    const member = await trx
      .selectFrom('memberships')
      .innerJoin('workspaces', 'workspaces.id', 'memberships.workspace_id')
      .select(['workspaces.time_zone'])
      .where('memberships.workspace_id', '=', ctx.workspaceId)
      .where('memberships.user_id', '=', input.userId)
      .executeTakeFirst();
    if (!member) throw new AppError('workspace_not_found', 'You are not a member of this workspace');
    const previous = await trx
      .selectFrom('notification_choices')
      .select(['leads', 'digest_day', 'digest_through'])
      .where('workspace_id', '=', ctx.workspaceId)
      .where('user_id', '=', input.userId)
      .executeTakeFirst();
    const startsDigest = leads === 'daily' && previous?.leads !== 'daily';
    const digest = startsDigest
      ? { digest_day: pastDigestHour(ctx.clock.now(), member.time_zone ?? 'UTC') ?? null, digest_through: now }
      : { digest_day: previous?.digest_day ?? null, digest_through: previous?.digest_through ?? null };
    await trx
      .insertInto('notification_choices')
      .values({ workspace_id: ctx.workspaceId, user_id: input.userId, leads, scans, updated_at: now, ...digest })
      .onConflict((oc) =>
        oc.columns(['workspace_id', 'user_id']).doUpdateSet({ leads, scans, updated_at: now, ...digest }),
      )
      .execute();
    // What was waiting for an email the person no longer wants is dropped with the choice.
    const dropped = [...(leads === 'each' ? [] : ['lead']), ...(scans === 'each' ? [] : ['scan'])];
    if (dropped.length > 0) {
      await trx
        .deleteFrom('notification_pending')
        .where('workspace_id', '=', ctx.workspaceId)
        .where('user_id', '=', input.userId)
        .where('kind', 'in', dropped)
        .execute();
    }
  });
  return { leads, scans };
}

/** The hour of the day the daily summary goes out, in the workspace's time zone. */
export const DIGEST_HOUR = 8;

/** The local date and hour of `at` in `timeZone`. */
export function localDayAndHour(at: Date, timeZone: string): { day: string; hour: number } {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    hourCycle: 'h23',
  }).formatToParts(at);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  return { day: `${part('year')}-${part('month')}-${part('day')}`, hour: Number(part('hour')) };
}

/** The local day when `at` is at or past that day's summary hour; undefined before it. */
export function pastDigestHour(at: Date, timeZone: string): string | undefined {
  const { day, hour } = localDayAndHour(at, timeZone);
  return hour >= DIGEST_HOUR ? day : undefined;
}
