import crypto from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { CsrfTokens } from '../../../domain/csrf.js';

const COOKIE = 'leadscan_sign_in_email';
const LIFETIME_MS = 5 * 60 * 1000;

/**
 * After a password is set through a link (first start, reset, invitation), the sign-in page has the person's email
 * filled in. The email never goes into a URL (it would sit in the history, the logs and a Referer); it rides a
 * cookie only /login reads: HttpOnly, SameSite=Lax, five minutes, tagged under APP_SECRET so that no other site or
 * sibling host can plant an address of its choosing in our sign-in form.
 */
export function setSignInEmail(
  reply: FastifyReply,
  tokens: CsrfTokens,
  email: string,
  now: Date,
  secure: boolean,
): void {
  const payload = `${Buffer.from(email, 'utf8').toString('base64url')}.${now.getTime() + LIFETIME_MS}`;
  reply.setCookie(COOKIE, `${payload}.${tokens.flashTag(payload)}`, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/login',
    secure,
    maxAge: LIFETIME_MS / 1000,
  });
}

/** The email of a fresh, untampered cookie; the cookie is cleared once read (a reload shows an empty form). */
export function takeSignInEmail(
  request: FastifyRequest,
  reply: FastifyReply,
  tokens: CsrfTokens,
  now: Date,
  secure: boolean,
): string | undefined {
  const value = request.cookies[COOKIE];
  if (typeof value !== 'string' || value === '') return undefined;
  reply.clearCookie(COOKIE, { httpOnly: true, sameSite: 'lax', path: '/login', secure });
  const [email = '', expires = '', tag = ''] = value.split('.');
  const expected = Buffer.from(tokens.flashTag(`${email}.${expires}`));
  const presented = Buffer.from(tag);
  if (expected.length !== presented.length || !crypto.timingSafeEqual(expected, presented)) return undefined;
  if (!/^\d+$/.test(expires) || Number(expires) < now.getTime()) return undefined;
  return Buffer.from(email, 'base64url').toString('utf8');
}
