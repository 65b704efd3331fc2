import type { DomainContext, VerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import { keyDone, type KeyRef } from '../idempotency/idempotency-store.js';
import type { LeadSource } from '../sources/source.js';
import { QUARANTINE_RETENTION, quarantineCutoff } from './quarantine-retention.js';
import { botCheckTokenOf, honeypotFilled, normalizeLeadBody, quarantineFields } from '../lead-fields.js';
import { forgetCachedSource, sourceFormCached } from './source-cache.js';
import { boundedMeta, leadRowOf, type IntakeMeta } from './store-lead.js';
import { spamCatchOf } from '../sources/spam-rules.js';
import { verifyBotCheck, type BotCheckLog } from './verify-bot-check.js';
import { FORM_STAMP_FIELD, formStampReason, isHostedFormPost } from './form-stamp.js';
import { normalizeHostedFormBody, readFormAnswers } from '../forms/form-answers.js';
import { queueSenderConfirmation } from '../notifications/sender-confirmation.js';

export type { IntakeMeta } from './store-lead.js';

/** The domain result; an Idempotency-Key keeps `{ kind, leadId }` of it, and http/ answers `{ ok: true, id }`. */
export interface SubmitLeadResult {
  kind: 'lead';
  /** The lead's id; for a honeypot catch, a fresh id of the same format that names no lead. */
  leadId: string;
  quarantined: boolean;
}

export const HONEYPOT_REASON = 'honeypot';

export interface SubmitLeadInput {
  source: LeadSource;
  body: Record<string, unknown>;
  meta: IntakeMeta;
  /**
   * An Idempotency-Key this submission answers: marked done with the result in the same transaction as the lead
   * (or the quarantine row), and kept on the lead.
   */
  idempotency?: KeyRef | null;
  /**
   * Where a bot-check provider outage, or a confirmation that could not be queued, is reported (the request's logger).
   */
  log?: BotCheckLog;
}

function closed(ctx: DomainContext, source: LeadSource): AppError {
  forgetCachedSource(ctx, source.token);
  return new AppError(
    'intake_unavailable',
    'This intake link does not exist or has been closed; ask the site owner for the current form',
  );
}

/** Why a post went to Quarantine (docs/api.md, "Quarantine reasons") and what caught it, if more is to say. */
export interface QuarantineReason {
  reason: string;
  detail: string | null;
}

/**
 * The hosts of this server's own pages (docs/admin-app.md, "Spam rules"): PUBLIC_BASE_URL's, with its port, and the
 * request's as it was addressed (`host:port`, or any port when the request named none).
 */
function ownHosts(ctx: DomainContext, meta: IntakeMeta): string[] {
  const base = new URL(ctx.config.publicBaseUrl);
  const hosts = [`${base.hostname.toLowerCase()}:${base.port || (base.protocol === 'https:' ? '443' : '80')}`];
  if (meta.host) hosts.push(meta.host.toLowerCase());
  return hosts;
}

/**
 * Keeps a caught post in Quarantine with its reason, and answers it as an accepted lead would be answered (same
 * shape, a fresh id of the real format that names no lead): the poster learns nothing.
 */
async function quarantine(
  ctx: DomainContext,
  { source, body, meta, idempotency }: SubmitLeadInput,
  now: Date,
  caught: QuarantineReason,
): Promise<SubmitLeadResult> {
  const result: SubmitLeadResult = { kind: 'lead', leadId: newId('lead'), quarantined: true };
  const { stored } = await ctx.store.hot.write({
    kind: 'quarantine',
    row: {
      id: newId('qr'),
      workspace_id: source.workspaceId,
      source_id: source.id,
      reason: caught.reason,
      detail: caught.detail,
      fields: JSON.stringify(quarantineFields(body)),
      received_at: now.toISOString(),
      ...boundedMeta(meta),
      // Kept with the catch, so erasing the person also erases this key's record (docs/operations.md).
      idempotency_key: idempotency?.key ?? null,
    },
    cutoff: quarantineCutoff(now),
    keep: QUARANTINE_RETENTION.perSource,
    done: idempotency ? keyDone(idempotency, result) : null,
  });
  if (!stored) throw closed(ctx, source);
  ctx.intake?.record({ sourceId: source.id, outcome: 'quarantined', code: caught.reason });
  return result;
}

/**
 * One intake submission, in the order docs/api.md gives: honeypot → validation → render stamp → spam rules →
 * bot check → store.
 * Resolves only after the commit, so the caller's 200 means the lead is durable. The row is written as data through
 * the hot writer, guarded in SQL: if the source was deactivated (or moved to another pipeline) since it was looked
 * up, nothing is stored and the answer is intake_unavailable, as for a closed link.
 */
export async function submitLead({ ctx, input }: VerbArgs<SubmitLeadInput>): Promise<SubmitLeadResult> {
  const { source, body, meta, idempotency } = input;
  const now = ctx.clock.now();
  const receivedAt = now.toISOString();

  // A hosted-form post (docs/api.md) also answers the source's own fields, read under their labels, and fills in
  // the built-in fields its owner made required. The form comes with the cached source (no query per post); a
  // post to the intake API is held to none of it.
  const form = isHostedFormPost(body) ? await sourceFormCached(ctx, source) : null;
  const formFields = form?.fields ?? null;
  // What a catch keeps: the answers under their labels and without the stamp, so Restore makes the lead it would be.
  const kept: SubmitLeadInput = {
    ...input,
    body: formFields ? readFormAnswers(formFields, body, [FORM_STAMP_FIELD], false).body : body,
  };

  // A filled honeypot is checked before validation: a bot is answered like a person (same shape, an id of the real
  // format) and learns nothing from error messages. The submission is kept so a person can restore a false catch.
  if (honeypotFilled(body)) return quarantine(ctx, kept, now, { reason: HONEYPOT_REASON, detail: null });

  const fields = form ? normalizeHostedFormBody(form, body, [FORM_STAMP_FIELD]) : normalizeLeadBody(body);
  // The render stamp judges only a post that would otherwise be accepted: an empty form sent at once is told what
  // is missing, as the interface says, not thanked and quarantined (docs/security.md, "The form's render stamp").
  const tooFast = formStampReason(ctx, source, body);
  if (tooFast) return quarantine(ctx, kept, now, { reason: tooFast, detail: null });
  // The source's spam rules, read with it (no query): a caught post is answered exactly like an accepted one.
  const caught = source.spamRules
    ? spamCatchOf(source.spamRules, fields, meta, ownHosts(ctx, meta), formFields ? fields.pageUrl : null)
    : null;
  if (caught) return quarantine(ctx, kept, now, caught);

  // Network I/O to the provider happens here, never inside the write transaction.
  const botCheck = await verifyBotCheck({
    ctx,
    input: { source, token: botCheckTokenOf(body), remoteIp: meta.clientIp, log: input.log },
  });

  const result: SubmitLeadResult = { kind: 'lead', leadId: newId('lead'), quarantined: false };
  const { stored } = await ctx.store.hot.write({
    kind: 'lead',
    lead: leadRowOf({
      id: result.leadId,
      sourceId: source.id,
      pipelineId: source.pipelineId,
      fields,
      receivedAt,
      meta,
      botCheck,
      idempotencyKey: idempotency?.key ?? null,
    }),
    done: idempotency ? keyDone(idempotency, result) : null,
  });
  if (!stored) throw closed(ctx, source);
  ctx.intake?.record({ sourceId: source.id, outcome: 'accepted', code: '' });
  // The confirmation to the sender, when the source sends one (off: no query). The lead is durable already; a
  // failure here is logged (without the address) and the post still gets its 200, so it is not sent again.
  if (source.confirmSender) {
    await queueSenderConfirmation(ctx, { source, email: fields.email, receivedAt }).catch((error: unknown) =>
      input.log?.warn(
        { sourceId: source.id, err: error instanceof Error ? error.message : String(error) },
        'the confirmation to the sender could not be queued',
      ),
    );
  }
  return result;
}
