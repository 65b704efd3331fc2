import formbody from '@fastify/formbody';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import type { DomainContext } from '../../domain/context.js';
import { AppError } from '../../domain/errors.js';
import { openReminderStop, stopReminders, type ReminderStop } from '../../domain/follow-ups/stop-reminders.js';
import { httpHeadersOf, httpStatusOf, logRequestError } from '../../http/error-statuses.js';
import { toAppError } from '../../http/problem.js';
import { fromOurOrigin } from '../admin/security.js';
import { html, type SafeHtml } from '../html.js';
import { quoteAssetHref } from './quote-assets.js';
import { QUOTE_PAGE_HEADERS } from './quote-routes.js';

/**
 * The stop link of a customer's reminder (docs/quotes.md, "Follow-ups"): `GET /q/stop/{token}` asks, and its form
 * posts back to stop the reminders of that quote. Under `/q/`, so the request log redacts the token as it does the
 * quote's link. No sign-in: the token (128 random bits, only its SHA-256 kept) is the secret. A GET changes nothing,
 * so a mail system that fetches the link stops nothing; the post must come from this page (Origin / Sec-Fetch-Site)
 * with a form token bound to the link, like the quote's answers.
 */
const STOP_PATH = '/q/stop/:token';

/** The form token of a stop link: an HMAC of its token under the server's secret, worthless on any other link. */
export function stopFormToken(ctx: DomainContext, token: string): string {
  return ctx.csrf.tokenFor(`reminder-stop:${token}`);
}

function stopPageHtml(title: string, body: SafeHtml): string {
  return html`<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex, nofollow">
<meta name="referrer" content="no-referrer">
<title>${title}</title>
<link rel="stylesheet" href="${quoteAssetHref('quote.css')}">
</head>
<body>
<main>
<div class="sheet">${body}</div>
</main>
</body>
</html>
`.value;
}

export function reminderStopPage(stop: ReminderStop, formToken: string): string {
  if (stop.stopped)
    return stopPageHtml(
      'Reminders stopped',
      html`<h1>Reminders stopped</h1>
<p class="lead-text">You will get no more reminders about quote ${stop.number} from ${stop.workspaceName}.</p>
<p>The quote itself is unchanged: its link still works, and you can still accept or decline it there.</p>`,
    );
  return stopPageHtml(
    'Stop reminders',
    html`<h1>Stop reminders about quote ${stop.number}?</h1>
<p class="lead-text">${stop.workspaceName} will send you no more reminders about this quote.</p>
<p>The quote itself stays as it is: its link still works, and you can still accept or decline it there.</p>
<form method="post" class="buttons spaced">
<input type="hidden" name="formToken" value="${formToken}">
<button type="submit" class="primary">Stop reminders</button>
</form>`,
  );
}

const messagePage = (heading: string, text: string) =>
  stopPageHtml(heading, html`<h1>${heading}</h1><p class="lead-text">${text}</p>`);

function fromOurPage(request: FastifyRequest, publicBaseUrl: string): boolean {
  // The page's Referrer-Policy is no-referrer: a browser's form post says `Origin: null`, and then Sec-Fetch-Site
  // (which the policy does not touch) must say same-origin (docs/quotes.md, "Security" of the customer's page).
  if (request.headers.origin === 'null') return request.headers['sec-fetch-site'] === 'same-origin';
  return fromOurOrigin(request, publicBaseUrl);
}

export const reminderStopRoutes: FastifyPluginAsync<{ ctx: DomainContext }> = async (app, { ctx }) => {
  await app.register(formbody, { bodyLimit: 4 * 1024 });
  const send = (reply: FastifyReply, status: number, page: string) =>
    reply.code(status).headers(QUOTE_PAGE_HEADERS).type('text/html; charset=utf-8').send(page);

  app.setErrorHandler((error, request, reply) => {
    const appError = toAppError(error as Error, request);
    const status = httpStatusOf(appError);
    logRequestError(request, error, appError, 'reminder stop page');
    reply.headers(httpHeadersOf(appError));
    if (appError.code === 'quote_not_found')
      return send(
        reply,
        404,
        messagePage('Link not found', 'This link leads nowhere. Please check that it was copied in full.'),
      );
    if (appError.code === 'csrf_failed')
      return send(
        reply,
        403,
        messagePage('Not sent from this page', 'Please open the link from the email and press Stop reminders there.'),
      );
    return send(
      reply,
      status,
      messagePage(
        status < 500 ? 'The request could not be read' : 'Something went wrong',
        status < 500 ? 'Please open the link from the email again.' : 'Please try again in a moment.',
      ),
    );
  });

  app.get<{ Params: { token: string } }>(STOP_PATH, { schema: { hide: true } }, async (request, reply) => {
    const { token } = request.params;
    const stop = await openReminderStop({ ctx, input: { token } });
    return send(reply, 200, reminderStopPage(stop, stopFormToken(ctx, token)));
  });

  app.post<{ Params: { token: string }; Body: Record<string, unknown> | undefined }>(
    STOP_PATH,
    { schema: { hide: true } },
    async (request, reply) => {
      const { token } = request.params;
      const formToken = typeof request.body?.formToken === 'string' ? request.body.formToken : '';
      if (!fromOurPage(request, ctx.config.publicBaseUrl) || !ctx.csrf.matches(`reminder-stop:${token}`, formToken))
        throw new AppError('csrf_failed', 'The stop was not sent from its page');
      await stopReminders({ ctx, input: { token } });
      // Post/Redirect/Get, relative: the token stays in the path the browser already has.
      return reply.code(303).headers(QUOTE_PAGE_HEADERS).header('location', encodeURIComponent(token)).send();
    },
  );
};
