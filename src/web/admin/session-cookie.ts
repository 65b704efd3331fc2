import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_ABSOLUTE_MS, SESSION_COOKIE } from '../../domain/auth/sessions.js';

/** Cookies are marked Secure when the server is reached over https (PUBLIC_BASE_URL). */
export function secureCookies(publicBaseUrl: string): boolean {
  return publicBaseUrl.startsWith('https:');
}

/** docs/security.md: HttpOnly, SameSite=Lax, Path=/, Secure when PUBLIC_BASE_URL is https. */
export function setSessionCookie(reply: FastifyReply, sessionId: string, secure: boolean): void {
  reply.setCookie(SESSION_COOKIE, sessionId, {
    httpOnly: true,
    sameSite: 'lax',
    path: '/',
    secure,
    maxAge: SESSION_ABSOLUTE_MS / 1000,
  });
}

export function clearSessionCookie(reply: FastifyReply, secure: boolean): void {
  reply.clearCookie(SESSION_COOKIE, { httpOnly: true, sameSite: 'lax', path: '/', secure });
}

export function sessionIdOf(request: FastifyRequest): string | undefined {
  const value = request.cookies[SESSION_COOKIE];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** Where to go after signing in: only a path of ours, never another site (`//evil.example`). */
export function safeNext(next: unknown): string | undefined {
  return typeof next === 'string' && /^\/(w\/|account)[A-Za-z0-9/_\-?=&.%]*$/.test(next) ? next : undefined;
}
