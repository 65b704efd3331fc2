import { AppError } from './errors.js';
import { checkText } from './text-input.js';

/** The first start's owner (docs/security.md) until the setup page replaces it with their real address. */
export const FIRST_OWNER_EMAIL = 'admin@localhost';

/** Emails compare case-insensitively (docs/security.md): this is the form that is unique in the database. */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
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
