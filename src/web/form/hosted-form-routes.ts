import { httpHeadersOf, httpStatusOf, logRequestError } from '../../http/error-statuses.js';
import crypto from 'node:crypto';
import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import type { BotCheckProvider } from '../../config.js';
import type { DomainContext } from '../../domain/context.js';
import { AppError, isAppError } from '../../domain/errors.js';
import { BOT_CHECK_TOKEN_FIELD } from '../../domain/lead-fields.js';
import { openIntake, parseIntakeToken } from '../../domain/intake/open-intake.js';
import { parseIdempotencyKey } from '../../domain/idempotency/idempotency-key.js';
import { submitLeadOnce } from '../../domain/intake/submit-lead-once.js';
import type { LeadSource } from '../../domain/sources/source.js';
import { readHostedForm } from '../../domain/forms/source-form.js';
import { FORM_STAMP_FIELD } from '../../domain/intake/form-stamp.js';
import type { FastifyRequest } from 'fastify';
import { accentAsset, FORM_ASSETS } from './assets.js';
import { BOT_CHECK_RESPONSE_FIELDS, BOT_CHECK_WIDGETS, cspProviderOf, formBotCheck } from './bot-check-widget.js';
import { formPageHeaders } from './csp.js';
import { formStateFromError, isFormProblem } from './form-state.js';
import { FORM_KEY_FIELD, formPage } from './form-page.js';
import { problemPage } from './message-page.js';
import { thankYouPage } from './thank-you-page.js';
import { INTAKE_BODY_LIMIT, intakeBodyError, registerIntakeBodyParsers } from '../../http/intake-body.js';
import { toAppError } from '../../http/problem.js';
import { intakeMeta } from '../../http/intake-meta.js';
import { decodeContentEncoding } from '../../http/content-encoding.js';
import { recordIntakeRefusal } from '../../http/metrics.js';
import { decorateIntakeRequest, intakeSourceOpener, openedSource } from '../../http/intake-request.js';

export interface HostedFormRoutesOptions {
  ctx: DomainContext;
}

const FORM_PATH = '/f/:token';

const stampNow = (ctx: DomainContext, source: LeadSource) => ctx.formStamps.make(source.id, ctx.clock.now());

/** Whether the browser loads the page into a frame (an embed): then the page drops its own background. */
const isFramed = (request: FastifyRequest) => request.headers['sec-fetch-dest'] === 'iframe';

/** A page of the form; `source` (when there is one) names the sites that may frame it. */
function sendPage(
  reply: FastifyReply,
  status: number,
  page: string,
  provider: BotCheckProvider | null = null,
  source: LeadSource | null = null,
) {
  const sites = source?.spamRules?.sites ?? [];
  return reply.code(status).headers(formPageHeaders(provider, sites)).type('text/html; charset=utf-8').send(page);
}

/**
 * A no-script post as the intake knows it. The widget's token comes in the provider's own field and becomes
 * botCheckToken; every provider's field is dropped (hCaptcha fills g-recaptcha-response too) and so is the form's
 * idempotency key, so none of them is kept as an extra field.
 */
function intakeBody(body: Record<string, unknown>, source: LeadSource): Record<string, unknown> {
  const mapped: Record<string, unknown> = Object.fromEntries(
    Object.entries(body).filter(([key]) => key !== FORM_KEY_FIELD && !BOT_CHECK_RESPONSE_FIELDS.includes(key)),
  );
  if (source.botCheck) mapped[BOT_CHECK_TOKEN_FIELD] = body[BOT_CHECK_WIDGETS[source.botCheck.provider].responseField];
  // A post to /f/{token} is a hosted-form post by its path: without a stamp it is held to the stamp's rule all the
  // same.
  if (!Object.hasOwn(mapped, FORM_STAMP_FIELD)) mapped[FORM_STAMP_FIELD] = '';
  return mapped;
}

/** The key the rendered form carried; a page rendered before keys existed (or a hand-made post) has none. */
function formKeyOf(body: Record<string, unknown>): string | null {
  const key = body[FORM_KEY_FIELD];
  return typeof key === 'string' && key !== '' ? parseIdempotencyKey(key) : null;
}

/**
 * The hosted form (docs/api.md): `GET /f/{token}` renders it; `POST /f/{token}` is the no-script path, through the
 * same verbs as the intake endpoint (openIntake → submitLead), answered with HTML.
 */
export const hostedFormRoutes: FastifyPluginAsync<HostedFormRoutesOptions> = async (app, { ctx }) => {
  // The intake's own body parsers: the form post is read exactly like a post to /api/intake/{token}.
  registerIntakeBodyParsers(app);
  decorateIntakeRequest(app);

  app.setErrorHandler((error, request, reply) => {
    // The body is read by the intake's rules, so its refusals are the intake's (400 unreadable_body, not 415).
    const appError = toAppError(intakeBodyError(error as Error), request);
    if (request.method === 'POST') recordIntakeRefusal(ctx, request, appError);
    logRequestError(request, error, appError, 'hosted form');
    reply.headers(httpHeadersOf(appError));
    return sendPage(reply, httpStatusOf(appError), problemPage(appError.code, request.id));
  });

  app.get<{ Params: { name: string }; Querystring: { v?: string } }>(
    '/f/assets/:name',
    { schema: { hide: true } },
    async (request, reply) => {
      const asset = Object.hasOwn(FORM_ASSETS, request.params.name)
        ? FORM_ASSETS[request.params.name]
        : accentAsset(request.params.name);
      if (!asset) throw new AppError('route_not_found', 'No such asset');
      // Pages link assets with their content hash, so that URL never changes content and can be kept a year.
      const cache = request.query.v === asset.version ? 'public, max-age=31536000, immutable' : 'public, max-age=300';
      return reply
        .headers({ 'cache-control': cache, 'x-content-type-options': 'nosniff', etag: `"${asset.version}"` })
        .type(asset.contentType)
        .send(asset.body);
    },
  );

  app.get<{ Params: { token: string } }>(FORM_PATH, { schema: { hide: true } }, async (request, reply) => {
    const source = await openIntake({ ctx, input: { token: parseIntakeToken(request.params.token) } });
    // Each rendering carries its own key: pressing Send twice without scripts is still one lead.
    const form = await readHostedForm(ctx, source);
    const page = formPage({
      source,
      idempotencyKey: crypto.randomUUID(),
      stamp: stampNow(ctx, source),
      form,
      embedded: isFramed(request),
    });
    return sendPage(reply, 200, page, cspProviderOf(formBotCheck(source.botCheck)), source);
  });

  app.post<{ Params: { token: string } }>(
    FORM_PATH,
    {
      schema: { hide: true },
      bodyLimit: INTAKE_BODY_LIMIT,
      // The intake's own pass (token shape → rate limit → source lookup), so the no-script path is limited and
      // refused exactly like POST /api/intake/{token}, before its body is read.
      onRequest: intakeSourceOpener(ctx, { cached: false }),
      preParsing: decodeContentEncoding,
    },
    async (request, reply) => {
      const source = openedSource(request);
      const botCheck = formBotCheck(source.botCheck);
      const sent = request.body && typeof request.body === 'object' ? (request.body as Record<string, unknown>) : {};
      const idempotencyKey = formKeyOf(sent);
      const body = intakeBody(sent, source);
      try {
        await submitLeadOnce({
          ctx,
          input: {
            source,
            body,
            meta: intakeMeta(request),
            idempotencyKey,
            log: request.log,
          },
        });
      } catch (error) {
        if (!isAppError(error) || !isFormProblem(error)) throw error;
        logRequestError(request, error, error, 'hosted form');
        ctx.intake?.record({ sourceId: source.id, outcome: 'refused', code: error.code });
        // A refused submission frees its key, so the corrected form may send the same one.
        const state = formStateFromError(error, sent, botCheck);
        const form = await readHostedForm(ctx, source);
        // The corrected form keeps its first render time: the person has been at it for a while already.
        const stamp =
          typeof sent[FORM_STAMP_FIELD] === 'string' && sent[FORM_STAMP_FIELD] !== ''
            ? sent[FORM_STAMP_FIELD]
            : stampNow(ctx, source);
        const page = formPage({
          source,
          idempotencyKey: idempotencyKey ?? crypto.randomUUID(),
          stamp,
          state,
          form,
          embedded: isFramed(request),
        });
        return sendPage(reply, httpStatusOf(error), page, cspProviderOf(botCheck), source);
      }
      // A honeypot catch gets the same page as a person: a bot learns nothing.
      const form = await readHostedForm(ctx, source);
      return sendPage(
        reply,
        200,
        thankYouPage({
          sourceName: source.name,
          heading: form.heading,
          text: form.texts.thankYou,
          accent: form.accent,
          embedded: isFramed(request),
        }),
        null,
        source,
      );
    },
  );
};
