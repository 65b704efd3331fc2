import { html, type SafeHtml } from '../../html.js';

/** Notices after a redirect on these screens: fixed codes, so no text from the URL is ever shown. */
const LEADS_NOTICES: Record<string, string> = {
  'lead-moved': 'The lead was moved.',
  'lead-deleted': 'The lead was deleted for good.',
  'note-added': 'Note added.',
  'note-deleted': 'Note deleted.',
  'lead-assigned': 'Assignment saved.',
  'follow-up-saved': 'Follow-up date saved.',
  'stage-added': 'Stage added.',
  'stage-renamed': 'Stage renamed.',
  'stage-moved': 'Stage order changed. New leads arrive in the first stage.',
  'stage-removed': 'Stage removed.',
  restored: 'Restored: the submission is now a lead in the Leads inbox.',
  'already-restored': 'This submission was already restored; here is its lead.',
  'quarantine-deleted': 'The quarantined submission was deleted.',
  'marked-spam': 'The lead was moved to Quarantine as spam. Restore brings it back as it was.',
};

export function leadsNotice(code: string | undefined): SafeHtml | string {
  const text = code ? LEADS_NOTICES[code] : undefined;
  return text ? html`<p class="notice ok" role="status">${text}</p>` : '';
}
