import { fastifyCookie } from '@fastify/cookie';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { resolveSession, SESSION_COOKIE } from '../../domain/auth/sessions.js';
import type { DomainContext } from '../../domain/context.js';
import { AppError } from '../../domain/errors.js';
import { workspacesOf } from '../../domain/members/workspace-access.js';
import { ADMIN_AREAS } from './areas.js';
import { errorPage } from './error-page.js';
import type { ShellInput } from './layout.js';
import { ADMIN_HEADERS } from './security.js';
import { topBarMaker } from './top-bar.js';

/**
 * Whether an unknown address was asked for by a person's browser rather than a program: a GET or HEAD outside the
 * API whose Accept header names HTML (browsers send `text/html,…` for a page; fetch, curl and API clients do not).
 */
export function prefersHtml(request: FastifyRequest): boolean {
  if (request.method !== 'GET' && request.method !== 'HEAD') return false;
  if (request.url.startsWith('/api/')) return false;
  const accept = request.headers.accept;
  return typeof accept === 'string' && /(^|,)\s*text\/html\b/i.test(accept);
}

/**
 * The not-found page a browser gets for an address that is no page of ours: the same page as the admin app's
 * 404, with the top bar when the person is signed in (docs/admin-app.md). Programs keep problem+json.
 */
export function browserNotFound(ctx: DomainContext) {
  const nav = ADMIN_AREAS.flatMap((area) => (area.nav ? [area.nav] : []));
  const { topBar, unreadOf } = topBarMaker(ctx, nav);
  return async (request: FastifyRequest, reply: FastifyReply) => {
    let chrome: ShellInput['chrome'];
    try {
      // The cookie plugin lives inside the admin app; here, outside it, the header is read directly.
      const sessionId = fastifyCookie.parse(request.headers.cookie ?? '')[SESSION_COOKIE];
      const user = sessionId ? await resolveSession({ ctx, input: { sessionId } }) : null;
      if (user && sessionId) {
        const workspaces = await workspacesOf(ctx, user.userId);
        chrome = await topBar({ user, sessionId }, workspaces, '', unreadOf(workspaces[0]));
      }
    } catch (error) {
      request.log.error({ err: error }, 'not-found page without its top bar');
    }
    const notFound = new AppError('route_not_found', 'No such page');
    return reply
      .code(404)
      .headers(ADMIN_HEADERS)
      .type('text/html; charset=utf-8')
      .send(errorPage(notFound, { requestId: request.id, method: request.method, chrome }));
  };
}
