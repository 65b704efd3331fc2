import crypto from 'node:crypto';
import { promisify } from 'node:util';
import { AppError } from '../errors.js';

const scrypt = promisify(crypto.scrypt) as (
  password: string,
  salt: Buffer,
  keylen: number,
  options: crypto.ScryptOptions,
) => Promise<Buffer>;

/**
 * scrypt cost: N 2^15, r 8, p 1 (32 MiB per hash). OWASP's floor is 2^17; 2^15 keeps a sign-in near 0.1 s and the
 * memory of concurrent sign-ins modest on a small server. The parameters are stored with each hash, so a later
 * release can raise them and re-hash on the next sign-in.
 */
const COST = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };
const KEY_LENGTH = 32;
export const MIN_PASSWORD_LENGTH = 10;
export const MAX_PASSWORD_LENGTH = 1000;

/**
 * scrypt runs on libuv's small thread pool, 32 MiB and about 0.1 s of a core each: a flood of sign-ins (even ones
 * the throttle will refuse next) must not take every core and the pool from everything else. At most
 * MAX_CONCURRENT run at once; up to MAX_WAITING wait their turn; past that the answer is an immediate 429.
 */
const MAX_CONCURRENT = 2;
const MAX_WAITING = 16;
let running = 0;
const waiting: Array<() => void> = [];

/** Counts for tests and metrics: password checks (scrypt verifications) run, and the most scrypt runs at once. */
export const passwordWork = { checks: 0, peak: 0 };

async function inScryptSlot<T>(work: () => Promise<T>): Promise<T> {
  if (running < MAX_CONCURRENT) {
    running += 1;
  } else {
    if (waiting.length >= MAX_WAITING) {
      throw new AppError(
        'rate_limited',
        'The server is busy checking other sign-ins. Try again in a few seconds.',
        [],
        { retryAfterSeconds: 5 },
      );
    }
    // The slot is handed over by the one finishing, so `running` stays as it is.
    await new Promise<void>((resolve) => waiting.push(resolve));
  }
  passwordWork.peak = Math.max(passwordWork.peak, running);
  try {
    return await work();
  } finally {
    const next = waiting.shift();
    if (next) next();
    else running -= 1;
  }
}

/** `scrypt$N$r$p$salt$hash`: the parameters travel with the hash, so the cost can rise later. */
export async function hashPassword(password: string): Promise<string> {
  const salt = crypto.randomBytes(16);
  const hash = await inScryptSlot(() => scrypt(password.normalize('NFC'), salt, KEY_LENGTH, COST));
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64url'), hash.toString('base64url')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, hash] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !hash) return false;
  const expected = Buffer.from(hash, 'base64url');
  const actual = await inScryptSlot(() => {
    passwordWork.checks += 1;
    return scrypt(password.normalize('NFC'), Buffer.from(salt, 'base64url'), expected.length, {
      N: Number(n),
      r: Number(r),
      p: Number(p),
      maxmem: COST.maxmem,
    });
  });
  return crypto.timingSafeEqual(actual, expected);
}

/**
 * Hashed once per process and verified against when the email is unknown, so an unknown email costs the same
 * scrypt work as a wrong password and the answer time does not tell which it was.
 */
let dummyHash: Promise<string> | undefined;
export function dummyPasswordHash(): Promise<string> {
  dummyHash ??= hashPassword(crypto.randomBytes(16).toString('hex'));
  return dummyHash;
}

/** A new password: at least 10 characters (docs/security.md); the field error is shown next to the field. */
export function checkNewPassword(password: string, field = 'password'): string {
  const length = [...password].length;
  if (length < MIN_PASSWORD_LENGTH || length > MAX_PASSWORD_LENGTH) {
    throw new AppError(
      'invalid_fields',
      `The password must be ${MIN_PASSWORD_LENGTH} to ${MAX_PASSWORD_LENGTH} characters`,
      [
        {
          field,
          code: length < MIN_PASSWORD_LENGTH ? 'invalid' : 'too_long',
          message:
            length < MIN_PASSWORD_LENGTH
              ? `Use at least ${MIN_PASSWORD_LENGTH} characters`
              : `Use at most ${MAX_PASSWORD_LENGTH} characters`,
          ...(length > MAX_PASSWORD_LENGTH ? { max: MAX_PASSWORD_LENGTH } : {}),
        },
      ],
    );
  }
  return password;
}
