import crypto from 'node:crypto';

/**
 * A customer's link token, shared by every kind of document sent to a customer (a quote's `/q/{token}`, an invoice's
 * `/i/{token}`): 128 random bits, base64url (22 characters). Never guessable or listed; the database keeps its SHA-256
 * for lookup and a copy sealed by the secret box so staff can show the link again (docs/quotes.md, "The customer's
 * link").
 */
export function mintLinkToken(): string {
  return crypto.randomBytes(16).toString('base64url');
}

/** What the database keeps for lookup. */
export function hashLinkToken(token: string): string {
  return crypto.createHash('sha256').update(token, 'utf8').digest('hex');
}

/** A token's shape, checked before any lookup: a malformed link is "not found" without touching the database. */
export function isLinkToken(value: string): boolean {
  return /^[A-Za-z0-9_-]{22}$/.test(value);
}
