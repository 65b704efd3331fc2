/**
 * What the hosted form tells people. One table for both the server-rendered page (no scripts) and the script
 * (it is embedded in form.js), so the two paths say the same thing.
 */
export const FORM_MESSAGES = {
  contactHint: 'Please give at least one way to reach you: your name, phone number or email address.',
  missingContact: 'Please fill in your name, phone number or email address so we can get back to you.',
  tooLong: 'Please shorten this to {max} characters or fewer.',
  invalidType: 'Please enter plain text here.',
  fixFields: 'Please correct the highlighted fields and send again.',
  botCheckFailed: 'Please complete the “I am human” check and send again.',
  botCheckNoScript: 'This form uses a spam check that needs JavaScript. Please turn JavaScript on to send it.',
  botCheckScoreFailed: 'Our automatic spam check did not let this message through. Please send it again.',
  botCheckUnconfigured: 'This form is not set up completely; please contact us another way.',
  rateLimited: 'Too many attempts from your connection. Please wait a minute and send again.',
  closed: 'This form is closed and no longer takes messages.',
  sending: 'Sending…',
  offline: 'We could not reach the server. Check your connection and send again.',
  retrying: 'Not sent yet — retrying. Keep this page open; your message is kept and will be sent when the connection is back.',
  failed: 'Something went wrong on our side and your message was not sent. Please try again in a moment.',
  thanks: 'Your message was sent. We will be in touch soon.',
} as const;

/** The message for one field problem from a problem body; unknown codes keep the server's own message. */
export function fieldMessage(error: { code: string; message: string; max?: number }): string {
  if (error.code === 'too_long' && typeof error.max === 'number') return FORM_MESSAGES.tooLong.replace('{max}', String(error.max));
  if (error.code === 'invalid_type') return FORM_MESSAGES.invalidType;
  return error.message;
}
