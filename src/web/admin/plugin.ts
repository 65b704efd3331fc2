import { httpHeadersOf, httpStatusOf, logRequestError } from '../../http/error-statuses.js';
import fastifyCookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { inWorkspace, type DomainContext } from '../../domain/context.js';
import { dummyPasswordHash } from '../../domain/auth/password.js';
import { resolveSession, type SignedInUser } from '../../domain/auth/sessions.js';
import { userActor } from '../../domain/audit/actor.js';
import { AppError, isAppError } from '../../domain/errors.js';
import type { PipelineUnread } from '../../domain/leads/unread-counts.js';
import {
  requireOwner,
  workspaceAccess,
  workspacesOf,
  type WorkspaceAccess,
} from '../../domain/members/workspace-access.js';
import { toAppError } from '../../http/problem.js';
import { hasControlCharacters } from '../../domain/text-input.js';
import { ADMIN_AREAS } from './areas.js';
import { ADMIN_ASSETS } from './assets/index.js';
import { FAVICON_ICO } from './assets/favicon.js';
import { shell, type ShellInput } from './layout.js';
import { errorPage } from './error-page.js';
import type {
  AdminArea,
  AdminCall,
  AdminRoute,
  NavItem,
  PageContent,
  PageForm,
  PublicCall,
  SignedInCheck,
  WorkspaceCall,
} from './admin-route.js';
import { formErrorsOf, isFormError } from './form-controls.js';
import { FORM_LIMIT, isMultipartPost, readUploadForm, refuseMultipart } from './form-bodies.js';
import { ADMIN_HEADERS, fromOurOrigin } from './security.js';
import { clearSessionCookie, safeNext, secureCookies, sessionIdOf } from './session-cookie.js';
import { signInArea } from './account/sign-in-area.js';
import { topBarMaker } from './top-bar.js';

export interface AdminPluginOptions {
  ctx: DomainContext;
  /** Defaults to ADMIN_AREAS; tests may pass their own. */
  areas?: AdminArea[];
}

declare module 'fastify' {
  interface FastifyRequest {
    /** Set on admin routes so responses get the admin headers. */
    adminPage?: boolean;
    /** Who asked, once the gate knows: an error page then gets the top bar. */
    adminViewer?: { user: SignedInUser; sessionId: string; workspace?: WorkspaceAccess };
  }
}

function stringRecord(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (typeof v === 'string') out[key] = v;
      else if (Array.isArray(v) && typeof v[0] === 'string') out[key] = v[0];
    }
  }
  return out;
}

/** Runs a handler; a refusal its form declares is answered by the form's `rerender`, anything else is thrown on. */
export async function answerForm<C extends PublicCall>(
  form: PageForm<C> | undefined,
  call: C,
  handler: () => Promise<unknown>,
): Promise<unknown> {
  try {
    return await handler();
  } catch (error) {
    if (!form || !isAppError(error)) throw error;
    const declared = form.fields?.[error.code] !== undefined;
    if (!(declared || (form.only ? form.only.includes(error.code) : isFormError(error)))) throw error;
    call.reply.headers(httpHeadersOf(error));
    return form.rerender(call, {
      status: httpStatusOf(error),
      errors: formErrorsOf(error, form.fields?.[error.code] ?? form.field),
      error,
    });
  }
}

/**
 * The admin web app (docs/security.md): server-rendered pages behind a database session. Every route runs
 * through one gate: session → (POST) same-origin and CSRF token → membership of the URL's workspace (404 when
 * none) → role (403); a public route (signing in, password links) has no session, so its POST's CSRF line is the
 * same-origin check alone. Handlers then call the same domain verbs as the CLI and render a template.
 */
export const adminPlugin: FastifyPluginAsync<AdminPluginOptions> = async (app, options) => {
  const { ctx } = options;
  const areas = [...(options.areas ?? ADMIN_AREAS), signInArea];
  const { csrf } = ctx;
  const secure = secureCookies(ctx.config.publicBaseUrl);
  const nav: NavItem[] = areas.flatMap((area) => (area.nav ? [area.nav] : []));

  // The dummy hash an unknown email is checked against is made now, not on the first sign-in, so that first
  // unknown-email answer does not take twice as long as a wrong password.
  await dummyPasswordHash();
  await app.register(fastifyCookie);
  // Form bodies (form-bodies.ts): urlencoded up to the form limit; multipart is only marked here, never read, until
  // the gate has checked the session and the origin of a route that declares an upload (`readUploadForm`).
  await app.register(formbody, { bodyLimit: FORM_LIMIT });
  // A file over its route's size arrives cut (`truncated`), for the route to say so next to its field.
  await app.register(multipart, { throwFileSizeLimit: false });

  app.addHook('onRequest', async (request) => {
    request.adminPage = true;
  });
  app.addHook('onSend', async (request, reply) => {
    if (!request.adminPage) return;
    // Pages are never cached; the stylesheet, script and icons (which set a public cache) keep theirs.
    const cache = reply.getHeader('cache-control');
    reply.headers(ADMIN_HEADERS);
    if (typeof cache === 'string' && cache.startsWith('public')) reply.header('cache-control', cache);
  });

  const { topBar: chromeOf, unreadOf } = topBarMaker(ctx, nav);

  app.setErrorHandler(async (error, request, reply) => {
    const appError = toAppError(error as Error, request);
    const status = httpStatusOf(appError);
    logRequestError(request, error, appError, 'admin page');
    // A refusal to a signed-in person keeps the top bar, so they can go on from there. The bar reads only their
    // own workspaces, the same whether the refused resource exists or not. When the database is what failed, the
    // page goes without it.
    let chrome: ShellInput['chrome'];
    const viewer = request.adminViewer;
    if (viewer && status < 500) {
      try {
        const workspaces = await workspacesOf(ctx, viewer.user.userId);
        chrome = await chromeOf(viewer, workspaces, '', unreadOf(viewer.workspace ?? workspaces[0]));
      } catch (chromeError) {
        request.log.error({ err: chromeError }, 'admin error page without its top bar');
      }
    }
    reply.headers(httpHeadersOf(appError));
    return reply
      .code(status)
      .type('text/html; charset=utf-8')
      .send(errorPage(appError, { requestId: request.id, method: request.method, chrome }));
  });

  app.get<{ Params: { name: string } }>('/admin/assets/:name', { schema: { hide: true } }, async (request, reply) => {
    const asset = Object.hasOwn(ADMIN_ASSETS, request.params.name) ? ADMIN_ASSETS[request.params.name] : undefined;
    if (!asset) throw new AppError('route_not_found', 'No such asset');
    const query = request.query as { v?: string };
    return reply
      .headers({
        'cache-control': query.v === asset.version ? 'public, max-age=31536000, immutable' : 'public, max-age=300',
      })
      .type(asset.contentType)
      .send(asset.body);
  });

  // Browsers ask for /favicon.ico by themselves (pages without our <link rel="icon">, such as a JSON answer).
  app.get('/favicon.ico', { schema: { hide: true } }, async (_request, reply) =>
    reply.headers({ 'cache-control': 'public, max-age=604800' }).type('image/x-icon').send(FAVICON_ICO),
  );

  /** The signed-in person, or a 303 to /login (the cookie is cleared when it names no live session). */
  const signedIn: SignedInCheck = async (request, reply) => {
    const sessionId = sessionIdOf(request);
    const user = sessionId ? await resolveSession({ ctx, input: { sessionId } }) : null;
    if (user && sessionId) return { user, sessionId };
    if (sessionId) clearSessionCookie(reply, secure);
    const back = request.method === 'GET' ? safeNext(request.url) : undefined;
    const next = back ? `?next=${encodeURIComponent(back)}` : '';
    await reply.redirect(`/login${next}`, 303);
    return null;
  };

  const csrfFailed = () =>
    new AppError('csrf_failed', 'The form was not sent from this site or has expired; reload the page and try again');
  const checkCsrf = (request: FastifyRequest, sessionId: string, body: Record<string, string>) => {
    if (!fromOurOrigin(request, ctx.config.publicBaseUrl) || !csrf.matches(sessionId, body._csrf)) throw csrfFailed();
  };
  /**
   * A POST's CSRF line, and its body when it is multipart: only a route with `upload` reads one, after the session
   * (checked by now) and the origin, and its token is checked before its file is read (form-bodies.ts).
   */
  const checkPost = async (
    route: AdminRoute,
    request: FastifyRequest,
    reply: FastifyReply,
    sessionId: string,
  ): Promise<void> => {
    if (!isMultipartPost(request)) return checkCsrf(request, sessionId, stringRecord(request.body));
    if (!route.upload) refuseMultipart(request, reply);
    if (!fromOurOrigin(request, ctx.config.publicBaseUrl)) {
      reply.header('connection', 'close');
      throw csrfFailed();
    }
    request.body = await readUploadForm(request, reply, route.upload, (fields) =>
      checkCsrf(request, sessionId, fields),
    );
  };

  /** What every call holds, once the request got past its CSRF line. */
  const publicCall = (request: FastifyRequest, reply: FastifyReply): PublicCall => {
    const params = stringRecord(request.params);
    // Ids and keys in a path never hold a control character: such a path names nothing, like any unknown id.
    if (Object.values(params).some((value) => hasControlCharacters(value)))
      throw new AppError('route_not_found', 'No such page');
    return {
      request,
      reply,
      ctx,
      params,
      query: stringRecord(request.query),
      body: stringRecord(request.body),
      send: (status: number, page: string) => reply.code(status).type('text/html; charset=utf-8').send(page),
      redirect: (path: string, notice?: string) => reply.redirect(withNotice(path, notice), 303),
    };
  };

  const gate = (route: AdminRoute) => async (request: FastifyRequest, reply: FastifyReply) => {
    if (route.access === 'public') {
      // No session yet, so no token: a foreign page must not sign a visitor into an attacker's account (the token
      // in a link is the secret of its post).
      if (route.method === 'POST' && !fromOurOrigin(request, ctx.config.publicBaseUrl)) {
        throw new AppError('csrf_failed', 'The form was not sent from this site; open the sign-in page and try again');
      }
      // The pages before a session take no upload: a multipart body is refused unread.
      if (isMultipartPost(request)) refuseMultipart(request, reply);
      const call = publicCall(request, reply);
      return answerForm(route.form, call, () => route.handler(call));
    }
    const session = await signedIn(request, reply);
    if (!session) return reply;
    request.adminViewer = session;
    if (route.method === 'POST') await checkPost(route, request, reply, session.sessionId);
    const base = publicCall(request, reply);
    // The person's role in the URL's workspace and their workspaces for the switcher, read side by side.
    const [workspace, workspaces] = await Promise.all([
      route.access === 'signed-in'
        ? undefined
        : workspaceAccess({ ctx, input: { userId: session.user.userId, workspaceId: base.params.workspaceId ?? '' } }),
      workspacesOf(ctx, session.user.userId),
    ]);
    if (workspace) {
      request.adminViewer = { ...session, workspace };
      if (route.access === 'owner') requireOwner(workspace);
    }
    const token = csrf.tokenFor(session.sessionId);
    // The nav shows the workspace of the page, else the person's first; its unread counts are read once a request.
    const home = workspace ?? workspaces[0];
    let counts: Promise<PipelineUnread[]> | undefined;
    const homeUnread = () => (counts ??= unreadOf(home)());
    const call: AdminCall = {
      ...base,
      // Every verb a page calls acts for the signed-in person (the audit log's actor).
      ctx: { ...ctx, actor: userActor(session.user) },
      user: session.user,
      workspace,
      workspaces,
      csrf: token,
      unreadCounts: homeUnread,
      render: async (status: number, page: PageContent) => {
        const chrome = await chromeOf({ ...session, workspace }, workspaces, page.area, homeUnread);
        return base.send(status, shell({ title: page.title, body: page.body, chrome }));
      },
    };
    if (route.access === 'signed-in') return answerForm(route.form, call, () => route.handler(call));
    // Set above for an owner or member route (or the request was refused there).
    const workspaceCall: WorkspaceCall = {
      ...call,
      workspace: workspace!,
      ctx: inWorkspace(call.ctx, workspace!.workspaceId),
    };
    return answerForm(route.form, workspaceCall, () => route.handler(workspaceCall));
  };

  for (const area of areas) {
    for (const route of area.routes) {
      app.route({ method: route.method, url: route.path, schema: { hide: true }, handler: gate(route) });
    }
  }
};

/**
 * A redirect's address with its notice: the query goes before a fragment (`/quotes/q1?notice=quote-saved#lines`), so
 * the page both shows the notice and lands at the place.
 */
export function withNotice(path: string, notice?: string): string {
  if (!notice) return path;
  const hash = path.indexOf('#');
  const [base, fragment] = hash < 0 ? [path, ''] : [path.slice(0, hash), path.slice(hash)];
  return `${base}${base.includes('?') ? '&' : '?'}notice=${encodeURIComponent(notice)}${fragment}`;
}
