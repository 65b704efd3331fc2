import crypto from 'node:crypto';

/**
 * Encryption at rest for secrets the product must be able to show again (upload keys, bot-check secrets):
 * AES-256-GCM under a key derived from APP_SECRET. A database dump alone reveals none of them.
 */
export class SecretBox {
  private readonly key: Buffer;
  private readonly fingerprintKey: Buffer;

  constructor(appSecret: string) {
    this.key = Buffer.from(crypto.hkdfSync('sha256', appSecret, 'leadscan', 'secret-box v1', 32));
    this.fingerprintKey = Buffer.from(crypto.hkdfSync('sha256', appSecret, 'leadscan', 'fingerprint v1', 32));
  }

  /**
   * A keyed hash (HMAC-SHA256) of a value that must be recognised again but not read back, such as an address a
   * confirmation went to: without APP_SECRET a dump cannot test guesses against it.
   */
  fingerprint(value: string): string {
    return crypto.createHmac('sha256', this.fingerprintKey).update(value).digest('base64url');
  }

  seal(plain: string): string {
    const iv = crypto.randomBytes(12);
    const cipher = crypto.createCipheriv('aes-256-gcm', this.key, iv);
    const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    return `v1.${Buffer.concat([iv, cipher.getAuthTag(), body]).toString('base64url')}`;
  }

  open(sealed: string): string {
    if (!sealed.startsWith('v1.')) throw new Error('Unknown secret envelope');
    const data = Buffer.from(sealed.slice(3), 'base64url');
    const decipher = crypto.createDecipheriv('aes-256-gcm', this.key, data.subarray(0, 12));
    decipher.setAuthTag(data.subarray(12, 28));
    return Buffer.concat([decipher.update(data.subarray(28)), decipher.final()]).toString('utf8');
  }
}

export const UPLOAD_KEY_PREFIX = 'lsk_';
/** Below this many characters a presented key is refused without a database lookup (docs/api.md). */
export const MIN_PRESENTED_KEY_LENGTH = 32;

/** 32 bytes from the CSPRNG, base64url: `lsk_` + 43 characters. */
export function mintUploadKey(): string {
  return UPLOAD_KEY_PREFIX + crypto.randomBytes(32).toString('base64url');
}

/**
 * Lookup hash. A plain SHA-256 is enough for a 256-bit random key (no dictionary to try) and, unlike an HMAC
 * under APP_SECRET, keeps working if the secret is rotated.
 */
export function hashUploadKey(key: string): string {
  return crypto.createHash('sha256').update(key, 'utf8').digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const left = Buffer.from(a, 'hex');
  const right = Buffer.from(b, 'hex');
  return left.length === right.length && crypto.timingSafeEqual(left, right);
}
