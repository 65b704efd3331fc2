import { httpHeadersOf, httpStatusOf } from '../../../http/error-statuses.js';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { DomainContext } from '../../../domain/context.js';
import type { CsrfTokens } from '../../../domain/csrf.js';
import { endSession, resolveSession } from '../../../domain/auth/sessions.js';
import { openSetupLink, setPasswordWithLink } from '../../../domain/auth/setup-links.js';
import { signIn } from '../../../domain/auth/sign-in.js';
import { requestPasswordReset } from '../../../domain/auth/request-password-reset.js';
import { confirmEmailChange, openEmailChange } from '../../../domain/users/confirm-email-change.js';
import { AppError, isAppError } from '../../../domain/errors.js';
import { listInvitationsFor } from '../../../domain/invitations/list-invitations.js';
import { workspacesOf } from '../../../domain/members/workspace-access.js';
import type { SignedInCheck } from '../admin-route.js';
import { workspacePath } from '../admin-route.js';
import { fromOurOrigin } from '../security.js';
import { clearSessionCookie, safeNext, sessionIdOf, setSessionCookie } from '../session-cookie.js';
import { formErrorsOf } from '../form-controls.js';
import { setSignInEmail, takeSignInEmail } from './sign-in-flash.js';
import {
  confirmEmailPage,
  emailChangedPage,
  emailLinkUnusablePage,
  forgotPasswordPage,
  loginPage,
  setupPage,
  setupUnusablePage,
} from './sign-in-pages.js';

interface Options {
  ctx: DomainContext;
  csrf: CsrfTokens;
  secure: boolean;
  signedIn: SignedInCheck;
}

const html = (reply: FastifyReply, status: number, page: string) => reply.code(status).type('text/html; charset=utf-8').send(page);

/**
 * The pages outside the gate: `/` (where to go), `/login`, `/forgot-password`, `/setup/{token}`,
 * `/confirm-email/{token}` and `/logout`. Sign-in, reset and setup posts have no session yet, so their CSRF line
 * is the same-origin check (a foreign page cannot sign a victim into an attacker's account); the token in a link
 * is the secret of its post.
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
    return reply.redirect(first && !waiting ? workspacePath(first.workspaceId, 'leads') : '/account', 303);
  });

  app.get<{ Querystring: { next?: string; notice?: string } }>('/login', { schema: { hide: true } }, async (request, reply) => {
    const next = safeNext(request.query.next);
    // Already signed in (a bookmark, the back button): straight on.
    const sessionId = sessionIdOf(request);
    if (sessionId && (await resolveSession({ ctx, input: { sessionId } }))) return reply.redirect(next ?? '/', 303);
    // Just after a password was set through a link: the email the person set it for (sign-in-flash.ts).
    const email = takeSignInEmail(request, reply, csrf, ctx.clock.now(), secure);
    return html(reply, 200, loginPage({ notice: request.query.notice, next, email }));
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

  app.get('/forgot-password', { schema: { hide: true } }, async (_request, reply) =>
    html(reply, 200, forgotPasswordPage({ emailOn: ctx.mail !== undefined })),
  );

  app.post<{ Body: { email?: string } }>('/forgot-password', { schema: { hide: true } }, async (request, reply) => {
    sameOrigin(request);
    if (!ctx.mail) return html(reply, 200, forgotPasswordPage({ emailOn: false }));
    const email = String(request.body?.email ?? '');
    try {
      await requestPasswordReset({ ctx, input: { email, ip: request.ip } });
    } catch (error) {
      // Only a malformed address is said (that reveals nothing); every real address gets the one answer below.
      if (isAppError(error) && error.code === 'invalid_fields') {
        return html(reply, 400, forgotPasswordPage({ emailOn: true, email, errors: formErrorsOf(error, 'email') }));
      }
      throw error;
    }
    return html(reply, 200, forgotPasswordPage({ emailOn: true, sent: true }));
  });

  app.get<{ Params: { token: string } }>('/confirm-email/:token', { schema: { hide: true } }, async (request, reply) => {
    try {
      const change = await openEmailChange({ ctx, input: { token: request.params.token } });
      return await html(reply, 200, confirmEmailPage(change));
    } catch (error) {
      if (isAppError(error) && error.code === 'email_link_unusable') return html(reply, httpStatusOf(error), emailLinkUnusablePage());
      throw error;
    }
  });

  app.post<{ Params: { token: string } }>('/confirm-email/:token', { schema: { hide: true } }, async (request, reply) => {
    sameOrigin(request);
    let change: { email: string; newEmail: string } | undefined;
    try {
      change = await openEmailChange({ ctx, input: { token: request.params.token } });
      const { newEmail } = await confirmEmailChange({ ctx, input: { token: request.params.token } });
      return await html(reply, 200, emailChangedPage({ newEmail }));
    } catch (error) {
      if (isAppError(error) && error.code === 'email_link_unusable') return html(reply, httpStatusOf(error), emailLinkUnusablePage());
      if (isAppError(error) && error.code === 'email_taken' && change) {
        return html(reply, httpStatusOf(error), confirmEmailPage({ ...change, errors: { form: error.detail } }));
      }
      throw error;
    }
  });

  app.get<{ Params: { token: string } }>('/setup/:token', { schema: { hide: true } }, async (request, reply) => {
    try {
      const link = await openSetupLink({ ctx, input: { token: request.params.token } });
      return await html(reply, 200, setupPage(link));
    } catch (error) {
      if (isAppError(error) && error.code === 'setup_link_unusable') return html(reply, httpStatusOf(error), setupUnusablePage());
      throw error;
    }
  });

  app.post<{ Params: { token: string }; Body: { password?: string; repeat?: string; email?: string; displayName?: string; businessName?: string } }>(
    '/setup/:token',
    { schema: { hide: true } },
    async (request, reply) => {
      sameOrigin(request);
      const password = String(request.body?.password ?? '');
      const business = request.body?.businessName;
      const profile = {
        email: String(request.body?.email ?? ''),
        displayName: String(request.body?.displayName ?? ''),
        // Named only when the page sent the field (a post from an older page leaves the workspace's name).
        ...(business === undefined ? {} : { businessName: String(business) }),
      };
      let link = { email: '', firstOwner: false };
      try {
        link = await openSetupLink({ ctx, input: { token: request.params.token } });
        const repeat = String(request.body?.repeat ?? '');
        const done = await setPasswordWithLink({ ctx, input: { token: request.params.token, password, repeat, ...(link.firstOwner ? { profile } : {}) } });
        setSignInEmail(reply, csrf, done.email, ctx.clock.now(), secure);
        return await reply.redirect('/login?notice=password-set', 303);
      } catch (error) {
        if (isAppError(error) && error.code === 'setup_link_unusable') return html(reply, httpStatusOf(error), setupUnusablePage());
        if (isAppError(error) && (error.code === 'invalid_fields' || error.code === 'email_taken' || error.code === 'name_taken')) {
          const errors = formErrorsOf(error, error.code === 'name_taken' ? 'businessName' : 'password');
          return html(reply, httpStatusOf(error), setupPage({ ...link, values: profile, errors }));
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
