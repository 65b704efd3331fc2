/**
 * How a lead's email and phone are compared when looking for possible duplicates (docs/admin-app.md, "Possible
 * duplicate"). The lead INSERT stores both keys (hot-writes/lead.ts) and migration 0021 filled them for older leads;
 * both databases index them per workspace.
 */

/** The email as compared: trimmed, lower case; null when there is none. */
export function emailKey(email: string | null | undefined): string | null {
  const key = (email ?? '').trim().toLowerCase();
  return key === '' ? null : key;
}

/** Fewer digits than this say too little to call two leads the same person (an extension, a typo). */
export const PHONE_KEY_MIN_DIGITS = 7;
/** The national number of the North American plan; longer numbers compare by their last ten digits. */
const PHONE_KEY_DIGITS = 10;

/**
 * The phone as compared: its digits, the last ten of them when there are more, so a leading country code (`+1`,
 * `001 …`, `+44 20 …` against `020 …`) does not tell two writings of one number apart: `+1 (415) 555-0100` and
 * `4155550100` have the same key. Null with fewer than seven digits.
 */
export function phoneKey(phone: string | null | undefined): string | null {
  const digits = (phone ?? '').replace(/\D+/g, '');
  if (digits.length < PHONE_KEY_MIN_DIGITS) return null;
  return digits.length > PHONE_KEY_DIGITS ? digits.slice(-PHONE_KEY_DIGITS) : digits;
}
