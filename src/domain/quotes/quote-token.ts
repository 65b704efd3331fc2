import crypto from 'node:crypto';

/** The customer's link token: 128 random bits, base64url (22 characters). Never guessable or listed. */
export function mintQuoteToken(): string {
  return crypto.randomBytes(16).toString('base64url');
}

/** What the database keeps for lookup (beside the secret box's copy, for staff to show the link again). */
export function hashQuoteToken(token: string): string {
  return crypto.createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A token's shape, checked before any lookup: a malformed link is "not found" without touching the database. */
export function isQuoteToken(value: string): boolean {
  return /^[A-Za-z0-9_-]{22}$/.test(value);
}
