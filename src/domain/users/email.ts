import { AppError } from '../errors.js';
import { checkText } from '../text-input.js';

/** Emails compare case-insensitively (docs/security.md): this is the form that is unique in the database. */
export function emailKey(email: string): string {
  return email.trim().toLowerCase();
}

/** A plausible email: something@something, at most 254 characters. No further format check. */
export function checkEmail(email: string): string {
  const trimmed = checkText(email, 'email', 'The email').trim();
  if (!/^[^\s@]+@[^\s@]+$/.test(trimmed) || trimmed.length > 254) {
    throw new AppError('invalid_fields', `"${trimmed}" is not an email address`, [
      { field: 'email', code: 'invalid', message: 'Enter an email address such as ada@example.com' },
    ]);
  }
  return trimmed;
}
