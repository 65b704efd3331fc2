import crypto from 'node:crypto';

/**
 * Synchronizer tokens tied to the session: an HMAC of the session id under a key derived from APP_SECRET. Nothing
 * to store, the same on every instance, and worthless without the victim's session cookie.
 */
export class CsrfTokens {
  private readonly key: Buffer;

  /** A second key from the same secret, for short-lived values the server hands itself through a cookie. */
  private readonly flashKey: Buffer;

  constructor(appSecret: string) {
    this.key = Buffer.from(crypto.hkdfSync('sha256', appSecret, 'leadscan', 'csrf v1', 32));
    this.flashKey = Buffer.from(crypto.hkdfSync('sha256', appSecret, 'leadscan', 'flash v1', 32));
  }

  /** The tag of a value the server sets in a cookie and reads back (the sign-in page's email after a new password). */
  flashTag(value: string): string {
    return crypto.createHmac('sha256', this.flashKey).update(value, 'utf8').digest('base64url');
  }

  tokenFor(sessionId: string): string {
    return crypto.createHmac('sha256', this.key).update(sessionId, 'utf8').digest('base64url');
  }

  matches(sessionId: string, presented: unknown): boolean {
    if (typeof presented !== 'string') return false;
    const expected = Buffer.from(this.tokenFor(sessionId));
    const actual = Buffer.from(presented);
    return expected.length === actual.length && crypto.timingSafeEqual(expected, actual);
  }
}
