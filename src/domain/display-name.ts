import { AppError } from './errors.js';
import { checkText } from './text-input.js';

export const DISPLAY_NAME_MAX = 100;

/** A person's name as the app shows it: one line, not empty, at most 100 characters. */
export function checkDisplayName(value: string, field = 'displayName'): string {
  const name = checkText(value, field, 'The name').trim();
  if (name === '' || name.length > DISPLAY_NAME_MAX) {
    const message = name === '' ? 'Enter a name' : `Use at most ${DISPLAY_NAME_MAX} characters`;
    throw new AppError('invalid_fields', message, [{ field, code: name === '' ? 'required' : 'too_long', message }]);
  }
  return name;
}

/** The default name of an account made without one: the part of the email before @. */
export function defaultDisplayName(email: string): string {
  return email.split('@')[0] || email;
}
