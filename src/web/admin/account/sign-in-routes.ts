import { httpHeadersOf, httpStatusOf } from '../../../http/error-statuses.js';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { DomainContext } from '../../../domain/context.js';
import type { CsrfTokens } from '../../../domain/auth/csrf.js';
import { endSession, resolveSession } from '../../../domain/auth/sessions.js';
import { openSetupLink, setPasswordWithLink } from '../../../domain/auth/setup-links.js';
import { signIn } from '../../../domain/auth/sign-in.js';
import { AppError, isAppError } from '../../../domain/errors.js';
import { listInvitationsFor } from '../../../domain/invitations/list-invitations.js';
import { workspacesOf } from '../../../domain/members/workspace-access.js';
import type { SignedInCheck } from '../routes.js';
import { workspacePath } from '../routes.js';
import { fromOurOrigin } from '../security.js';
import { clearSessionCookie, safeNext, sessionIdOf, setSessionCookie } from '../session-cookie.js';
import { formErrorsOf } from '../ui.js';
import { loginPage, setupPage, setupUnusablePage } from './sign-in-pages.js';

interface Options {
  ctx: DomainContext;
  csrf: CsrfTokens;
  secure: boolean;
  signedIn: SignedInCheck;
}

const html = (reply: FastifyReply, status: number, page: string) => reply.code(status).type('text/html; charset=utf-8').send(page);

/**
 * The pages outside the gate: `/` (where to go), `/login`, `/setup/{token}` and `/logout`. Sign-in and setup
 * posts have no session yet, so their CSRF line is the same-origin check (a foreign page cannot sign a victim
 * into an attacker's account); the setup token itself is the secret of the setup post.
 */
export const signInRoutes: FastifyPluginAsync<Options> = async (app, { ctx, csrf, secure, signedIn }) => {
  const sameOrigin = (request: FastifyRequest) => {
    if (!fromOurOrigin(request, ctx.config.publicBaseUrl)) {
      throw new AppError('csrf_failed', 'The form was not sent from this site; open the sign-in page and try again');
    }
  };

  app.get('/', { schema: { hide: true } }, async (request, reply) => {
    const session = await signedIn(request, reply);
    if (!session) return reply;
    const [first] = await workspacesOf(ctx, session.user.userId);
    // An invitation the person can accept is the first thing to see after signing in (it waits on Account).
    const invitations = await listInvitationsFor({ ctx, input: { userId: session.user.userId } });
    const waiting = invitations.some((i) => i.canAccept);
    return reply.redirect(first && !waiting ? workspacePath(first.workspaceId, 'scans') : '/account', 303);
  });

  app.get<{ Querystring: { next?: string; notice?: string } }>('/login', { schema: { hide: true } }, async (request, reply) => {
    const next = safeNext(request.query.next);
    // Already signed in (a bookmark, the back button): straight on.
    const sessionId = sessionIdOf(request);
    if (sessionId && (await resolveSession({ ctx, input: { sessionId } }))) return reply.redirect(next ?? '/', 303);
    return html(reply, 200, loginPage({ notice: request.query.notice, next }));
  });

  app.post<{ Querystring: { next?: string }; Body: { email?: string; password?: string } }>(
    '/login',
    { schema: { hide: true } },
    async (request, reply) => {
      sameOrigin(request);
      const email = String(request.body?.email ?? '');
      const next = safeNext(request.query.next);
      try {
        const { sessionId } = await signIn({ ctx, input: { email, password: String(request.body?.password ?? ''), ip: request.ip } });
        setSessionCookie(reply, sessionId, secure);
        return await reply.redirect(next ?? '/', 303);
      } catch (error) {
        if (!isAppError(error) || (error.code !== 'invalid_credentials' && error.code !== 'rate_limited')) throw error;
        reply.headers(httpHeadersOf(error));
        return html(reply, httpStatusOf(error), loginPage({ email, next, errors: { form: error.detail } }));
      }
    },
  );

  app.get<{ Params: { token: string } }>('/setup/:token', { schema: { hide: true } }, async (request, reply) => {
    try {
      const link = await openSetupLink({ ctx, input: { token: request.params.token } });
      return await html(reply, 200, setupPage({ email: link.email }));
    } catch (error) {
      if (isAppError(error) && error.code === 'setup_link_unusable') return html(reply, httpStatusOf(error), setupUnusablePage());
      throw error;
    }
  });

  app.post<{ Params: { token: string }; Body: { password?: string; repeat?: string } }>(
    '/setup/:token',
    { schema: { hide: true } },
    async (request, reply) => {
      sameOrigin(request);
      const password = String(request.body?.password ?? '');
      let email = '';
      try {
        email = (await openSetupLink({ ctx, input: { token: request.params.token } })).email;
        if (password !== String(request.body?.repeat ?? '')) {
          throw new AppError('invalid_fields', 'The two passwords differ', [
            { field: 'repeat', code: 'invalid', message: 'This is not the same as the password above' },
          ]);
        }
        await setPasswordWithLink({ ctx, input: { token: request.params.token, password } });
        return await reply.redirect('/login?notice=password-set', 303);
      } catch (error) {
        if (isAppError(error) && error.code === 'setup_link_unusable') return html(reply, httpStatusOf(error), setupUnusablePage());
        if (isAppError(error) && error.code === 'invalid_fields') {
          return html(reply, 400, setupPage({ email, errors: formErrorsOf(error, 'password') }));
        }
        throw error;
      }
    },
  );

  app.post<{ Body: { _csrf?: string } }>('/logout', { schema: { hide: true } }, async (request, reply) => {
    const sessionId = sessionIdOf(request);
    if (!sessionId) return reply.redirect('/login', 303);
    if (!fromOurOrigin(request, ctx.config.publicBaseUrl) || !csrf.matches(sessionId, request.body?._csrf)) {
      throw new AppError('csrf_failed', 'The sign-out was not sent from this site; use the Sign out button');
    }
    await endSession({ ctx, input: { sessionId } });
    clearSessionCookie(reply, secure);
    return reply.redirect('/login?notice=signed-out', 303);
  });
};
