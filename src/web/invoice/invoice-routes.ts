import fastifyCookie from '@fastify/cookie';
import formbody from '@fastify/formbody';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { resolveSession } from '../../domain/auth/sessions.js';
import type { DomainContext } from '../../domain/context.js';
import { AppError } from '../../domain/errors.js';
import { openInvoiceByToken } from '../../domain/invoices/customer-invoice.js';
import { customerInvoicePdf } from '../../domain/invoices/invoice-pdf.js';
import { recordInvoiceView } from '../../domain/invoices/record-invoice-view.js';
import { workspaceAccess } from '../../domain/members/workspace-access.js';
import { httpHeadersOf, httpStatusOf, logRequestError } from '../../http/error-statuses.js';
import { toAppError } from '../../http/problem.js';
import { contentDisposition } from '../admin/attachment.js';
import { fromOurOrigin } from '../admin/security.js';
import { sessionIdOf } from '../admin/session-cookie.js';
import { QUOTE_ASSETS } from '../quote/quote-assets.js';
import { QUOTE_PAGE_HEADERS } from '../quote/quote-routes.js';
import { invoiceMessagePage, invoiceNotFoundPage, invoicePage } from './invoice-page.js';

const INVOICE_PATH = '/i/:token';

interface Params {
  token: string;
}
type Body = Record<string, unknown> | undefined;

const field = (body: Body, name: string): string => {
  const value = body?.[name];
  return typeof value === 'string' ? value : '';
};

/** The view beacon's form token: an HMAC of the link's token, worthless for any other link. */
export function invoiceFormToken(ctx: DomainContext, token: string): string {
  return ctx.csrf.tokenFor(`invoice-link:${token}`);
}

/** Whether a post comes from our own page (the quote page's rule: `Origin: null` needs Sec-Fetch-Site same-origin). */
function fromOurPage(request: FastifyRequest, publicBaseUrl: string): boolean {
  if (request.headers.origin === 'null') return request.headers['sec-fetch-site'] === 'same-origin';
  return fromOurOrigin(request, publicBaseUrl);
}

/**
 * The customer's invoice page (docs/invoices.md, "The customer's link"): `GET /i/{token}` shows the invoice or
 * credit note, what was paid and the balance, the payment instructions and its PDF (`?pdf=1`); `POST /i/{token}`
 * with `do=view` is the page script's view report. No sign-in: the token is the secret. The quote page's headers:
 * our origin only, never framed, indexed or cached, no Referer.
 */
export const invoiceRoutes: FastifyPluginAsync<{ ctx: DomainContext }> = async (app, { ctx }) => {
  await app.register(fastifyCookie);
  await app.register(formbody, { bodyLimit: 4 * 1024 });

  const send = (reply: FastifyReply, status: number, page: string) =>
    reply.code(status).headers(QUOTE_PAGE_HEADERS).type('text/html; charset=utf-8').send(page);

  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error as Error, request);
    const status = httpStatusOf(appError);
    logRequestError(request, error, appError, 'invoice page');
    reply.headers(httpHeadersOf(appError));
    if (appError.code === 'invoice_not_found' || appError.code === 'route_not_found')
      return send(reply, 404, invoiceNotFoundPage());
    if (status < 500)
      return send(
        reply,
        status,
        invoiceMessagePage('The request could not be read', 'Please open the invoice from its link.'),
      );
    return send(
      reply,
      status,
      invoiceMessagePage(
        'Something went wrong',
        'The page could not be shown because of a problem on our side. Please try again in a moment.',
      ),
    );
  });

  // The quote page's stylesheet and script, at the address relative to /i/{token}.
  app.get<{ Params: { name: string }; Querystring: { v?: string } }>(
    '/i/assets/:name',
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

  /** A signed-in member of the invoice's workspace: their look is not the customer's view. */
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

  const pdf = async (request: FastifyRequest<{ Params: Params }>, reply: FastifyReply) => {
    const doc = await customerInvoicePdf({ ctx, input: { token: request.params.token } });
    if (doc.state === 'done' && doc.pdf)
      return reply
        .code(200)
        .headers(QUOTE_PAGE_HEADERS)
        .header('content-type', 'application/pdf')
        .header('content-disposition', contentDisposition(doc.fileName))
        .send(Buffer.from(doc.pdf));
    if (doc.state === 'failed')
      return send(
        reply,
        503,
        invoiceMessagePage(
          'The PDF could not be made',
          'The business has been told and can make it again. This page shows everything the PDF would.',
        ),
      );
    reply.header('refresh', '3');
    return send(
      reply,
      202,
      invoiceMessagePage(
        'Your PDF is being prepared',
        'It is usually ready within a few seconds. This page looks again by itself.',
        true,
      ),
    );
  };

  app.get<{ Params: Params; Querystring: { pdf?: string } }>(
    INVOICE_PATH,
    { schema: { hide: true } },
    async (request, reply) => {
      // The page's own link to its PDF is relative (`?pdf=1`), so the token is never written into the page.
      if (request.query.pdf !== undefined) return pdf(request, reply);
      const token = request.params.token;
      const customer = await openInvoiceByToken({ ctx, input: { token } });
      const beacon = customer.state !== 'void' && !(await isMember(request, customer.invoice.workspaceId));
      return send(reply, 200, invoicePage({ customer, formToken: invoiceFormToken(ctx, token), beacon }));
    },
  );
  app.get<{ Params: Params }>(`${INVOICE_PATH}/pdf`, { schema: { hide: true } }, async (request, reply) =>
    pdf(request, reply),
  );

  app.post<{ Params: Params; Body: Body }>(INVOICE_PATH, { schema: { hide: true } }, async (request, reply) => {
    const token = request.params.token;
    const body = request.body && typeof request.body === 'object' ? request.body : undefined;
    if (
      !fromOurPage(request, ctx.config.publicBaseUrl) ||
      !ctx.csrf.matches(`invoice-link:${token}`, field(body, 'formToken'))
    )
      throw new AppError('csrf_failed', "The view was not reported from this invoice's page");
    if (field(body, 'do') !== 'view') throw new AppError('invalid_fields', 'Unknown request');
    const shown = await openInvoiceByToken({ ctx, input: { token } });
    if (!(await isMember(request, shown.invoice.workspaceId))) await recordInvoiceView({ ctx, input: { token } });
    return reply.code(204).headers(QUOTE_PAGE_HEADERS).send();
  });
};
