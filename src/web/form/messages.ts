/**
 * What the hosted form tells people, written once. The server-rendered pages (no scripts) read these tables, and
 * the form's script gets the very same tables as data (form-client.ts is served with them as its argument), so a
 * refusal reads the same whichever path answered it.
 */
export const FORM_MESSAGES = {
  contactHint: 'Please give at least one way to reach you: your name, phone number or email address.',
  missingContact: 'Please fill in your name, phone number or email address so we can get back to you.',
  fixFields: 'Please correct the highlighted fields and send again.',
  botCheckNoScript: 'This form uses a spam check that needs JavaScript. Please turn JavaScript on to send it.',
  botCheckScoreFailed: 'Our automatic spam check did not let this message through. Please send it again.',
  botCheckUnconfigured: 'This form is not set up completely; please contact us another way.',
  sending: 'Sending…',
  retrying:
    'Not sent yet — retrying. Keep this page open; your message is kept and will be sent when the connection is back.',
  thanks: 'Your message was sent. We will be in touch soon.',
} as const;

/**
 * The "at least one way to reach you" hint and its error, for a form whose owner hid or relabelled a contact field:
 * they name the contact fields the form shows, by their labels. A form as it always was says FORM_MESSAGES' words.
 */
export function contactMessages(labels: readonly string[], relabelled: boolean): { hint: string; missing: string } {
  if (labels.length === 3 && !relabelled)
    return { hint: FORM_MESSAGES.contactHint, missing: FORM_MESSAGES.missingContact };
  const quoted = labels.map((label) => `“${label}”`);
  const list =
    quoted.length > 1 ? `${quoted.slice(0, -1).join(', ')} or ${quoted[quoted.length - 1]!}` : (quoted[0] ?? '');
  return {
    hint:
      quoted.length > 1
        ? `Please give at least one way to reach you: ${list}.`
        : `Please give a way to reach you: ${list}.`,
    missing: `Please fill in ${list} so we can get back to you.`,
  };
}

/**
 * A field's own problem, by the code of its entry in `errors`; `{max}` is the field's bound. Codes not listed keep
 * the server's message, which names the field: a required field left empty reads “Please answer “Mobile”.” (the
 * domain's ANSWER_MESSAGES, domain/forms/form-answers.ts), on the page and from the script alike.
 */
export const FIELD_MESSAGES: Readonly<Record<string, string>> = {
  too_long: 'Please shorten this to {max} characters or fewer.',
  invalid_type: 'Please enter plain text here.',
};

export interface FormProblem {
  /** The heading of a page of its own (the no-script path), or the page title's start when the form is shown again. */
  heading: string;
  /** The sentence: under the heading on a page, in the form's status line with the script. */
  text: string;
}

const FIX: FormProblem = { heading: 'Please correct the form', text: FORM_MESSAGES.fixFields };
const UNREADABLE: FormProblem = { heading: 'The form could not be read', text: 'Please send the form again.' };

/**
 * A refused submission or page, by error code. The codes not listed (a problem on our side, or one the form does
 * not expect) read as `FORM_FAILED`.
 */
export const FORM_PROBLEMS: Readonly<Record<string, FormProblem>> = {
  missing_contact: FIX,
  invalid_fields: FIX,
  bot_check_failed: {
    heading: 'Please correct the form',
    text: 'Please complete the “I am human” check and send again.',
  },
  malformed_token: {
    heading: 'This form link is not valid',
    text: 'The link seems to be incomplete or mistyped. Please check that you copied the whole address.',
  },
  intake_unavailable: {
    heading: 'This form is closed',
    text: 'This form no longer takes messages. If you were trying to reach someone, please contact them another way.',
  },
  route_not_found: { heading: 'Page not found', text: 'Please check the address of the page.' },
  body_too_large: { heading: 'Your message is too long', text: 'Please shorten your message and send it again.' },
  rate_limited: {
    heading: 'Please wait a moment',
    text: 'Too many attempts came from your connection. Please wait a minute and send again.',
  },
  unreadable_body: UNREADABLE,
  unsupported_encoding: UNREADABLE,
  client_aborted: UNREADABLE,
};

export const FORM_FAILED: FormProblem = {
  heading: 'Something went wrong',
  text: 'Your message was not sent because of a problem on our side. Please try again in a moment.',
};

export function formProblem(code: string): FormProblem {
  return Object.hasOwn(FORM_PROBLEMS, code) ? (FORM_PROBLEMS[code] as FormProblem) : FORM_FAILED;
}

/** The message for one field problem from a problem body; unknown codes keep the server's own message. */
export function fieldMessage(error: { code: string; message: string; max?: number }): string {
  const template = Object.hasOwn(FIELD_MESSAGES, error.code) ? FIELD_MESSAGES[error.code] : undefined;
  if (template === undefined || (template.includes('{max}') && typeof error.max !== 'number')) return error.message;
  return template.replace('{max}', String(error.max));
}
