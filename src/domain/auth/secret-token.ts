import crypto from 'node:crypto';

/** 256 random bits, base64url (43 characters): session ids and setup-link tokens. */
export function mintToken(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/**
 * What the database keeps of a session id or setup token. A plain SHA-256 suffices for 256-bit random values
 * (nothing to guess from), and a dump of the table cannot be replayed as a cookie or a link.
 */
export function hashToken(token: string): string {
  return crypto.createHash('sha256').update(token, 'utf8').digest('hex');
}

/** Cheap shape check before any lookup: 43 base64url characters. */
export function looksLikeToken(value: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(value);
}
