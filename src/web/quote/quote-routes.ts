import crypto from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { claimAttempt, type AttemptLimit } from '../../domain/auth/attempt-throttle.js';
import { resolveSession } from '../../domain/auth/sessions.js';
import type { DomainContext } from '../../domain/context.js';
import { AppError, isAppError } from '../../domain/errors.js';
import { workspaceAccess } from '../../domain/members/workspace-access.js';
import { acceptQuote } from '../../domain/quotes/accept-quote.js';
import { openQuoteByToken } from '../../domain/quotes/customer-quote.js';
import { declineQuote } from '../../domain/quotes/decline-quote.js';
import { recordQuoteView } from '../../domain/quotes/record-quote-view.js';
import { customerQuotePdf } from '../../domain/quotes/quote-pdf.js';
import { httpHeadersOf, httpStatusOf, logRequestError } from '../../http/error-statuses.js';
import { toAppError } from '../../http/problem.js';
import { fromOurOrigin } from '../admin/security.js';
import { sessionIdOf } from '../admin/session-cookie.js';
import { QUOTE_ASSETS } from './quote-assets.js';
import { invoiceLinksOfQuote } from '../../domain/invoices/quote-invoice-links.js';
import { frozenRoomPlans } from './quote-plans.js';
import { quoteMessagePage, quoteNotFoundPage, quotePage, quotePreparingPage, type AnswerState } from './quote-page.js';

/**
 * Headers of the customer's page: our origin only and no inline script (an injected value cannot run), never framed,
 * never indexed, never cached, and no Referer at all (the token is in the path, and the page links nowhere else).
 */
export const QUOTE_PAGE_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action " +
    "'self'; frame-ancestors 'none'; base-uri 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'x-robots-tag': 'noindex, nofollow',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-store',
};

/** Accept and decline posts: 20 per 15 minutes from one address, and 20 per link, whatever their outcome. */
export const QUOTE_ANSWER_LIMIT: AttemptLimit = { max: 20, windowMs: 15 * 60 * 1000 };

const QUOTE_PATH = '/q/:token';

interface Params {
  token: string;
}
type Body = Record<string, unknown> | undefined;

const field = (body: Body, name: string): string => {
  const value = body?.[name];
  if (Array.isArray(value)) return typeof value[0] === 'string' ? value[0] : '';
  return typeof value === 'string' ? value : '';
};
const fieldList = (body: Body, name: string): string[] => {
  const value = body?.[name];
  if (Array.isArray(value)) return value.filter((v): v is string => typeof v === 'string');
  return typeof value === 'string' ? [value] : [];
};

/** The alternatives picked on the page: one radio a choice, named `alt-{choice}`, its value the section's id. */
const alternativesOf = (body: Body): string[] =>
  Object.keys(body ?? {})
    .filter((name) => name.startsWith('alt-'))
    .flatMap((name) => fieldList(body, name).slice(0, 1));

/**
 * The form token of a link: an HMAC of the link's token under the server's secret, so it is worthless for any other
 * link.
 */
export function quoteFormToken(ctx: DomainContext, token: string): string {
  return ctx.csrf.tokenFor(`quote-link:${token}`);
}

/**
 * Whether a post comes from our own page. The page's Referrer-Policy is `no-referrer`, so a browser's form post says
 * `Origin: null`; then Sec-Fetch-Site (which the policy does not touch) must say `same-origin`. Otherwise the admin's
 * rule: Sec-Fetch-Site, when sent, is `same-origin`, and Origin, when sent, is ours.
 */
function fromOurPage(request: FastifyRequest, publicBaseUrl: string): boolean {
  if (request.headers.origin === 'null') return request.headers['sec-fetch-site'] === 'same-origin';
  return fromOurOrigin(request, publicBaseUrl);
}

/** The refusal of a whole answer, in the customer's words. */
function refusalOf(error: AppError): { heading: string; text: string } | undefined {
  switch (error.code) {
    case 'quote_updated':
      return {
        heading: 'This quote was updated',
        text:
          'The business sent a newer version of this quote while you had it open. Please read the version below ' +
          'before answering it.',
      };
    case 'quote_final':
      return {
        heading: 'This quote was already answered',
        text: 'An answer to this quote was already recorded; it cannot be changed here.',
      };
    case 'quote_link_unusable':
      return {
        heading: 'This quote was withdrawn',
        text: 'The business withdrew this quote, so it can no longer be accepted or declined.',
      };
    case 'quote_expired':
      return {
        heading: 'This quote has expired',
        text: 'It is past its valid-until date and can no longer be accepted or declined.',
      };
    default:
      return undefined;
  }
}

/**
 * The customer's page (docs/quotes.md, "The customer's page"): `GET /q/{token}` shows the quote; `POST /q/{token}`
 * with `do=view` is the page script's view report, with `do=accept` or `do=decline` the customer's answer. No
 * sign-in: the token is the secret. Every post must come from our own page (Origin / Sec-Fetch-Site) and carry the
 * form token bound to the link; answers are rate-limited per address and per link.
 */
export const quoteRoutes: FastifyPluginAsync<{ ctx: DomainContext }> = async (app, { ctx }) => {
  await app.register(fastifyCookie);
  await app.register(formbody, { bodyLimit: 16 * 1024 });

  const send = (reply: FastifyReply, status: number, page: string) =>
    reply.code(status).headers(QUOTE_PAGE_HEADERS).type('text/html; charset=utf-8').send(page);

  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error as Error, request);
    const status = httpStatusOf(appError);
    logRequestError(request, error, appError, 'quote page');
    reply.headers(httpHeadersOf(appError));
    if (appError.code === 'quote_not_found' || appError.code === 'route_not_found')
      return send(reply, 404, quoteNotFoundPage());
    if (appError.code === 'csrf_failed')
      return send(
        reply,
        403,
        quoteMessagePage(
          'The answer was not sent from this page',
          'Please open the quote from its link and answer it there.',
        ),
      );
    if (appError.code === 'rate_limited')
      return send(
        reply,
        429,
        quoteMessagePage(
          'Please wait a moment',
          'Too many attempts came from your connection. Please wait a few minutes and try again.',
        ),
      );
    if (status < 500)
      return send(
        reply,
        status,
        quoteMessagePage('The answer could not be read', 'Please go back to the quote and try again.'),
      );
    return send(
      reply,
      status,
      quoteMessagePage(
        'Something went wrong',
        'Because of a problem on our side, the page could not be shown. Please try again in a moment.',
        request.id,
      ),
    );
  });

  app.get<{ Params: { name: string }; Querystring: { v?: string } }>(
    '/q/assets/:name',
    { schema: { hide: true } },
    async (request, reply) => {
      const asset = Object.hasOwn(QUOTE_ASSETS, request.params.name) ? QUOTE_ASSETS[request.params.name] : undefined;
      if (!asset) throw new AppError('route_not_found', 'No such asset');
      const cache = request.query.v === asset.version ? 'public, max-age=31536000, immutable' : 'public, max-age=300';
      return reply
        .headers({ 'cache-control': cache, 'x-content-type-options': 'nosniff', etag: `"${asset.version}"` })
        .type(asset.contentType)
        .send(asset.body);
    },
  );

  /** Whether the request comes from a signed-in member of the quote's workspace: their look is not the customer's. */
  const isMember = async (request: FastifyRequest, workspaceId: string): Promise<boolean> => {
    const sessionId = sessionIdOf(request);
    if (!sessionId) return false;
    const user = await resolveSession({ ctx, input: { sessionId } });
    if (!user) return false;
    return workspaceAccess({ ctx, input: { userId: user.userId, workspaceId } }).then(
      () => true,
      () => false,
    );
  };

  const render = async (
    request: FastifyRequest<{ Params: Params }>,
    reply: FastifyReply,
    status: number,
    answer?: AnswerState,
  ) => {
    const token = request.params.token;
    const customer = await openQuoteByToken({ ctx, input: { token } });
    const beacon = customer.state === 'open' && !(await isMember(request, customer.quote.workspaceId));
    const plans = frozenRoomPlans(customer.plans);
    // The invoices made from an accepted quote, each linked (src/web/invoice/invoice-links.ts).
    const invoices =
      customer.state === 'accepted' ? await invoiceLinksOfQuote({ ctx, input: { quoteId: customer.quote.id } }) : [];
    return send(
      reply,
      status,
      quotePage({
        customer,
        formToken: quoteFormToken(ctx, token),
        beacon,
        plans,
        invoices,
        ...(answer ? { answer } : {}),
      }),
    );
  };

  app.get<{ Params: Params; Querystring: { pdf?: string } }>(
    QUOTE_PATH,
    { schema: { hide: true } },
    async (request, reply) => {
      // The page's own links to its PDFs (`?pdf=sent`, `?pdf=accepted`): relative, so the token is never in the page.
      const which = request.query.pdf;
      if (which === 'sent' || which === 'accepted') return pdf(request, reply, which === 'accepted');
      return render(request, reply, 200);
    },
  );

  /**
   * The PDF of the revision the link shows (**Download PDF**), and its accepted copy at a stable address the page
   * answering the Accept links at once (docs/documents.md, "Where it goes"): the stored bytes once made; until then a
   * small page that says it is being prepared and looks again every few seconds.
   */
  const pdf = async (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply, accepted: boolean) => {
    const doc = await customerQuotePdf({ ctx, input: { token: request.params.token, accepted } });
    if (doc.state === 'done' && doc.pdf)
      return reply
        .code(200)
        .headers(QUOTE_PAGE_HEADERS)
        .header('content-type', 'application/pdf')
        .header('content-disposition', `attachment; filename="${doc.fileName}"`)
        .send(Buffer.from(doc.pdf));
    if (doc.state === 'failed')
      return send(
        reply,
        503,
        quoteMessagePage(
          'The PDF could not be made',
          'The business has been told and can make it again. The quote’s page shows everything the PDF would.',
        ),
      );
    reply.header('refresh', '3');
    return send(reply, 202, quotePreparingPage());
  };
  app.get<{ Params: Params }>(`${QUOTE_PATH}/pdf`, { schema: { hide: true } }, async (request, reply) =>
    pdf(request, reply, false),
  );
  app.get<{ Params: Params }>(`${QUOTE_PATH}/pdf/accepted`, { schema: { hide: true } }, async (request, reply) =>
    pdf(request, reply, true),
  );

  app.post<{ Params: Params; Body: Body }>(QUOTE_PATH, { schema: { hide: true } }, async (request, reply) => {
    const token = request.params.token;
    const body = request.body && typeof request.body === 'object' ? request.body : undefined;
    if (
      !fromOurPage(request, ctx.config.publicBaseUrl) ||
      !ctx.csrf.matches(`quote-link:${token}`, field(body, 'formToken'))
    ) {
      throw new AppError('csrf_failed', "The answer was not sent from this quote's page");
    }
    const action = field(body, 'do');
    if (action === 'view') {
      const shown = await openQuoteByToken({ ctx, input: { token } });
      if (shown.state !== 'open' || (await isMember(request, shown.quote.workspaceId)))
        return reply.code(204).headers(QUOTE_PAGE_HEADERS).send();
      // The first view queues the sender's email in the view's own transaction.
      await recordQuoteView({ ctx, input: { token } });
      return reply.code(204).headers(QUOTE_PAGE_HEADERS).send();
    }
    if (action !== 'accept' && action !== 'decline') throw new AppError('invalid_fields', 'Unknown answer');
    // **Update** (the page without its script): the quote again with the ticks and alternatives posted, nothing kept.
    if (action === 'accept' && field(body, 'update') !== '')
      return render(request, reply, 200, {
        name: field(body, 'name'),
        agreed: field(body, 'agreed') !== '',
        chosen: fieldList(body, 'line'),
        sections: alternativesOf(body),
      });
    const linkScope = `quote-answer:link:${crypto.createHash('sha256').update(token).digest('hex')}`;
    await claimAttempt(
      ctx,
      [
        { scope: `quote-answer:ip:${request.ip}`, limit: QUOTE_ANSWER_LIMIT },
        { scope: linkScope, limit: QUOTE_ANSWER_LIMIT },
      ],
      'Too many answers from this address or to this quote; wait a few minutes',
    );
    const revision = Number(field(body, 'revision'));
    const answer: AnswerState = {
      name: field(body, 'name'),
      agreed: field(body, 'agreed') !== '',
      reason: field(body, 'reason'),
    };
    if (action === 'accept') {
      answer.chosen = fieldList(body, 'line');
      answer.sections = alternativesOf(body);
    }
    try {
      // Each verb queues its emails (the sender's notice, the customer's copy) in its own transaction.
      if (action === 'accept') {
        await acceptQuote({
          ctx,
          input: {
            token,
            revision,
            name: answer.name ?? '',
            agreed: answer.agreed ?? false,
            // The page always posts the ticks it showed: an unticked box is simply absent.
            ...(field(body, 'linesShown') !== '' ? { chosenLineIds: answer.chosen ?? [] } : {}),
            chosenSectionIds: answer.sections ?? [],
          },
        });
      } else {
        await declineQuote({ ctx, input: { token, revision, ...(answer.reason ? { reason: answer.reason } : {}) } });
      }
      // Post/Redirect/Get: the page shown afterwards is the quote with its answer. Relative, so the token stays in
      // the path the browser already has.
      return await reply.code(303).headers(QUOTE_PAGE_HEADERS).header('location', encodeURIComponent(token)).send();
    } catch (error) {
      if (!isAppError(error)) throw error;
      const refusal = refusalOf(error);
      if (refusal) return render(request, reply, httpStatusOf(error), { refusal });
      if (error.code === 'invalid_fields') {
        const errors: NonNullable<AnswerState['errors']> = {};
        for (const fe of error.fieldErrors ?? []) {
          if (fe.field === 'name' || fe.field === 'agreed' || fe.field === 'reason') errors[fe.field] ??= fe.message;
        }
        if (Object.keys(errors).length === 0) errors.name = error.detail;
        return render(request, reply, httpStatusOf(error), { ...answer, errors });
      }
      throw error;
    }
  });
};
