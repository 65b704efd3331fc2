import { AppError } from './errors.js';
import { checkText } from './text-input.js';

/** The first start's owner (docs/security.md) until the setup page replaces it with their real address. */
export const FIRST_OWNER_EMAIL = 'admin@localhost';

/** Emails compare case-insensitively (docs/security.md): this is the form that is unique in the database. */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

/** Mail domains that ignore dots in a mailbox's name, and the domain each is the same as (Gmail's two). */
const DOTS_IGNORED: Readonly<Record<string, string>> = { 'gmail.com': 'gmail.com', 'googlemail.com': 'gmail.com' };

/**
 * The mailbox an address delivers to, for counting what is sent to one person (docs/notifications.md, "Confirmation
 * to the sender"): case-insensitive, without a `+tag` (`victim+1@` is `victim@`), and for the domains that ignore
 * them (DOTS_IGNORED) without dots in the name and under one domain. Never used to send: only to count.
 */
export function mailboxKey(email: string): string {
  const key = emailKey(email);
  const at = key.lastIndexOf('@');
  if (at < 1) return key;
  let local = key.slice(0, at);
  let domain = key.slice(at + 1);
  const plus = local.indexOf('+');
  if (plus > 0) local = local.slice(0, plus);
  const same = DOTS_IGNORED[domain];
  if (same !== undefined) {
    local = local.replaceAll('.', '') || local;
    domain = same;
  }
  return `${local}@${domain}`;
}

/** A plausible email: something@something, at most 254 characters. No further format check. */
export function checkEmail(email: string, field = 'email'): string {
  const trimmed = checkText(email, field, 'The email').trim();
  if (!/^[^\s@]+@[^\s@]+$/.test(trimmed) || trimmed.length > 254) {
    throw new AppError('invalid_fields', `"${trimmed}" is not an email address`, [
      { field, code: 'invalid', message: 'Enter an email address such as ada@example.com' },
    ]);
  }
  return trimmed;
}

/**
 * An address mail can be sent to and a header can carry, or null: the HTML standard's email syntax with a dotted
 * domain (one `@`, no spaces, commas, quotes or angle brackets). What a visitor typed is used as a Reply-To, a
 * `mailto:` link or a recipient only when it passes.
 */
export function mailableAddress(value: string | null | undefined): string | null {
  const trimmed = value?.trim() ?? '';
  return trimmed.length <= 254 && MAILABLE.test(trimmed) ? trimmed : null;
}

/** One label of the domain: letters, digits and inner hyphens, at most 63. */
const DOMAIN_LABEL = /[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?/.source;
const LOCAL_PART = /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@/.source;
const MAILABLE = new RegExp(String.raw`${LOCAL_PART}${DOMAIN_LABEL}(?:\.${DOMAIN_LABEL})+$`);
