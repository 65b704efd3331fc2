import { AppError } from './errors.js';

/**
 * One rule for text that reaches the database: no NUL and no other control characters. PostgreSQL cannot store a
 * NUL in text at all (the query fails), SQLite stores it and then truncates or chokes on it in places (the search
 * index), and no person types one. Multi-line text (the hosted form's introduction, notes) may hold tab and line
 * breaks; single-line text (names, emails, keys, a search) may not.
 */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f]/;
// eslint-disable-next-line no-control-regex
const CONTROL_OR_BREAK = /[\u0000-\u001f\u007f]/;

export function hasControlCharacters(value: string, multiline = false): boolean {
  return (multiline ? CONTROL : CONTROL_OR_BREAK).test(value);
}

export function controlCharacterMessage(label: string): string {
  return (
    `${label} contains a control character (such as NUL or a line break) that cannot be stored. Remove it and ` +
    `try again.`
  );
}

/** Refuses `value` with a field error when it holds a control character; returns it unchanged otherwise. */
export function checkText(value: string, field: string, label: string, options: { multiline?: boolean } = {}): string {
  if (hasControlCharacters(value, options.multiline)) {
    const message = controlCharacterMessage(label);
    throw new AppError('invalid_fields', message, [{ field, code: 'invalid', message }]);
  }
  return value;
}
