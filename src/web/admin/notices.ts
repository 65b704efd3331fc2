import { html, type SafeHtml } from '../html.js';

/** Notices after a redirect: a fixed set of codes, so no text from the URL is ever shown. */
export const NOTICES: Record<string, string> = {
  'key-regenerated':
    'A new upload key was made. The old key is refused from now on; put the new one into the scanning app.',
  'scan-deleted': 'The scan was deleted.',
  'room-renamed': 'The room is renamed. Its new name shows on Scans, in the quote picker and on new quote lines.',
  'scan-attached': 'The scan is attached to the lead. It is listed on the lead’s page.',
  'scan-detached': 'The scan is no longer attached to a lead.',
  'source-created': 'The lead source was created.',
  'source-activated': 'The intake link and hosted form are active again.',
  'source-deactivated':
    'The intake link and hosted form are switched off. Posts to them are refused until you activate them.',
  'bot-check-saved': 'Bot-check settings saved.',
  'bot-check-off': 'The bot check is off.',
  'texts-saved': 'Hosted-form texts saved.',
  'confirmation-on': 'People who send this form now get an email saying their request arrived.',
  'confirmation-off': 'No confirmation email is sent to people who send this form.',
  'spam-rules-saved': 'Spam rules saved. New posts are checked against them from now on.',
  'form-field-added': 'The field was added to the hosted form.',
  'form-field-moved': 'The field was moved.',
  'form-field-saved': 'The field was saved.',
  'form-field-removed': 'The field was removed from the hosted form. Answers already received stay on their leads.',
  'form-look-saved': 'The form’s colour is saved.',
  'role-changed': 'Role changed.',
  'member-removed': 'The member was removed.',
  'settings-saved': 'Settings saved.',
  'notifications-saved': 'Your email choices are saved.',
  'invitation-cancelled': 'The invitation was withdrawn.',
  'invitation-declined': 'The invitation was declined.',
  'password-changed': 'Password changed. Your other sessions were signed out.',
  'name-saved': 'Name saved.',
  'email-change-sent': 'We sent a confirmation link to the new address. Your email changes when you open it.',
  'password-set': 'Password set. Sign in with your email and the new password.',
  'signed-out': 'You are signed out.',
};

export function notice(code: string | undefined): SafeHtml | string {
  const text = code ? NOTICES[code] : undefined;
  return text ? html`<p class="notice ok" role="status">${text}</p>` : '';
}
