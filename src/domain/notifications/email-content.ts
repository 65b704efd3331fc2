import { linkBaseUrl } from '../server-base-url.js';
import type { DomainContext } from '../context.js';
import type { ClaimedEmail, OutboxPayload } from './outbox.js';
import { quoteEmailContent, type QuoteEmailContent } from './quote-emails.js';
import { confirmationContent, type ConfirmationContent } from './sender-confirmation.js';
import { followUpContent, type FollowUpContent } from './follow-up-emails.js';
import { invoiceEmailContent, type InvoiceEmailContent } from './invoice-emails.js';

/** A lead as an email shows it: its own fields and extra fields, the source and time; no IP, no headers. */
export interface EmailLead {
  id: string;
  name: string | null;
  email: string | null;
  phone: string | null;
  address: string | null;
  notes: string | null;
  extra: Record<string, string>;
  sourceId: string;
  sourceName: string;
  receivedAt: string;
  url: string;
}

export interface EmailScan {
  id: string;
  roomCount: number;
  receivedAt: string;
  url: string;
}

/** The emails about a person's account, with the time zone their times are shown in. */
export type AccountEmailContent = Extract<OutboxPayload, { kind: AccountEmailKind }> & { timeZone: string };
const ACCOUNT_EMAILS = ['invite', 'password_reset', 'email_change', 'email_in_use', 'email_changed'] as const;
type AccountEmailKind = (typeof ACCOUNT_EMAILS)[number];

/** Everything an email's template needs, read when it is sent. */
export type EmailContent =
  | {
      kind: 'arrivals';
      workspaceName: string;
      timeZone: string;
      /** The workspace's locale: dates read as on its pages (docs/admin-app.md, "Dates"). */
      locale: string;
      leads: EmailLead[];
      scans: EmailScan[];
      /** Every lead and scan the email stands for, named or not (a flood is counted, its first leads named). */
      leadTotal: number;
      scanTotal: number;
      /** Sources with leads the email counts but does not name, and how many. */
      unnamed: Array<{ sourceName: string; count: number }>;
      inboxUrl: string;
      scansUrl: string;
      settingsUrl: string;
    }
  | {
      kind: 'digest';
      workspaceName: string;
      timeZone: string;
      locale: string;
      leads: EmailLead[];
      total: number;
      from: string;
      to: string;
      inboxUrl: string;
      settingsUrl: string;
    }
  | { kind: 'test'; requestedBy: string; baseUrl: string }
  | QuoteEmailContent
  | AccountEmailContent
  | ConfirmationContent
  | FollowUpContent
  | InvoiceEmailContent
  | Exclude<
      OutboxPayload,
      { kind: 'arrivals' | 'digest' | 'test' | 'quote' | 'confirmation' | 'follow_up' | 'invoice' | AccountEmailKind }
    >;

const isAccountEmail = (payload: OutboxPayload): payload is Extract<OutboxPayload, { kind: AccountEmailKind }> =>
  (ACCOUNT_EMAILS as readonly string[]).includes(payload.kind);

/**
 * The zone an account email's times are shown in: its workspace's (an invitation), else the zone of the first
 * workspace the person joined (a password reset or an email change belongs to no workspace, and most people have
 * one), else UTC. Each time is written with its zone's abbreviation, so it is never ambiguous.
 */
async function accountTimeZone(ctx: DomainContext, email: ClaimedEmail): Promise<string> {
  const row = email.workspaceId
    ? await ctx.store.db
        .selectFrom('workspaces')
        .select('time_zone')
        .where('id', '=', email.workspaceId)
        .executeTakeFirst()
    : email.userId
      ? await ctx.store.db
          .selectFrom('memberships')
          .innerJoin('workspaces', 'workspaces.id', 'memberships.workspace_id')
          .select('workspaces.time_zone')
          .where('memberships.user_id', '=', email.userId)
          .orderBy('memberships.created_at')
          .orderBy('memberships.workspace_id')
          .limit(1)
          .executeTakeFirst()
      : undefined;
  return row?.time_zone ?? 'UTC';
}

const path = (base: string, ...parts: string[]) => `${base}/${parts.map(encodeURIComponent).join('/')}`;

/**
 * What a claimed email says, from the database as it is now: leads and scans deleted or erased since it was queued
 * are left out, and an email left with nothing to say is `undefined` (the sender drops it).
 */
export async function emailContent(ctx: DomainContext, email: ClaimedEmail): Promise<EmailContent | undefined> {
  const { payload } = email;
  if (payload.kind === 'test')
    return { kind: 'test', requestedBy: payload.requestedBy, baseUrl: await linkBaseUrl(ctx) };
  if (payload.kind === 'quote') return quoteEmailContent(ctx, payload, email.workspaceId);
  if (payload.kind === 'confirmation') return confirmationContent(ctx, email.workspaceId);
  if (payload.kind === 'follow_up') return followUpContent(ctx, payload, email.workspaceId);
  if (payload.kind === 'invoice') return invoiceEmailContent(ctx, payload, email.workspaceId);
  if (isAccountEmail(payload)) return { ...payload, timeZone: await accountTimeZone(ctx, email) };
  if (payload.kind !== 'arrivals' && payload.kind !== 'digest') return payload;
  if (email.workspaceId === null) return undefined;
  const workspace = await ctx.store.db
    .selectFrom('workspaces')
    .select(['id', 'name', 'time_zone', 'locale'])
    .where('id', '=', email.workspaceId)
    .executeTakeFirst();
  if (!workspace) return undefined;
  const base = path(await linkBaseUrl(ctx), 'w', workspace.id);
  const leads = await leadsOf(ctx, workspace.id, payload.leadIds, base);
  const common = {
    workspaceName: workspace.name,
    timeZone: workspace.time_zone ?? 'UTC',
    locale: workspace.locale ?? 'en-US',
    inboxUrl: `${base}/leads`,
    settingsUrl: `${base}/notifications`,
  };
  if (payload.kind === 'digest') {
    if (leads.length === 0) return undefined;
    return { kind: 'digest', ...common, leads, total: payload.total, from: payload.from, to: payload.to };
  }
  const scans =
    payload.scanIds.length === 0
      ? []
      : await ctx.store.db
          .selectFrom('scans')
          .select(['id', 'room_count', 'received_at'])
          .where('workspace_id', '=', workspace.id)
          .where('id', 'in', payload.scanIds)
          .orderBy('received_at')
          .execute();
  if (leads.length === 0 && scans.length === 0) return undefined;
  // Counts from when the email was written, less the named leads and scans deleted since.
  const goneLeads = payload.leadIds.length - leads.length;
  const counted = payload.leadsBySource ?? [];
  const named = new Map<string, number>();
  for (const lead of leads) named.set(lead.sourceId, (named.get(lead.sourceId) ?? 0) + 1);
  const extra = counted.filter((s) => s.count > (named.get(s.sourceId) ?? 0));
  const sourceNames =
    extra.length === 0
      ? new Map<string, string>()
      : new Map(
          (
            await ctx.store.db
              .selectFrom('lead_sources')
              .select(['id', 'name'])
              .where(
                'id',
                'in',
                extra.map((s) => s.sourceId),
              )
              .execute()
          ).map((s) => [s.id, s.name]),
        );
  const unnamed = extra.map((s) => ({
    sourceName: sourceNames.get(s.sourceId) ?? 'a deleted source',
    count: s.count - (named.get(s.sourceId) ?? 0),
  }));
  const leadTotal = Math.max(leads.length, counted.reduce((n, s) => n + s.count, 0) - goneLeads);
  const scanTotal = Math.max(scans.length, (payload.scanTotal ?? 0) - (payload.scanIds.length - scans.length));
  return {
    kind: 'arrivals',
    ...common,
    leads,
    leadTotal,
    scanTotal,
    unnamed,
    scans: scans.map((s) => ({
      id: s.id,
      roomCount: s.room_count,
      receivedAt: s.received_at,
      url: `${base}/scans/${encodeURIComponent(s.id)}`,
    })),
    scansUrl: `${base}/scans`,
  };
}

async function leadsOf(ctx: DomainContext, workspaceId: string, ids: string[], base: string): Promise<EmailLead[]> {
  if (ids.length === 0) return [];
  const rows = await ctx.store.db
    .selectFrom('leads')
    .innerJoin('lead_sources', 'lead_sources.id', 'leads.source_id')
    .select([
      'leads.id',
      'leads.name',
      'leads.email',
      'leads.phone',
      'leads.address',
      'leads.notes',
      'leads.extra',
      'leads.received_at',
      'lead_sources.id as source_id',
      'lead_sources.name as source_name',
    ])
    .where('leads.workspace_id', '=', workspaceId)
    .where('leads.id', 'in', ids)
    .orderBy('leads.received_at')
    .execute();
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    email: row.email,
    phone: row.phone,
    address: row.address,
    notes: row.notes,
    extra: JSON.parse(row.extra) as Record<string, string>,
    sourceId: row.source_id,
    sourceName: row.source_name,
    receivedAt: row.received_at,
    url: `${base}/leads/${encodeURIComponent(row.id)}`,
  }));
}
