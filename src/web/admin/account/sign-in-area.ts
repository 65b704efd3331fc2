import { createSession, endSession, resolveSession } from '../../../domain/auth/sessions.js';
import { openSetupLink, setPasswordWithLink } from '../../../domain/auth/setup-links.js';
import { signIn } from '../../../domain/auth/sign-in.js';
import { requestPasswordReset } from '../../../domain/auth/request-password-reset.js';
import { confirmEmailChange, openEmailChange } from '../../../domain/users/confirm-email-change.js';
import { listInvitationsFor } from '../../../domain/invitations/list-invitations.js';
import type { AdminArea, PublicCall } from '../admin-route.js';
import { workspacePath } from '../admin-route.js';
import { clearSessionCookie, safeNext, secureCookies, sessionIdOf, setSessionCookie } from '../session-cookie.js';
import {
  confirmEmailPage,
  emailChangedPage,
  emailLinkUnusablePage,
  forgotPasswordPage,
  loginPage,
  setupPage,
  setupUnusablePage,
} from './sign-in-pages.js';

const secure = (call: PublicCall) => secureCookies(call.ctx.config.publicBaseUrl);

/** What the first-start setup form sent about the owner and the business (never the password). */
function setupProfile(call: PublicCall) {
  const business = call.body.businessName;
  return {
    email: call.body.email ?? '',
    displayName: call.body.displayName ?? '',
    // Named only when the page sent the field (a post from an older page leaves the workspace's name).
    ...(business === undefined ? {} : { businessName: business }),
  };
}

/**
 * The pages around signing in: `/` (where to go), `/login`, `/forgot-password`, `/setup/{token}`,
 * `/confirm-email/{token}` and `/logout`. All but `/` and `/logout` are public: their posts have no session yet,
 * so the gate's CSRF line for them is the same-origin check (plugin.ts), and the token in a link is the secret of
 * its post. Refusals the person can act on are the routes' declared forms; the rest go to the error page.
 */
export const signInArea: AdminArea = {
  routes: [
    {
      method: 'GET',
      path: '/',
      access: 'signed-in',
      handler: async (call) => {
        // An invitation the person can accept is the first thing to see after signing in (it waits on Account).
        const invitations = await listInvitationsFor({ ctx: call.ctx, input: { userId: call.user.userId } });
        const waiting = invitations.some((i) => i.canAccept);
        const [first] = call.workspaces;
        return call.redirect(first && !waiting ? workspacePath(first.workspaceId, 'leads') : '/account');
      },
    },
    {
      method: 'GET',
      path: '/login',
      access: 'public',
      handler: async (call) => {
        const next = safeNext(call.query.next);
        // Already signed in (a bookmark, the back button): straight on.
        const sessionId = sessionIdOf(call.request);
        if (sessionId && (await resolveSession({ ctx: call.ctx, input: { sessionId } })))
          return call.redirect(next ?? '/');
        return call.send(200, loginPage({ notice: call.query.notice, next }));
      },
    },
    {
      method: 'POST',
      path: '/login',
      access: 'public',
      handler: async (call) => {
        const { sessionId } = await signIn({
          ctx: call.ctx,
          input: { email: call.body.email ?? '', password: call.body.password ?? '', ip: call.request.ip },
        });
        setSessionCookie(call.reply, sessionId, secure(call));
        return call.redirect(safeNext(call.query.next) ?? '/');
      },
      form: {
        field: 'form',
        only: ['invalid_credentials', 'rate_limited'],
        // Said above the form, not beside the password: which of the two was wrong is not told.
        rerender: async (call, { status, error }) =>
          call.send(
            status,
            loginPage({
              email: call.body.email ?? '',
              next: safeNext(call.query.next),
              errors: { form: error.detail },
            }),
          ),
      },
    },
    {
      method: 'GET',
      path: '/forgot-password',
      access: 'public',
      handler: async (call) =>
        call.send(200, forgotPasswordPage({ emailOn: call.ctx.mail !== undefined, cli: call.ctx.config.cliCommand })),
    },
    {
      method: 'POST',
      path: '/forgot-password',
      access: 'public',
      handler: async (call) => {
        if (!call.ctx.mail)
          return call.send(200, forgotPasswordPage({ emailOn: false, cli: call.ctx.config.cliCommand }));
        await requestPasswordReset({ ctx: call.ctx, input: { email: call.body.email ?? '', ip: call.request.ip } });
        return call.send(200, forgotPasswordPage({ emailOn: true, sent: true, cli: call.ctx.config.cliCommand }));
      },
      // Only a malformed address is said (that reveals nothing); every real address gets the one answer above.
      form: {
        field: 'email',
        only: ['invalid_fields'],
        rerender: async (call, { status, errors }) =>
          call.send(
            status,
            forgotPasswordPage({
              emailOn: true,
              email: call.body.email ?? '',
              errors,
              cli: call.ctx.config.cliCommand,
            }),
          ),
      },
    },
    {
      method: 'GET',
      path: '/confirm-email/:token',
      access: 'public',
      handler: async (call) =>
        call.send(
          200,
          confirmEmailPage(await openEmailChange({ ctx: call.ctx, input: { token: call.params.token ?? '' } })),
        ),
      form: {
        field: 'form',
        only: ['email_link_unusable'],
        rerender: async (call, { status }) => call.send(status, emailLinkUnusablePage()),
      },
    },
    {
      method: 'POST',
      path: '/confirm-email/:token',
      access: 'public',
      handler: async (call) => {
        const token = call.params.token ?? '';
        await openEmailChange({ ctx: call.ctx, input: { token } });
        const { newEmail } = await confirmEmailChange({ ctx: call.ctx, input: { token } });
        return call.send(200, emailChangedPage({ newEmail }));
      },
      form: {
        field: 'form',
        only: ['email_link_unusable', 'email_taken'],
        rerender: async (call, { status, error }) => {
          if (error.code === 'email_link_unusable') return call.send(status, emailLinkUnusablePage());
          // The address was taken meanwhile: the link still waits, so its page is shown again with why.
          const change = await openEmailChange({ ctx: call.ctx, input: { token: call.params.token ?? '' } });
          return call.send(status, confirmEmailPage({ ...change, errors: { form: error.detail } }));
        },
      },
    },
    {
      method: 'GET',
      path: '/setup/:token',
      access: 'public',
      handler: async (call) =>
        call.send(200, setupPage(await openSetupLink({ ctx: call.ctx, input: { token: call.params.token ?? '' } }))),
      form: {
        field: 'password',
        only: ['setup_link_unusable'],
        rerender: async (call, { status }) => call.send(status, setupUnusablePage(call.ctx.config.cliCommand)),
      },
    },
    {
      method: 'POST',
      path: '/setup/:token',
      access: 'public',
      handler: async (call) => {
        const token = call.params.token ?? '';
        const link = await openSetupLink({ ctx: call.ctx, input: { token } });
        const { password = '', repeat = '' } = call.body;
        const done = await setPasswordWithLink({
          ctx: call.ctx,
          input: { token, password, repeat, ...(link.firstOwner ? { profile: setupProfile(call) } : {}) },
        });
        // The person who just chose the password is signed in with it, with no second sign-in: whoever holds the
        // link could sign in with that password anyway; every older session ended above (docs/admin-app.md,
        // "First sign-in").
        const { sessionId } = await createSession({
          ctx: call.ctx,
          input: { userId: done.userId, signIn: { displayName: done.displayName } },
        });
        setSessionCookie(call.reply, sessionId, secure(call));
        return call.redirect('/', 'password-set');
      },
      form: {
        field: 'password',
        fields: { name_taken: 'businessName' },
        only: ['setup_link_unusable', 'invalid_fields', 'email_taken', 'name_taken'],
        rerender: async (call, { status, errors, error }) => {
          if (error.code === 'setup_link_unusable')
            return call.send(status, setupUnusablePage(call.ctx.config.cliCommand));
          // The password was not set, so the link still opens: its page again, with what was typed.
          const link = await openSetupLink({ ctx: call.ctx, input: { token: call.params.token ?? '' } });
          return call.send(status, setupPage({ ...link, values: setupProfile(call), errors }));
        },
      },
    },
    {
      method: 'POST',
      path: '/logout',
      access: 'signed-in',
      handler: async (call) => {
        await endSession({ ctx: call.ctx, input: { sessionId: sessionIdOf(call.request) ?? '' } });
        clearSessionCookie(call.reply, secure(call));
        return call.redirect('/login', 'signed-out');
      },
    },
  ],
};
