import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { App } from '../../src/app.js';
import { CsrfTokens } from '../../src/domain/csrf.js';
import { createSession } from '../../src/domain/auth/sessions.js';
import { createUser } from '../../src/domain/users/create-user.js';
import { removeUser } from '../../src/domain/users/remove-user.js';
import type { Schema } from '../../src/storage/schema.js';
import { describeEachBackend } from './backends.js';
import { createWorld, type Seeded, type TestWorld } from './test-app.js';
import { leadsFixtureExtra } from './admin-leads-fixture.js';
import { addFormField } from '../../src/domain/forms/add-form-field.js';
import { quotesFixtureExtra } from './admin-quotes-fixture.js';
import { invoicesFixtureExtra } from './admin-invoices-fixture.js';

/**
 * Security cases for every admin route, generated from one table (docs/architecture.md). A route's entry says how to reach it
 * in the fixture below; `adminSecurityCases` then yields, for each route:
 *   - signed out → 303 to /login;
 *   - a person of another workspace → 404 (and a resource of another workspace through one's own → 404);
 *   - a `member` on an owner route → 403, nothing changed;
 *   - POST without the CSRF token, with another session's token, or from a foreign Origin → 403, nothing changed;
 *   - a removed member's session → refused on the very next request.
 * A `public` route (signing in, password links) has no session to check, so it gets only what applies to it: the
 * page for a signed-out visitor, and a POST from a foreign Origin or marked cross-site → 403, nothing changed.
 * "Nothing changed" compares every table in SNAPSHOT_TABLES before and after.
 *
 * To cover new routes (e.g. the Leads screens): add entries to ADMIN_ROUTE_CASES (the suite fails while a route of
 * ADMIN_AREAS has none), create what they need in `createAdminFixture` (or in `extra`), and add the tables they
 * change to SNAPSHOT_TABLES.
 */

export interface Person {
  userId: string;
  email: string;
  sessionId: string;
  cookie: string;
  csrf: string;
}

export interface AdminFixture {
  world: TestWorld;
  app: App;
  /** The workspace the routes are exercised in, and another one. */
  home: Seeded;
  away: Seeded;
  owner: Person;
  member: Person;
  /** Owner of `away` only. */
  stranger: Person;
  /** A scan in each workspace. */
  homeScanId: string;
  awayScanId: string;
  /** Free-form ids other areas add (leads, …). */
  extra: Record<string, string>;
}

export interface AdminRouteCase {
  method: 'GET' | 'POST';
  /** The route's path exactly as registered, e.g. `/w/:workspaceId/scans/:scanId`. */
  path: string;
  /** The concrete URL in `home`. */
  url(f: AdminFixture): string;
  /** A URL in `home` naming a resource of `away` (must answer 404 like a missing one). */
  foreignUrl?(f: AdminFixture): string;
  /** Form fields of a valid POST besides `_csrf`. */
  form?(f: AdminFixture): Record<string, string>;
  /** What the rightful visitor gets past the gate, when not 200: a GET's redirect, a public POST's refusal by the verb. */
  status?: number;
}

/** Tables an admin action may change; each refused request must leave all of them as they were. */
export const SNAPSHOT_TABLES: Array<keyof Schema> = [
  'workspaces',
  'pipelines',
  'lead_sources',
  'lead_source_texts',
  'upload_keys',
  'scans',
  'scan_rooms',
  'scan_unread',
  'scan_measurements',
  'leads',
  'users',
  'memberships',
  'setup_links',
  'email_changes',
  'invitations',
  'quarantine',
  'stages',
  'stage_history',
  'lead_unread',
  'lead_notes',
  'lead_events',
  'notification_choices',
  'outbox',
  // A refused request records nothing either.
  'audit_log',
  'job_claims',
  'price_list_items',
  'quotes',
  'quote_lines',
  'quote_counters',
  'reminders',
  'quote_outcomes',
  'quote_report_months',
  'invoices',
  'invoice_lines',
  'invoice_payments',
  'invoice_counters',
];

const ws = (f: AdminFixture, rest = '') => `/w/${f.home.workspaceId}${rest}`;
const src = (f: AdminFixture, rest = '') => ws(f, `/sources/${f.home.source.id}${rest}`);
const awaySrc = (f: AdminFixture, rest = '') => ws(f, `/sources/${f.away.source.id}${rest}`);

/** Every admin route behind the gate. */
export const ADMIN_ROUTE_CASES: AdminRouteCase[] = [
  // Scans
  { method: 'GET', path: '/w/:workspaceId/scans', url: (f) => ws(f, '/scans') },
  // Copy writes the audit log, so it is a POST (a GET would let a link from another site write records).
  { method: 'POST', path: '/w/:workspaceId/scans/key', url: (f) => ws(f, '/scans/key') },
  { method: 'POST', path: '/w/:workspaceId/scans/key/regenerate', url: (f) => ws(f, '/scans/key/regenerate') },
  {
    method: 'GET',
    path: '/w/:workspaceId/scans/:scanId',
    url: (f) => ws(f, `/scans/${f.homeScanId}`),
    foreignUrl: (f) => ws(f, `/scans/${f.awayScanId}`),
  },
  {
    method: 'GET',
    path: '/w/:workspaceId/scans/:scanId/body',
    url: (f) => ws(f, `/scans/${f.homeScanId}/body`),
    foreignUrl: (f) => ws(f, `/scans/${f.awayScanId}/body`),
  },
  {
    method: 'GET',
    path: '/w/:workspaceId/scans/:scanId/measurements.csv',
    url: (f) => ws(f, `/scans/${f.homeScanId}/measurements.csv`),
    foreignUrl: (f) => ws(f, `/scans/${f.awayScanId}/measurements.csv`),
  },
  {
    method: 'GET',
    path: '/w/:workspaceId/scans/:scanId/measurements.xlsx',
    url: (f) => ws(f, `/scans/${f.homeScanId}/measurements.xlsx`),
    foreignUrl: (f) => ws(f, `/scans/${f.awayScanId}/measurements.xlsx`),
  },
  {
    method: 'GET',
    path: '/w/:workspaceId/scans/:scanId/rooms/:index',
    url: (f) => ws(f, `/scans/${f.homeScanId}/rooms/0`),
    foreignUrl: (f) => ws(f, `/scans/${f.awayScanId}/rooms/0`),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/scans/:scanId/attach',
    url: (f) => ws(f, `/scans/${f.homeScanId}/attach`),
    foreignUrl: (f) => ws(f, `/scans/${f.awayScanId}/attach`),
    form: (f) => ({ leadId: f.extra.homeLeadId! }),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/scans/:scanId/rooms/:room/rename',
    url: (f) => ws(f, `/scans/${f.homeScanId}/rooms/1/rename`),
    foreignUrl: (f) => ws(f, `/scans/${f.awayScanId}/rooms/1/rename`),
    form: () => ({ name: 'Renamed room' }),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/scans/:scanId/detach',
    url: (f) => ws(f, `/scans/${f.homeScanId}/detach`),
    foreignUrl: (f) => ws(f, `/scans/${f.awayScanId}/detach`),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/scans/:scanId/delete',
    url: (f) => ws(f, `/scans/${f.homeScanId}/delete`),
    foreignUrl: (f) => ws(f, `/scans/${f.awayScanId}/delete`),
  },
  // Leads, stages and quarantine
  { method: 'GET', path: '/w/:workspaceId/leads', url: (f) => ws(f, '/leads') },
  {
    method: 'GET',
    path: '/w/:workspaceId/pipelines/:pipelineId/leads',
    url: (f) => ws(f, `/pipelines/${f.home.pipelineId}/leads?q=555&stage=inbox`),
    foreignUrl: (f) => ws(f, `/pipelines/${f.away.pipelineId}/leads`),
  },
  {
    method: 'GET',
    path: '/w/:workspaceId/pipelines/:pipelineId/leads.csv',
    url: (f) => ws(f, `/pipelines/${f.home.pipelineId}/leads.csv`),
    foreignUrl: (f) => ws(f, `/pipelines/${f.away.pipelineId}/leads.csv`),
  },
  {
    method: 'GET',
    path: '/w/:workspaceId/pipelines/:pipelineId/leads.xlsx',
    url: (f) => ws(f, `/pipelines/${f.home.pipelineId}/leads.xlsx`),
    foreignUrl: (f) => ws(f, `/pipelines/${f.away.pipelineId}/leads.xlsx`),
  },
  {
    method: 'GET',
    path: '/w/:workspaceId/leads/:leadId',
    url: (f) => ws(f, `/leads/${f.extra.homeLeadId}`),
    foreignUrl: (f) => ws(f, `/leads/${f.extra.awayLeadId}`),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/leads/:leadId/move',
    url: (f) => ws(f, `/leads/${f.extra.homeLeadId}/move`),
    foreignUrl: (f) => ws(f, `/leads/${f.extra.awayLeadId}/move`),
    form: () => ({ stage: 'contacted' }),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/leads/:leadId/notes',
    url: (f) => ws(f, `/leads/${f.extra.homeLeadId}/notes`),
    foreignUrl: (f) => ws(f, `/leads/${f.extra.awayLeadId}/notes`),
    form: () => ({ text: 'Quote sent' }),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/leads/:leadId/notes/:noteId/delete',
    url: (f) => ws(f, `/leads/${f.extra.homeLeadId}/notes/${f.extra.homeNoteId}/delete`),
    foreignUrl: (f) => ws(f, `/leads/${f.extra.awayLeadId}/notes/${f.extra.awayNoteId}/delete`),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/leads/:leadId/assign',
    url: (f) => ws(f, `/leads/${f.extra.homeLeadId}/assign`),
    foreignUrl: (f) => ws(f, `/leads/${f.extra.awayLeadId}/assign`),
    form: (f) => ({ assignee: f.member.userId }),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/leads/:leadId/follow-up',
    url: (f) => ws(f, `/leads/${f.extra.homeLeadId}/follow-up`),
    foreignUrl: (f) => ws(f, `/leads/${f.extra.awayLeadId}/follow-up`),
    form: () => ({ followUp: '2026-12-01' }),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/leads/:leadId/spam',
    url: (f) => ws(f, `/leads/${f.extra.homeLeadId}/spam`),
    foreignUrl: (f) => ws(f, `/leads/${f.extra.awayLeadId}/spam`),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/leads/:leadId/delete',
    url: (f) => ws(f, `/leads/${f.extra.homeLeadId}/delete`),
    foreignUrl: (f) => ws(f, `/leads/${f.extra.awayLeadId}/delete`),
  },
  {
    method: 'GET',
    path: '/w/:workspaceId/pipelines/:pipelineId/stages',
    url: (f) => ws(f, `/pipelines/${f.home.pipelineId}/stages`),
    foreignUrl: (f) => ws(f, `/pipelines/${f.away.pipelineId}/stages`),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/pipelines/:pipelineId/stages',
    url: (f) => ws(f, `/pipelines/${f.home.pipelineId}/stages`),
    foreignUrl: (f) => ws(f, `/pipelines/${f.away.pipelineId}/stages`),
    form: () => ({ name: 'Site visit' }),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/pipelines/:pipelineId/stages/:stageKey/rename',
    url: (f) => ws(f, `/pipelines/${f.home.pipelineId}/stages/quoted/rename`),
    foreignUrl: (f) => ws(f, `/pipelines/${f.away.pipelineId}/stages/quoted/rename`),
    form: () => ({ name: 'Estimate sent' }),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/pipelines/:pipelineId/stages/:stageKey/move',
    url: (f) => ws(f, `/pipelines/${f.home.pipelineId}/stages/won/move`),
    foreignUrl: (f) => ws(f, `/pipelines/${f.away.pipelineId}/stages/won/move`),
    form: () => ({ direction: 'up' }),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/pipelines/:pipelineId/stages/:stageKey/remove',
    url: (f) => ws(f, `/pipelines/${f.home.pipelineId}/stages/inbox/remove`),
    foreignUrl: (f) => ws(f, `/pipelines/${f.away.pipelineId}/stages/inbox/remove`),
    form: () => ({ moveTo: 'contacted' }),
  },
  { method: 'GET', path: '/w/:workspaceId/quarantine', url: (f) => ws(f, '/quarantine') },
  // Personal data (owners)
  { method: 'GET', path: '/w/:workspaceId/people', url: (f) => ws(f, '/people') },
  { method: 'POST', path: '/w/:workspaceId/people', url: (f) => ws(f, '/people'), form: () => ({ phone: '555 0100' }) },
  {
    method: 'POST',
    path: '/w/:workspaceId/people/export',
    url: (f) => ws(f, '/people/export'),
    form: () => ({ phone: '555 0100' }),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/people/erase',
    url: (f) => ws(f, '/people/erase'),
    form: () => ({ phone: '555 0100' }),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/quarantine/:itemId/restore',
    url: (f) => ws(f, `/quarantine/${f.extra.homeQuarantineId}/restore`),
    foreignUrl: (f) => ws(f, `/quarantine/${f.extra.awayQuarantineId}/restore`),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/quarantine/:itemId/delete',
    url: (f) => ws(f, `/quarantine/${f.extra.homeQuarantineId}/delete`),
    foreignUrl: (f) => ws(f, `/quarantine/${f.extra.awayQuarantineId}/delete`),
  },
  // Sources
  { method: 'GET', path: '/w/:workspaceId/sources', url: (f) => ws(f, '/sources') },
  { method: 'GET', path: '/w/:workspaceId/sources/new', url: (f) => ws(f, '/sources/new') },
  {
    method: 'POST',
    path: '/w/:workspaceId/sources',
    url: (f) => ws(f, '/sources'),
    form: (f) => ({ name: 'Landing page', pipeline: f.home.pipelineId }),
  },
  { method: 'GET', path: '/w/:workspaceId/sources/:sourceId', url: (f) => src(f), foreignUrl: (f) => awaySrc(f) },
  {
    method: 'POST',
    path: '/w/:workspaceId/sources/:sourceId/active',
    url: (f) => src(f, '/active'),
    foreignUrl: (f) => awaySrc(f, '/active'),
    form: () => ({ active: '0' }),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/sources/:sourceId/bot-check',
    url: (f) => src(f, '/bot-check'),
    foreignUrl: (f) => awaySrc(f, '/bot-check'),
    form: () => ({ provider: 'turnstile', secret: 'secret-value', siteKey: 'site-key' }),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/sources/:sourceId/texts',
    url: (f) => src(f, '/texts'),
    foreignUrl: (f) => awaySrc(f, '/texts'),
    form: () => ({ heading: 'Get a quote', introduction: 'Hi', thankYou: 'Thanks!' }),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/sources/:sourceId/confirmation',
    url: (f) => src(f, '/confirmation'),
    foreignUrl: (f) => awaySrc(f, '/confirmation'),
    form: () => ({ confirmSender: '0' }),
  },
  {
    method: 'GET',
    path: '/w/:workspaceId/sources/:sourceId/spam',
    url: (f) => src(f, '/spam'),
    foreignUrl: (f) => awaySrc(f, '/spam'),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/sources/:sourceId/spam',
    url: (f) => src(f, '/spam'),
    foreignUrl: (f) => awaySrc(f, '/spam'),
    form: () => ({
      blockedEmails: 'spammer@example.com',
      blockedDomains: '',
      blockedWords: 'casino',
      allowedSites: '',
    }),
  },
  // A source's form
  {
    method: 'GET',
    path: '/w/:workspaceId/sources/:sourceId/form',
    url: (f) => src(f, '/form'),
    foreignUrl: (f) => awaySrc(f, '/form'),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/sources/:sourceId/form/fields',
    url: (f) => src(f, '/form/fields'),
    foreignUrl: (f) => awaySrc(f, '/form/fields'),
    form: () => ({ kind: 'choice', label: 'Type of work', options: 'Kitchen\nRoof', required: '1' }),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/sources/:sourceId/form/fields/:fieldId',
    url: (f) => src(f, `/form/fields/${f.extra.homeFieldId}`),
    foreignUrl: (f) => awaySrc(f, `/form/fields/${f.extra.awayFieldId}`),
    form: () => ({ label: 'Kind of work', options: 'Kitchen\nRoof\nBath', required: '1' }),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/sources/:sourceId/form/built-in/:name',
    url: (f) => src(f, '/form/built-in/phone'),
    foreignUrl: (f) => awaySrc(f, '/form/built-in/phone'),
    form: () => ({ label: 'Mobile', shown: '1', required: '1' }),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/sources/:sourceId/form/fields/:fieldId/move',
    url: (f) => src(f, `/form/fields/${f.extra.homeFieldId}/move`),
    foreignUrl: (f) => src(f, `/form/fields/${f.extra.awayFieldId}/move`),
    form: () => ({ direction: 'up' }),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/sources/:sourceId/form/fields/:fieldId/remove',
    url: (f) => src(f, `/form/fields/${f.extra.homeFieldId}/remove`),
    foreignUrl: (f) => awaySrc(f, `/form/fields/${f.extra.awayFieldId}/remove`),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/sources/:sourceId/form/look',
    url: (f) => src(f, '/form/look'),
    foreignUrl: (f) => awaySrc(f, '/form/look'),
    form: () => ({ accent: '#0b6e4f' }),
  },
  // Members
  { method: 'GET', path: '/w/:workspaceId/members', url: (f) => ws(f, '/members') },
  {
    method: 'POST',
    path: '/w/:workspaceId/members',
    url: (f) => ws(f, '/members'),
    form: () => ({ email: 'new.person@example.com', role: 'member' }),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/members/invitations/:invitationId/cancel',
    url: (f) => ws(f, `/members/invitations/${f.extra.homeInvitationId}/cancel`),
    foreignUrl: (f) => ws(f, `/members/invitations/${f.extra.ownerInvitationId}/cancel`),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/members/:userId/role',
    url: (f) => ws(f, `/members/${f.member.userId}/role`),
    foreignUrl: (f) => ws(f, `/members/${f.stranger.userId}/role`),
    form: () => ({ role: 'owner' }),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/members/:userId/remove',
    url: (f) => ws(f, `/members/${f.member.userId}/remove`),
    foreignUrl: (f) => ws(f, `/members/${f.stranger.userId}/remove`),
  },
  // Settings (owners)
  { method: 'GET', path: '/w/:workspaceId/settings', url: (f) => ws(f, '/settings') },
  {
    method: 'POST',
    path: '/w/:workspaceId/settings',
    url: (f) => ws(f, '/settings'),
    form: () => ({
      name: 'Home renamed',
      timeZone: 'America/Toronto',
      units: 'imperial',
      leadRetention: '12',
      scanRetention: 'off',
    }),
  },
  // Audit log (owners)
  { method: 'GET', path: '/w/:workspaceId/audit', url: (f) => ws(f, '/audit') },
  // Notifications (everyone: their own choices)
  { method: 'GET', path: '/w/:workspaceId/notifications', url: (f) => ws(f, '/notifications') },
  {
    method: 'POST',
    path: '/w/:workspaceId/notifications',
    url: (f) => ws(f, '/notifications'),
    form: () => ({ leads: 'daily', scans: 'never' }),
  },
  { method: 'POST', path: '/w/:workspaceId/notifications/test', url: (f) => ws(f, '/notifications/test') },
  // Account (any signed-in person; no workspace in the URL)
  // Price list
  { method: 'GET', path: '/w/:workspaceId/settings/price-list', url: (f) => ws(f, '/settings/price-list') },
  { method: 'GET', path: '/w/:workspaceId/settings/price-list.csv', url: (f) => ws(f, '/settings/price-list.csv') },
  {
    method: 'POST',
    path: '/w/:workspaceId/settings/price-list',
    url: (f) => ws(f, '/settings/price-list'),
    form: () => ({ name: 'Tiles', unit: 'm2', price: '30' }),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/settings/documents',
    url: (f) => ws(f, '/settings/documents'),
    form: () => ({ paper: 'A4' }),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/settings/price-list/import',
    url: (f) => ws(f, '/settings/price-list/import'),
    form: () => ({ csv: 'name,unit,price\r\nTiles,m2,30\r\n' }),
  },
  {
    method: 'GET',
    path: '/w/:workspaceId/settings/price-list/:itemId',
    url: (f) => ws(f, `/settings/price-list/${f.extra.homeItemId}`),
    foreignUrl: (f) => ws(f, `/settings/price-list/${f.extra.awayItemId}`),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/settings/price-list/:itemId',
    url: (f) => ws(f, `/settings/price-list/${f.extra.homeItemId}`),
    foreignUrl: (f) => ws(f, `/settings/price-list/${f.extra.awayItemId}`),
    form: () => ({ name: 'Paint', unit: 'm2', price: '13' }),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/settings/price-list/:itemId/remove',
    url: (f) => ws(f, `/settings/price-list/${f.extra.homeItemId}/remove`),
    foreignUrl: (f) => ws(f, `/settings/price-list/${f.extra.awayItemId}/remove`),
  },
  // Quotes
  { method: 'GET', path: '/w/:workspaceId/quotes', url: (f) => ws(f, '/quotes') },
  { method: 'GET', path: '/w/:workspaceId/quotes/report', url: (f) => ws(f, '/quotes/report?period=12-months') },
  // Invoices → Export for the accountant
  { method: 'GET', path: '/w/:workspaceId/invoices/export', url: (f) => ws(f, '/invoices/export') },
  {
    method: 'GET',
    path: '/w/:workspaceId/invoices/export.xlsx',
    url: (f) => ws(f, '/invoices/export.xlsx?from=2026-01-01&to=2026-12-31'),
  },
  {
    method: 'GET',
    path: '/w/:workspaceId/invoices/export.csv',
    url: (f) => ws(f, '/invoices/export.csv?from=2026-01-01&to=2026-12-31'),
  },
  // Settings → Follow-ups (owners)
  { method: 'GET', path: '/w/:workspaceId/settings/follow-ups', url: (f) => ws(f, '/settings/follow-ups') },
  {
    method: 'POST',
    path: '/w/:workspaceId/settings/follow-ups',
    url: (f) => ws(f, '/settings/follow-ups'),
    form: () => ({ followUpDays: '5', customerReminders: '3,7', invoiceReminders: '' }),
  },
  {
    method: 'GET',
    path: '/w/:workspaceId/leads/:leadId/quotes/new',
    url: (f) => ws(f, `/leads/${f.extra.homeLeadId}/quotes/new`),
    foreignUrl: (f) => ws(f, `/leads/${f.extra.awayLeadId}/quotes/new`),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/leads/:leadId/quotes',
    url: (f) => ws(f, `/leads/${f.extra.homeLeadId}/quotes`),
    foreignUrl: (f) => ws(f, `/leads/${f.extra.awayLeadId}/quotes`),
  },
  {
    method: 'GET',
    path: '/w/:workspaceId/quotes/:quoteId',
    url: (f) => ws(f, `/quotes/${f.extra.homeDraftId}`),
    foreignUrl: (f) => ws(f, `/quotes/${f.extra.awayDraftId}`),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/quotes/:quoteId',
    url: (f) => ws(f, `/quotes/${f.extra.homeDraftId}`),
    foreignUrl: (f) => ws(f, `/quotes/${f.extra.awayDraftId}`),
    form: () => ({ title: 'Kitchen floor', 'new-description': 'Extra', 'new-price': '5' }),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/quotes/:quoteId/items',
    url: (f) => ws(f, `/quotes/${f.extra.homeDraftId}/items`),
    foreignUrl: (f) => ws(f, `/quotes/${f.extra.awayDraftId}/items`),
    form: (f) => ({ item: f.extra.homeItemId! }),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/quotes/:quoteId/send',
    url: (f) => ws(f, `/quotes/${f.extra.homeDraftId}/send`),
    foreignUrl: (f) => ws(f, `/quotes/${f.extra.awayDraftId}/send`),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/quotes/:quoteId/revise',
    url: (f) => ws(f, `/quotes/${f.extra.homeSentId}/revise`),
    foreignUrl: (f) => ws(f, `/quotes/${f.extra.awaySentId}/revise`),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/quotes/:quoteId/withdraw',
    url: (f) => ws(f, `/quotes/${f.extra.homeSentId}/withdraw`),
    foreignUrl: (f) => ws(f, `/quotes/${f.extra.awaySentId}/withdraw`),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/quotes/:quoteId/copy',
    url: (f) => ws(f, `/quotes/${f.extra.homeSentId}/copy`),
    foreignUrl: (f) => ws(f, `/quotes/${f.extra.awaySentId}/copy`),
  },
  {
    method: 'GET',
    path: '/w/:workspaceId/quotes/:quoteId/pdf',
    url: (f) => ws(f, `/quotes/${f.extra.homeSentId}/pdf`),
    foreignUrl: (f) => ws(f, `/quotes/${f.extra.awaySentId}/pdf`),
    // No server renders in the fixture: the PDF is being made, and the gate's answer is back to the quote's page.
    status: 303,
  },
  {
    method: 'GET',
    path: '/w/:workspaceId/quotes/:quoteId/pdf/accepted',
    url: (f) => ws(f, `/quotes/${f.extra.homeSentId}/pdf/accepted`),
    foreignUrl: (f) => ws(f, `/quotes/${f.extra.awaySentId}/pdf/accepted`),
    // The fixture's quote is sent, not accepted: past the gate, the verb answers `not_accepted`.
    status: 409,
  },
  {
    method: 'GET',
    path: '/w/:workspaceId/quotes/:quoteId/preview',
    url: (f) => ws(f, `/quotes/${f.extra.homeDraftId}/preview`),
    foreignUrl: (f) => ws(f, `/quotes/${f.extra.awayDraftId}/preview`),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/quotes/:quoteId/preview',
    url: (f) => ws(f, `/quotes/${f.extra.homeDraftId}/preview`),
    foreignUrl: (f) => ws(f, `/quotes/${f.extra.awayDraftId}/preview`),
    form: () => ({ title: 'Kitchen floor' }),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/quotes/:quoteId/pdf/retry',
    url: (f) => ws(f, `/quotes/${f.extra.homeSentId}/pdf/retry`),
    foreignUrl: (f) => ws(f, `/quotes/${f.extra.awaySentId}/pdf/retry`),
  },
  // Invoices (docs/admin-app.md, "Invoices")
  { method: 'GET', path: '/w/:workspaceId/invoices', url: (f) => ws(f, '/invoices?status=overdue') },
  {
    method: 'GET',
    path: '/w/:workspaceId/invoices/:invoiceId',
    url: (f) => ws(f, `/invoices/${f.extra.homePaidInvoiceId}`),
    foreignUrl: (f) => ws(f, `/invoices/${f.extra.awayPaidInvoiceId}`),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/invoices/:invoiceId',
    url: (f) => ws(f, `/invoices/${f.extra.homeDraftInvoiceId}`),
    foreignUrl: (f) => ws(f, `/invoices/${f.extra.awayDraftInvoiceId}`),
    form: () => ({ title: 'Floors' }),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/invoices/:invoiceId/send',
    url: (f) => ws(f, `/invoices/${f.extra.homeDraftInvoiceId}/send`),
    foreignUrl: (f) => ws(f, `/invoices/${f.extra.awayDraftInvoiceId}/send`),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/invoices/:invoiceId/payments',
    url: (f) => ws(f, `/invoices/${f.extra.homeSentInvoiceId}/payments`),
    foreignUrl: (f) => ws(f, `/invoices/${f.extra.awaySentInvoiceId}/payments`),
    form: () => ({ amount: '5.00', date: '2020-01-03', method: 'cash' }),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/invoices/:invoiceId/payments/:paymentId/delete',
    url: (f) => ws(f, `/invoices/${f.extra.homePaidInvoiceId}/payments/${f.extra.homePaymentId}/delete`),
    foreignUrl: (f) => ws(f, `/invoices/${f.extra.awayPaidInvoiceId}/payments/${f.extra.awayPaymentId}/delete`),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/invoices/:invoiceId/void',
    url: (f) => ws(f, `/invoices/${f.extra.homeSentInvoiceId}/void`),
    foreignUrl: (f) => ws(f, `/invoices/${f.extra.awaySentInvoiceId}/void`),
    form: () => ({ reason: 'Sent by mistake' }),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/invoices/:invoiceId/credit',
    url: (f) => ws(f, `/invoices/${f.extra.homePaidInvoiceId}/credit`),
    foreignUrl: (f) => ws(f, `/invoices/${f.extra.awayPaidInvoiceId}/credit`),
    form: () => ({ reason: 'Goodwill' }),
  },
  {
    // A PDF not made yet sends the page back to the invoice, saying so.
    method: 'GET',
    path: '/w/:workspaceId/invoices/:invoiceId/pdf',
    url: (f) => ws(f, `/invoices/${f.extra.homeSentInvoiceId}/pdf`),
    foreignUrl: (f) => ws(f, `/invoices/${f.extra.awaySentInvoiceId}/pdf`),
    status: 303,
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/invoices/:invoiceId/pdf/retry',
    url: (f) => ws(f, `/invoices/${f.extra.homeSentInvoiceId}/pdf/retry`),
    foreignUrl: (f) => ws(f, `/invoices/${f.extra.awaySentInvoiceId}/pdf/retry`),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/quotes/:quoteId/invoices',
    url: (f) => ws(f, `/quotes/${f.extra.homeSentId}/invoices`),
    foreignUrl: (f) => ws(f, `/quotes/${f.extra.awaySentId}/invoices`),
    form: () => ({ kind: 'invoice' }),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/leads/:leadId/invoices',
    url: (f) => ws(f, `/leads/${f.extra.homeLeadId}/invoices`),
    foreignUrl: (f) => ws(f, `/leads/${f.extra.awayLeadId}/invoices`),
  },
  { method: 'GET', path: '/w/:workspaceId/settings/invoices', url: (f) => ws(f, '/settings/invoices') },
  {
    method: 'POST',
    path: '/w/:workspaceId/settings/invoices',
    url: (f) => ws(f, '/settings/invoices'),
    form: () => ({ invoicePrefix: 'F-', paymentTerms: '30', paymentInstructions: 'Bank', deposit: '30%' }),
  },
  { method: 'GET', path: '/account', url: () => '/account' },
  {
    method: 'POST',
    path: '/account/password',
    url: () => '/account/password',
    form: () => ({ currentPassword: 'not needed for the refusals', newPassword: 'a brand new password' }),
  },
  { method: 'POST', path: '/account/name', url: () => '/account/name', form: () => ({ displayName: 'A new name' }) },
  {
    method: 'POST',
    path: '/account/email',
    url: () => '/account/email',
    form: () => ({ newEmail: 'moved@home.example', emailPassword: 'not needed for the refusals' }),
  },
  // Another person's invitation answers 404 like a missing one (test/web/admin/invitations.test.ts).
  {
    method: 'POST',
    path: '/account/invitations/:invitationId/accept',
    url: (f) => `/account/invitations/${f.extra.ownerInvitationId}/accept`,
  },
  {
    method: 'POST',
    path: '/account/invitations/:invitationId/decline',
    url: (f) => `/account/invitations/${f.extra.ownerInvitationId}/decline`,
  },
];

const UNSENT_TOKEN = 'A'.repeat(43);

/** The routes around signing in (web/admin/account/sign-in-area.ts): public but for `/` and `/logout`. */
export const SIGN_IN_ROUTE_CASES: AdminRouteCase[] = [
  { method: 'GET', path: '/', url: () => '/', status: 303 },
  { method: 'GET', path: '/login', url: () => '/login' },
  {
    method: 'POST',
    path: '/login',
    url: () => '/login',
    form: (f) => ({ email: f.owner.email, password: 'not the password' }),
    status: 401,
  },
  { method: 'GET', path: '/forgot-password', url: () => '/forgot-password' },
  { method: 'POST', path: '/forgot-password', url: () => '/forgot-password', form: (f) => ({ email: f.owner.email }) },
  // A link nobody was sent: past the gate, the verb refuses it (410) with the link's own page.
  { method: 'GET', path: '/confirm-email/:token', url: () => `/confirm-email/${UNSENT_TOKEN}`, status: 410 },
  { method: 'POST', path: '/confirm-email/:token', url: () => `/confirm-email/${UNSENT_TOKEN}`, status: 410 },
  { method: 'GET', path: '/setup/:token', url: () => `/setup/${UNSENT_TOKEN}`, status: 410 },
  {
    method: 'POST',
    path: '/setup/:token',
    url: () => `/setup/${UNSENT_TOKEN}`,
    form: () => ({ password: 'a brand new password', repeat: 'a brand new password' }),
    status: 410,
  },
  { method: 'POST', path: '/logout', url: () => '/logout' },
];

const SCAN_BODY = '{"rooms":[{"name":"Kitchen","walls":[]},{"name":"Hall"}]}';

async function uploadScan(app: App, key: string): Promise<void> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/scan/upload',
    headers: { 'x-scan-key': key },
    payload: SCAN_BODY,
  });
  expect(res.statusCode).toBe(200);
}

export async function signInAs(f: Pick<AdminFixture, 'world'>, userId: string, email: string): Promise<Person> {
  const { sessionId } = await createSession({ ctx: f.world.ctx, input: { userId } });
  const csrf = new CsrfTokens(f.world.appSecret).tokenFor(sessionId);
  return { userId, email, sessionId, cookie: `leadscan_session=${sessionId}`, csrf };
}

/** Two workspaces, an owner and a member of `home`, an owner of `away`, a scan in each; sessions made directly. */
/**
 * The fixture every admin route's cases run in. `invoices: false` leaves out the invoices made for the invoice routes,
 * for a test that counts a workspace's invoices itself (the accountant's export).
 */
export async function createAdminFixture(
  world: TestWorld,
  options: { invoices?: boolean } = {},
): Promise<AdminFixture> {
  return withQuotes(await baseFixture(world), options.invoices ?? true);
}

async function baseFixture(world: TestWorld): Promise<AdminFixture> {
  const app = await world.app();
  const home = await world.seed('Home');
  const away = await world.seed('Away');
  const person = async (email: string, workspaceId: string, role: 'owner' | 'member') => {
    const created = await createUser({ ctx: world.ctx, input: { email, workspaceId: workspaceId, role } });
    return signInAs({ world }, created.userId, email);
  };
  const owner = await person('owner@home.example', home.workspaceId, 'owner');
  const member = await person('member@home.example', home.workspaceId, 'member');
  const stranger = await person('owner@away.example', away.workspaceId, 'owner');
  // Home's owner set their password through the operator's link, which proves the address (needed to accept).
  await world.store.db
    .updateTable('users')
    .set({ email_proven_at: new Date().toISOString() })
    .where('id', '=', owner.userId)
    .execute();
  // Pending invitations: the stranger into home (home's owner may withdraw it), home's owner into away.
  await createUser({ ctx: world.ctx, input: { email: stranger.email, workspaceId: home.workspaceId } });
  await createUser({ ctx: world.ctx, input: { email: owner.email, workspaceId: away.workspaceId } });
  const invitationOf = async (workspaceId: string) =>
    (
      await world.store.db
        .selectFrom('invitations')
        .select('id')
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirstOrThrow()
    ).id;
  await uploadScan(app, home.uploadKey);
  await uploadScan(app, away.uploadKey);
  const scanOf = async (workspaceId: string) =>
    (
      await world.store.db
        .selectFrom('scans')
        .select('id')
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirstOrThrow()
    ).id;
  return {
    world,
    app,
    home,
    away,
    owner,
    member,
    stranger,
    homeScanId: await scanOf(home.workspaceId),
    awayScanId: await scanOf(away.workspaceId),
    extra: {
      homeInvitationId: await invitationOf(home.workspaceId),
      ownerInvitationId: await invitationOf(away.workspaceId),
      ...(await leadsFixtureExtra(app, world, home, away)),
      ...(await formFieldsExtra(world, home, away)),
    },
  };
}

/** The leads fixture first (quotes need a lead), then the quotes fixture on top of it. */
async function withQuotes(fixture: AdminFixture, withInvoices: boolean): Promise<AdminFixture> {
  const { world, home, away, extra } = fixture;
  const quotes = await quotesFixtureExtra(
    world.ctx,
    { workspaceId: home.workspaceId, leadId: extra.homeLeadId!, userId: fixture.owner.userId },
    { workspaceId: away.workspaceId, leadId: extra.awayLeadId!, userId: fixture.stranger.userId },
  );
  if (!withInvoices) return { ...fixture, extra: { ...extra, ...quotes } };
  const invoices = await invoicesFixtureExtra(
    world.ctx,
    { workspaceId: home.workspaceId, leadId: extra.homeLeadId!, userId: fixture.owner.userId },
    { workspaceId: away.workspaceId, leadId: extra.awayLeadId!, userId: fixture.stranger.userId },
  );
  return { ...fixture, extra: { ...extra, ...quotes, ...invoices } };
}

/** Two fields on each workspace's source form, so a field can move up (the second) and be removed. */
async function formFieldsExtra(world: TestWorld, home: Seeded, away: Seeded): Promise<Record<string, string>> {
  const two = async (sourceId: string) => {
    await addFormField({ ctx: world.ctx, input: { sourceId, field: { kind: 'short_text', label: 'First' } } });
    return (
      await addFormField({ ctx: world.ctx, input: { sourceId, field: { kind: 'date', label: 'Preferred date' } } })
    ).id;
  };
  return { homeFieldId: await two(home.source.id), awayFieldId: await two(away.source.id) };
}

/** Every row of every SNAPSHOT_TABLES table, order-independent. */
export async function snapshot(f: AdminFixture): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const table of SNAPSHOT_TABLES) {
    const rows = await f.world.store.db.selectFrom(table).selectAll().execute();
    out[table] = rows
      .map((row) =>
        JSON.stringify(row, (_key, value: unknown) =>
          value && typeof value === 'object' && (value as { type?: string }).type === 'Buffer' ? 'bytes' : value,
        ),
      )
      .sort();
  }
  return out;
}

export interface SendOptions {
  as?: Person;
  /** Defaults to the person's own token on POST; null sends none. */
  csrf?: string | null;
  origin?: string;
  secFetchSite?: string;
}

export function send(f: AdminFixture, route: AdminRouteCase, url: string, options: SendOptions = {}) {
  const headers: Record<string, string> = {};
  if (options.as) headers.cookie = options.as.cookie;
  if (options.origin) headers.origin = options.origin;
  if (options.secFetchSite) headers['sec-fetch-site'] = options.secFetchSite;
  if (route.method === 'GET') return f.app.inject({ method: 'GET', url, headers });
  const token = options.csrf === undefined ? options.as?.csrf : options.csrf;
  const form = new URLSearchParams({ ...(route.form?.(f) ?? {}), ...(token ? { _csrf: token } : {}) });
  headers['content-type'] = 'application/x-www-form-urlencoded';
  return f.app.inject({ method: 'POST', url, headers, payload: form.toString() });
}

export interface SecurityCase {
  label: string;
  run(f: AdminFixture): Promise<void>;
}

function isOwnerRoute(route: AdminRouteCase): boolean {
  return OWNER_ROUTES.has(`${route.method} ${route.path}`);
}

/** Filled by the test from ADMIN_AREAS, so the role cases follow each route's declared access. */
const OWNER_ROUTES = new Set<string>();
const WORKSPACE_ROUTES = new Set<string>();
const PUBLIC_ROUTES = new Set<string>();

export function declareAccess(routes: Array<{ method: string; path: string; access: string }>): void {
  for (const route of routes) {
    const key = `${route.method} ${route.path}`;
    if (route.access === 'owner') OWNER_ROUTES.add(key);
    if (route.access === 'owner' || route.access === 'member') WORKSPACE_ROUTES.add(key);
    if (route.access === 'public') PUBLIC_ROUTES.add(key);
  }
}

async function unchanged(f: AdminFixture, act: () => Promise<{ statusCode: number }>, status: number): Promise<void> {
  const before = await snapshot(f);
  const res = await act();
  expect(res.statusCode).toBe(status);
  expect(await snapshot(f)).toEqual(before);
}

/**
 * A public route's cases: no session, so no signed-out, workspace, role or session-token case; a POST's CSRF line
 * is the same-origin check, and a signed-out visitor's own-origin POST gets past it to the verb.
 */
function publicSecurityCases(route: AdminRouteCase): SecurityCase[] {
  const status = route.status ?? 200;
  if (route.method === 'GET') {
    return [
      {
        label: `signed out → the page itself (${status}), not a way to /login`,
        run: async (f) => {
          const res = await send(f, route, route.url(f));
          expect(res.statusCode).toBe(status);
          expect(res.headers.location).toBeUndefined();
        },
      },
    ];
  }
  const refused = (options: SendOptions) => async (f: AdminFixture) => {
    const before = await snapshot(f);
    const res = await send(f, route, route.url(f), options);
    expect(res.statusCode).toBe(403);
    expect(res.headers['set-cookie']).toBeUndefined();
    expect(await snapshot(f)).toEqual(before);
  };
  return [
    {
      label: 'POST from a foreign Origin → 403, no cookie, nothing changed',
      run: refused({ origin: 'https://evil.example' }),
    },
    {
      label: 'POST marked cross-site by Sec-Fetch-Site → 403, no cookie, nothing changed',
      run: refused({ secFetchSite: 'cross-site' }),
    },
    {
      label: `a signed-out POST from our own pages gets past the gate to the verb (${status})`,
      run: async (f) => {
        const res = await send(f, route, route.url(f), { secFetchSite: 'same-origin' });
        expect(res.statusCode).toBe(status);
      },
    },
  ];
}

/** The generated cases for one route. */
export function adminSecurityCases(route: AdminRouteCase): SecurityCase[] {
  const key = `${route.method} ${route.path}`;
  if (PUBLIC_ROUTES.has(key)) return publicSecurityCases(route);
  const cases: SecurityCase[] = [
    {
      label: 'signed out → 303 to /login, nothing changed',
      run: async (f) => {
        const before = await snapshot(f);
        const res = await send(f, route, route.url(f));
        expect(res.statusCode).toBe(303);
        expect(res.headers.location).toMatch(/^\/login/);
        expect(await snapshot(f)).toEqual(before);
      },
    },
    {
      label: 'a session cookie that names no session → 303 to /login',
      run: async (f) => {
        const fake = { ...f.owner, cookie: 'leadscan_session=AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA' };
        const res = await send(f, route, route.url(f), { as: fake });
        expect(res.statusCode).toBe(303);
        expect(res.headers.location).toMatch(/^\/login/);
      },
    },
  ];
  if (WORKSPACE_ROUTES.has(key)) {
    cases.push({
      label: 'a person of another workspace → 404, nothing changed',
      run: (f) => unchanged(f, () => send(f, route, route.url(f), { as: f.stranger }), 404),
    });
    cases.push({
      label: 'a workspace that does not exist → 404',
      run: (f) =>
        unchanged(
          f,
          () =>
            send(f, route, route.url(f).replace(f.home.workspaceId, 'ws_00000000000000000000000000000000'), {
              as: f.owner,
            }),
          404,
        ),
    });
    if (route.foreignUrl) {
      cases.push({
        label: "another workspace's resource through one's own → 404, nothing changed",
        run: (f) => unchanged(f, () => send(f, route, route.foreignUrl!(f), { as: f.owner }), 404),
      });
    }
    cases.push({
      label: "a removed member's session → refused at once",
      run: async (f) => {
        const created = await createUser({
          ctx: f.world.ctx,
          input: {
            email: `gone-${Date.now()}@home.example`,
            workspaceId: f.home.workspaceId,
            role: isOwnerRoute(route) ? 'owner' : 'member',
          },
        });
        const gone = await signInAs(f, created.userId, created.email);
        await removeUser({ ctx: f.world.ctx, input: { email: created.email, workspaceId: f.home.workspaceId } });
        await unchanged(f, () => send(f, route, route.url(f), { as: gone }), 404);
      },
    });
  } else {
    cases.push({
      label: "a removed person's session → 303 to /login",
      run: async (f) => {
        const created = await createUser({
          ctx: f.world.ctx,
          input: { email: `gone-${Date.now()}@home.example`, workspaceId: f.home.workspaceId },
        });
        const gone = await signInAs(f, created.userId, created.email);
        await removeUser({ ctx: f.world.ctx, input: { email: created.email, workspaceId: null } });
        const res = await send(f, route, route.url(f), { as: gone });
        expect(res.statusCode).toBe(303);
        expect(res.headers.location).toMatch(/^\/login/);
      },
    });
  }
  if (isOwnerRoute(route)) {
    cases.push({
      label: 'a member on an owner route → 403, nothing changed',
      run: (f) => unchanged(f, () => send(f, route, route.url(f), { as: f.member }), 403),
    });
  }
  if (route.method === 'POST') {
    cases.push(
      {
        label: 'POST without a CSRF token → 403 csrf, nothing changed',
        run: (f) => unchanged(f, () => send(f, route, route.url(f), { as: f.owner, csrf: null }), 403),
      },
      {
        label: "POST with another session's CSRF token → 403, nothing changed",
        run: (f) => unchanged(f, () => send(f, route, route.url(f), { as: f.owner, csrf: f.member.csrf }), 403),
      },
      {
        label: 'POST from a foreign Origin → 403, nothing changed',
        run: (f) =>
          unchanged(f, () => send(f, route, route.url(f), { as: f.owner, origin: 'https://evil.example' }), 403),
      },
      {
        label: 'POST marked cross-site by Sec-Fetch-Site → 403, nothing changed',
        run: (f) => unchanged(f, () => send(f, route, route.url(f), { as: f.owner, secFetchSite: 'cross-site' }), 403),
      },
    );
  } else {
    cases.push({
      label: 'the owner gets the page (the refusals above are not the only answer)',
      run: async (f) => {
        const res = await send(f, route, route.url(f), { as: f.owner });
        expect(res.statusCode).toBe(route.status ?? 200);
      },
    });
  }
  return cases;
}

/** Every generated case of `routes`, on each backend, against one admin fixture per backend. */
export function describeSecurityCases(title: string, routes: readonly AdminRouteCase[]): void {
  describeEachBackend(title, (backend) => {
    let world: TestWorld;
    let fixture: AdminFixture;
    beforeAll(async () => {
      world = await createWorld(backend);
      fixture = await createAdminFixture(world);
    });
    afterAll(async () => {
      await world.close();
    });

    for (const route of routes) {
      describe(`${route.method} ${route.path}`, () => {
        for (const securityCase of adminSecurityCases(route)) {
          it(securityCase.label, () => securityCase.run(fixture));
        }
      });
    }
  });
}
