import type { MigrationProvider } from 'kysely';
import type { Dialect } from '../dialect.js';
import { initial } from './0001-initial.js';
import { uniqueNamesAndIntakeLog } from './0002-unique-names-intake-log.js';
import { people } from './0003-people.js';
import { stages } from './0004-stages.js';
import { scanRoomRanges } from './0005-scan-room-ranges.js';
import { leanSearchIndex } from './0006-lean-search-index.js';
import { scanRawUncompressed } from './0007-scan-raw-uncompressed.js';
import { searchMergesWhenIdle } from './0008-search-merges-when-idle.js';
import { searchIndexFile } from './0009-search-index-file.js';
import { unreadMarksPerStatement } from './0010-unread-marks-per-statement.js';
import { invitations } from './0011-invitations.js';
import { workspaceSettings } from './0012-workspace-settings.js';
import { scansInbox } from './0013-scans-inbox.js';
import { documents } from './0046-documents.js';
import { signInAttempts } from './0014-sign-in-attempts.js';
import { scansReceived } from './0015-scans-received.js';
import { notifications } from './0016-notifications.js';
import { emailChanges } from './0017-email-changes.js';
import { foldedSearch } from './0018-folded-search.js';
import { leadWork } from './0019-lead-work.js';
import { hostedFormFields } from './0020-hosted-form-fields.js';
import { spamAndDuplicates } from './0021-spam-and-duplicates.js';
import { auditLog } from './0022-audit-log.js';
import { retention } from './0023-retention.js';
import { unreadCounts } from './0024-unread-counts.js';
import { searchBesideLeads } from './0025-search-beside-leads.js';
import { searchLogsReusedRowids } from './0026-search-logs-reused-rowids.js';
import { quoteSettingsAndPriceList } from './0027-quote-settings-price-list.js';
import { quotes } from './0028-quotes.js';
import { linksTiedToCredentials } from './0030-links-tied-to-credentials.js';
import { serverInstances } from './0034-server-instances.js';
import { quoteFrozenPlans } from './0036-quote-frozen-plans.js';
import { senderConfirmations } from './0037-sender-confirmations.js';
import { marketingSourceAndSearchedAnswers } from './0038-marketing-source-searched-answers.js';
import { indexesAtScale } from './0039-indexes-at-scale.js';
import { builtInFormFields } from './0040-built-in-form-fields.js';
import { quotesExpiredIndex } from './0041-quotes-expired-index.js';
import { lighterLeadWrites } from './0042-lighter-lead-writes.js';
import { stageNamesUnique } from './0043-stage-names-unique.js';
import { quoteSectionsAndDeposit } from './0045-quote-sections-deposit.js';
import { followUpsAndReport } from './0047-follow-ups-and-report.js';
import { invoices } from './0048-invoices.js';
import { quoteSendMessage } from './0050-quote-send-message.js';
import { roomNames } from './0051-room-names.js';
import { invoiceBooks } from './0052-invoice-books.js';
import { invoicesOpenTotals } from './0053-invoices-open-totals.js';
import { invoiceSendMessage } from './0054-invoice-send-message.js';
import { invoiceOpenTotalsKept } from './0055-invoice-open-totals-kept.js';
import { roomSections } from './0056-room-sections.js';

/**
 * One set of migrations for both backends, written with Kysely's schema builder, one file each. The only dialect
 * difference is the binary column type (`binary` in 0001-initial.ts). Migrations are append-only once released:
 * add a new file and a line below, never edit one. Kysely runs them in the order of their names.
 */
export function migrationProvider(dialect: Dialect): MigrationProvider {
  return {
    getMigrations: () =>
      Promise.resolve({
        '0001_initial': initial(dialect),
        '0002_unique_names_intake_log': uniqueNamesAndIntakeLog(),
        '0003_people': people(),
        '0004_stages': stages(dialect),
        '0005_scan_room_ranges': scanRoomRanges,
        '0006_lean_search_index': leanSearchIndex(dialect),
        '0007_scan_raw_uncompressed': scanRawUncompressed(dialect),
        '0008_search_merges_when_idle': searchMergesWhenIdle(dialect),
        '0009_search_index_file': searchIndexFile(dialect),
        '0010_unread_marks_per_statement': unreadMarksPerStatement(dialect),
        '0011_invitations': invitations(),
        '0012_workspace_settings': workspaceSettings(),
        '0013_scans_inbox': scansInbox(dialect),
        '0014_sign_in_attempts': signInAttempts(),
        '0015_scans_received': scansReceived(),
        '0016_notifications': notifications(),
        '0017_email_changes': emailChanges(),
        '0018_folded_search': foldedSearch(dialect),
        '0019_lead_work': leadWork(),
        '0020_hosted_form_fields': hostedFormFields(),
        '0021_spam_and_duplicates': spamAndDuplicates(dialect),
        '0022_audit_log': auditLog(),
        '0023_retention': retention(),
        '0024_unread_counts': unreadCounts(dialect),
        '0025_search_beside_leads': searchBesideLeads(dialect),
        '0026_search_logs_reused_rowids': searchLogsReusedRowids(dialect),
        '0027_quote_settings_price_list': quoteSettingsAndPriceList(),
        '0028_quotes': quotes(),
        '0030_links_tied_to_credentials': linksTiedToCredentials(),
        '0034_server_instances': serverInstances(),
        '0036_quote_frozen_plans': quoteFrozenPlans(),
        '0037_sender_confirmations': senderConfirmations(),
        '0038_marketing_source_searched_answers': marketingSourceAndSearchedAnswers(dialect),
        '0039_indexes_at_scale': indexesAtScale(),
        '0040_built_in_form_fields': builtInFormFields(),
        '0041_quotes_expired_index': quotesExpiredIndex(),
        '0042_lighter_lead_writes': lighterLeadWrites(dialect),
        '0043_stage_names_unique': stageNamesUnique(),
        '0045_quote_sections_deposit': quoteSectionsAndDeposit(),
        '0046_documents': documents(dialect),
        '0047_follow_ups_and_report': followUpsAndReport(dialect),
        '0048_invoices': invoices(),
        '0050_quote_send_message': quoteSendMessage(),
        '0051_room_names': roomNames(),
        '0052_invoice_books': invoiceBooks(),
        '0053_invoices_open_totals': invoicesOpenTotals(),
        '0054_invoice_send_message': invoiceSendMessage(),
        '0055_invoice_open_totals_kept': invoiceOpenTotalsKept(dialect),
        '0056_room_sections': roomSections(),
      }),
  };
}
