import type { DomainContext, VerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import { keyDone, type KeyRef } from '../idempotency/idempotency-store.js';
import type { LeadSource } from '../sources/source.js';
import { QUARANTINE_RETENTION, quarantineCutoff } from '../quarantine/quarantine-retention.js';
import { botCheckTokenOf, honeypotFilled, normalizeLeadBody, quarantineFields } from './lead-fields.js';
import { forgetCachedSource } from './source-cache.js';
import { boundedMeta, leadRowOf, type IntakeMeta } from './store-lead.js';
import { verifyBotCheck, type BotCheckLog } from './verify-bot-check.js';
import { FORM_STAMP_FIELD, formStampReason, isHostedFormPost } from './form-stamp.js';
import { readSourceForm } from '../forms/source-form.js';
import { normalizeHostedFormBody, readFormAnswers } from '../forms/form-answers.js';

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
  /** Where a bot-check provider outage is reported (the request's logger). */
  log?: BotCheckLog;
}

function closed(ctx: DomainContext, source: LeadSource): AppError {
  forgetCachedSource(ctx, source.token);
  return new AppError(
    'intake_unavailable',
    'This intake link does not exist or has been closed; ask the site owner for the current form',
  );
}

/**
 * One intake submission (docs/api.md), in the contract's order: honeypot → validation → bot check → store.
 * Resolves only after the commit, so the caller's 200 means the lead is durable. The row is written as data through
 * the hot writer, guarded in SQL: if the source was deactivated (or moved to another pipeline) since it was looked
 * up, nothing is stored and the answer is intake_unavailable, as for a closed link.
 */
export async function submitLead({ ctx, input }: VerbArgs<SubmitLeadInput>): Promise<SubmitLeadResult> {
  const { source, body, meta, idempotency } = input;
  const now = ctx.clock.now();
  const receivedAt = now.toISOString();

  // A hosted-form post (docs/api.md) also answers the source's own fields; they are read under their labels.
  const form = isHostedFormPost(body) ? await readSourceForm(ctx, source.id) : null;

  // Spam is decided before validation: a bot is answered like a person (same shape, an id of the real format) and
  // learns nothing from error messages. The submission is kept so a person can restore a false catch.
  const reason = honeypotFilled(body) ? HONEYPOT_REASON : formStampReason(ctx, source, body);
  if (reason) {
    const kept = form ? readFormAnswers(form.fields, body, [FORM_STAMP_FIELD], false).body : body;
    const result: SubmitLeadResult = { kind: 'lead', leadId: newId('lead'), quarantined: true };
    const { stored } = await ctx.store.hot.write({
      kind: 'quarantine',
      row: {
        id: newId('qr'),
        workspace_id: source.workspaceId,
        source_id: source.id,
        reason,
        fields: JSON.stringify(quarantineFields(kept)),
        received_at: receivedAt,
        ...boundedMeta(meta),
        // Kept with the catch, so erasing the person also erases this key's record (docs/operations.md).
        idempotency_key: idempotency?.key ?? null,
      },
      cutoff: quarantineCutoff(now),
      keep: QUARANTINE_RETENTION.perSource,
      done: idempotency ? keyDone(idempotency, result) : null,
    });
    if (!stored) throw closed(ctx, source);
    ctx.intake?.record({ sourceId: source.id, outcome: 'quarantined', code: reason });
    return result;
  }

  const fields = form ? normalizeHostedFormBody(form.fields, body, [FORM_STAMP_FIELD]) : normalizeLeadBody(body);
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
  return result;
}
