import type { AdminArea } from './admin-route.js';
import { accountArea } from './account/account-area.js';
import { leadsArea } from './leads/leads-area.js';
import { quarantineArea } from './quarantine/quarantine-area.js';
import { spamRulesArea } from './sources/spam-rules-area.js';
import { stagesArea } from './stages/stages-area.js';
import { membersArea } from './members/members-area.js';
import { peopleArea } from './people/people-area.js';
import { scansArea } from './scans/scans-area.js';
import { settingsArea } from './settings/settings-area.js';
import { auditArea } from './audit/audit-area.js';
import { notificationsArea } from './notifications/notifications-area.js';
import { sourcesArea } from './sources/sources-area.js';
import { priceListArea } from './quotes/price-list-area.js';
import { quotesArea } from './quotes/quotes-area.js';
import { invoicesArea } from './invoices/invoices-area.js';
import { reportArea } from './quotes/report-area.js';
import { followUpsArea } from './settings/follow-ups-area.js';
import { invoiceSettingsArea } from './settings/invoice-settings-area.js';
import { booksArea } from './books/books-area.js';

/**
 * The areas of the web app, in nav order. To add one (e.g. Leads): make web/admin/<area>/<area>-area.ts exporting
 * an AdminArea, put it here, and add its routes to test/helpers/admin-security.ts (the security suite fails
 * until every route has a case).
 */
export const ADMIN_AREAS: AdminArea[] = [
  leadsArea,
  quotesArea,
  invoicesArea,
  scansArea,
  sourcesArea,
  quarantineArea,
  membersArea,
  settingsArea,
  auditArea,
  notificationsArea,
  accountArea,
  stagesArea,
  peopleArea,
  spamRulesArea,
  priceListArea,
  reportArea,
  followUpsArea,
  invoiceSettingsArea,
  booksArea,
];
