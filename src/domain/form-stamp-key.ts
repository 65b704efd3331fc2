import crypto from 'node:crypto';

/** Signs and reads the hosted form's render stamp (see form-stamp.ts): `<ms>.<HMAC-SHA256 of source id and ms>`. */
export class FormStamps {
  private readonly key: Buffer;

  constructor(appSecret: string) {
    this.key = Buffer.from(crypto.hkdfSync('sha256', appSecret, 'leadscan', 'form-stamp v1', 32));
  }

  private mac(sourceId: string, at: number): string {
    return crypto.createHmac('sha256', this.key).update(`${sourceId}.${at}`, 'utf8').digest('base64url');
  }

  make(sourceId: string, at: Date): string {
    const ms = at.getTime();
    return `${ms}.${this.mac(sourceId, ms)}`;
  }

  /** The render time a stamp carries (ms), or null when it is missing, malformed or not ours for this source. */
  renderedAt(sourceId: string, stamp: unknown): number | null {
    if (typeof stamp !== 'string') return null;
    const match = /^(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(stamp);
    if (!match) return null;
    const at = Number(match[1]);
    const expected = Buffer.from(this.mac(sourceId, at));
    const given = Buffer.from(match[2]!);
    return given.length === expected.length && crypto.timingSafeEqual(given, expected) ? at : null;
  }
}
