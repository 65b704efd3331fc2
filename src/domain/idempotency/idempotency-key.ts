import crypto from 'node:crypto';
import { AppError } from '../errors.js';

/** How long a key is remembered (Stripe keeps keys 24 hours; the IETF httpapi draft leaves it to the server). */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/** 1–255 printable ASCII characters (0x20–0x7E), the same rule as Stripe's 255-character keys. */
const KEY_PATTERN = /^[\x20-\x7E]{1,255}$/;

/**
 * The Idempotency-Key header, checked: absent → null; anything but one value of 1–255 printable ASCII
 * characters → 400 invalid_idempotency_key. Surrounding spaces are part of the key as sent (no trimming:
 * HTTP already strips them from field values).
 */
export function parseIdempotencyKey(header: string | string[] | undefined): string | null {
  if (header === undefined) return null;
  if (Array.isArray(header) || !KEY_PATTERN.test(header)) {
    throw new AppError(
      'invalid_idempotency_key',
      'Idempotency-Key must be one value of 1 to 255 printable ASCII characters, e.g. a UUID made once per submission',
    );
  }
  return header;
}

/** Keys are scoped: the same key on two lead sources (or two workspaces) names two different requests. */
export function sourceScope(sourceId: string): string {
  return `src:${sourceId}`;
}

export function workspaceScope(workspaceId: string): string {
  return `ws:${workspaceId}`;
}

/**
 * What makes two requests "the same payload": SHA-256 over the media type (without parameters such as a
 * multipart boundary or charset) and the body. Callers pass the raw body bytes, or for a body whose bytes vary
 * between identical submissions (multipart boundaries), a canonical text of what was read from it.
 */
export function requestHash(input: { contentType: string | undefined; body: Buffer | string }): string {
  const mediaType = (input.contentType ?? '').split(';')[0]!.trim().toLowerCase();
  return crypto.createHash('sha256').update(mediaType).update('\n').update(input.body).digest('hex');
}
