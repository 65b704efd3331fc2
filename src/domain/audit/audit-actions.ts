/**
 * The closed list of audited actions (docs/operations.md, "The audit log"). A new audited verb adds its name here
 * and one `recordAudit` line inside its write.
 */
export const AUDIT_ACTIONS = [
  'sign_in.succeeded',
  'sign_in.throttled',
  'key.shown',
  'key.copied',
  'key.regenerated',
  'workspace.created',
  'workspace.deleted',
  'settings.changed',
  'pipeline.created',
  'pipeline.renamed',
  'pipeline.deleted',
  'source.created',
  'source.renamed',
  'source.activated',
  'source.deactivated',
  'source.texts_changed',
  'source.bot_check_changed',
  'source.spam_rules_changed',
  'source.form_changed',
  'source.accent_changed',
  'source.deleted',
  'stage.added',
  'stage.renamed',
  'stage.reordered',
  'stage.removed',
  'lead.moved',
  'lead.deleted',
  'lead.marked_spam',
  'lead.assigned',
  'lead.follow_up_set',
  'lead.note_added',
  'lead.note_deleted',
  'scan.attached',
  'scan.detached',
  'scan.deleted',
  'quarantine.restored',
  'quarantine.deleted',
  'member.invited',
  'member.invitation_cancelled',
  'member.invitation_accepted',
  'member.invitation_declined',
  'member.role_changed',
  'member.removed',
  'user.removed',
  'account.name_changed',
  'account.password_changed',
  'account.email_change_requested',
  'user.password_reset',
  'export.downloaded',
  'person.exported',
  'person.erased',
  'retention.ran',
] as const;

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export function isAuditAction(value: string): value is AuditAction {
  return (AUDIT_ACTIONS as readonly string[]).includes(value);
}
