import type { AuditAction } from '../../../domain/audit/audit-actions.js';

/** What each audited action is called on the Audit log screen (the CLI and the filter's value keep the code). */
export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  'sign_in.succeeded': 'Signed in',
  'sign_in.throttled': 'Sign-in refused (too many attempts)',
  'key.shown': 'Upload key shown',
  'key.copied': 'Upload key copied',
  'key.regenerated': 'Upload key regenerated',
  'workspace.created': 'Workspace created',
  'workspace.deleted': 'Workspace deleted',
  'settings.changed': 'Settings changed',
  'pipeline.created': 'Pipeline created',
  'pipeline.renamed': 'Pipeline renamed',
  'pipeline.deleted': 'Pipeline deleted',
  'source.created': 'Source created',
  'source.renamed': 'Source renamed',
  'source.activated': 'Source activated',
  'source.deactivated': 'Source deactivated',
  'source.texts_changed': 'Form texts changed',
  'source.bot_check_changed': 'Bot check changed',
  'source.spam_rules_changed': 'Spam rules changed',
  'source.form_changed': 'Form fields changed',
  'source.accent_changed': 'Form colour changed',
  'source.confirmation_changed': 'Confirmation to senders turned on or off',
  'source.deleted': 'Source deleted',
  'stage.added': 'Stage added',
  'stage.renamed': 'Stage renamed',
  'stage.reordered': 'Stage moved',
  'stage.removed': 'Stage removed',
  'lead.moved': 'Lead moved to another stage',
  'lead.deleted': 'Lead deleted',
  'lead.marked_spam': 'Lead marked as spam',
  'lead.assigned': 'Lead assigned',
  'lead.follow_up_set': 'Follow-up date set',
  'lead.note_added': 'Note added',
  'lead.note_deleted': 'Note deleted',
  'scan.attached': 'Scan attached to a lead',
  'scan.room_renamed': 'Room renamed',
  'scan.detached': 'Scan detached from its lead',
  'scan.deleted': 'Scan deleted',
  'quarantine.restored': 'Restored from Quarantine',
  'quarantine.deleted': 'Deleted from Quarantine',
  'member.invited': 'Member invited',
  'member.invitation_cancelled': 'Invitation cancelled',
  'member.invitation_accepted': 'Invitation accepted',
  'member.invitation_declined': 'Invitation declined',
  'member.role_changed': 'Role changed',
  'member.removed': 'Member removed',
  'user.removed': 'Account removed',
  'account.name_changed': 'Name changed',
  'account.password_changed': 'Password changed',
  'account.email_change_requested': 'Email change requested',
  'account.set_up': 'Account set up (first password)',
  'account.password_set_by_link': 'Password set through a reset link',
  'user.password_reset': 'Password reset link made',
  'export.downloaded': 'Leads exported',
  'person.exported': 'Person’s data exported',
  'person.erased': 'Person erased',
  'retention.ran': 'Retention run',
  'price_list.item_added': 'Price list item added',
  'price_list.item_changed': 'Price list item changed',
  'price_list.item_removed': 'Price list item removed',
  'price_list.imported': 'Price list imported (CSV)',
  'quote.created': 'Quote created',
  'quote.sent': 'Quote sent',
  'quote.revised': 'Quote revised',
  'quote.withdrawn': 'Quote withdrawn',
  'quote.viewed': 'Quote viewed by the customer',
  'quote.accepted': 'Quote accepted by the customer',
  'quote.declined': 'Quote declined by the customer',
  'quote.pdf_retried': 'Quote PDF asked for again',
  'settings.logo_changed': 'Logo changed',
  'quote.follow_up_reminded': 'Sender reminded to follow up a quote',
  'quote.customer_reminded': 'Customer reminded of a quote',
  'quote.reminders_stopped': 'Reminders of a quote stopped by the customer',
  'invoice.created': 'Invoice created',
  'invoice.sent': 'Invoice sent',
  'invoice.viewed': 'Invoice viewed by the customer',
  'invoice.voided': 'Invoice voided',
  'invoice.credited': 'Credit note made for an invoice',
  'invoice.payment_recorded': 'Payment recorded',
  'invoice.payment_deleted': 'Payment deleted',
  'invoice.pdf_retried': 'Invoice PDF asked for again',
  'invoice.exported': 'Invoices exported for the accountant',
  'invoice.customer_reminded': 'Overdue invoice: customer reminded',
};

/** The words of a details key (`leadsMoved` → "leads moved"). */
function words(key: string): string {
  return key
    .replace(/([a-z])([A-Z])/g, '$1 $2')
    .replaceAll('_', ' ')
    .toLowerCase();
}

/**
 * Details as a sentence part: counts as "leads: 3", flags that hold as their words ("new account, owner"); a flag
 * that does not hold is left out, except where its absence is the news (`on: false` → "off").
 */
export function detailsText(details: Record<string, number | boolean>): string {
  return Object.entries(details)
    .flatMap(([key, value]) => {
      if (typeof value === 'number') return [`${words(key)}: ${value.toLocaleString('en')}`];
      if (key === 'on') return [value ? 'on' : 'off'];
      return value ? [words(key)] : [];
    })
    .join(', ');
}

/** What an id names, read from its prefix (domain/ids.ts), for the "On" column. */
const ID_KINDS: Record<string, string> = {
  lead: 'Lead',
  src: 'Source',
  pl: 'Pipeline',
  ws: 'Workspace',
  usr: 'Person',
  scan: 'Scan',
  qr: 'Quarantine entry',
  inv: 'Invitation',
  note: 'Note',
};

export function idKind(id: string): string {
  return ID_KINDS[id.split('_')[0] ?? ''] ?? 'Item';
}
