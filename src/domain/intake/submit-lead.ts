import type { Transaction } from 'kysely';
import type { VerbArgs } from '../context.js';
import { newId } from '../ids.js';
import type { LeadSource } from '../sources/source.js';
import { pruneQuarantine } from '../quarantine/quarantine-retention.js';
import type { Schema } from '../../storage/schema.js';
import { botCheckTokenOf, honeypotFilled, normalizeLeadBody, quarantineFields } from './lead-fields.js';
import { boundedMeta, insertLead, type IntakeMeta } from './store-lead.js';
import { verifyBotCheck, type BotCheckLog } from './verify-bot-check.js';

export type { IntakeMeta } from './store-lead.js';

export interface SubmitLeadResult {
  /** The lead's id; for a honeypot catch, a fresh id of the same format that names no lead. */
  id: string;
  quarantined: boolean;
  /** For a honeypot catch, the quarantine row's id. */
  quarantineId?: string;
}

export const HONEYPOT_REASON = 'honeypot';

export interface SubmitLeadInput {
  source: LeadSource;
  body: Record<string, unknown>;
  meta: IntakeMeta;
  afterStore?: (trx: Transaction<Schema>, result: SubmitLeadResult) => Promise<void>;
  /** Where a bot-check provider outage is reported (the request's logger). */
  log?: BotCheckLog;
}

/**
 * One intake submission (CONTRACT §2), in the contract's order: honeypot → validation → bot check → store.
 * Resolves only after the commit, so the caller's 200 means the lead is durable. `afterStore` runs inside the same
 * transaction (e.g. to record an idempotency key with the result), on the quarantine path too.
 */
export async function submitLead({ ctx, input }: VerbArgs<SubmitLeadInput>): Promise<SubmitLeadResult> {
  const { source, body, meta, afterStore } = input;
  const now = ctx.clock.now();
  const receivedAt = now.toISOString();

  // A filled honeypot is checked before validation: a bot is answered like a person (same shape, an id of the
  // real format) and learns nothing from error messages. The submission is kept so autofill victims can be restored.
  if (honeypotFilled(body)) {
    const quarantineId = newId('qr');
    const caught = await ctx.store.writer.write(async (trx) => {
      await trx
        .insertInto('quarantine')
        .values({
          id: quarantineId,
          workspace_id: source.workspaceId,
          source_id: source.id,
          reason: HONEYPOT_REASON,
          fields: JSON.stringify(quarantineFields(body)),
          received_at: receivedAt,
          ...boundedMeta(meta),
          restored_lead_id: null,
        })
        .execute();
      await pruneQuarantine(trx, { sourceId: source.id, now });
      const result = { id: newId('lead'), quarantined: true, quarantineId };
      if (afterStore) await afterStore(trx, result);
      return result;
    });
    ctx.intake?.record({ sourceId: source.id, outcome: 'quarantined', code: HONEYPOT_REASON });
    return caught;
  }

  const fields = normalizeLeadBody(body);
  // Network I/O to the provider happens here, never inside the write transaction.
  const botCheck = await verifyBotCheck({
    ctx,
    input: { source, token: botCheckTokenOf(body), remoteIp: meta.clientIp, log: input.log },
  });

  const stored = await ctx.store.writer.write(async (trx) => {
    const result = { id: newId('lead'), quarantined: false };
    await insertLead(trx, {
      id: result.id,
      workspaceId: source.workspaceId,
      pipelineId: source.pipelineId,
      sourceId: source.id,
      fields,
      receivedAt,
      meta,
      botCheck,
    });
    if (afterStore) await afterStore(trx, result);
    return result;
  });
  ctx.intake?.record({ sourceId: source.id, outcome: 'accepted', code: '' });
  return stored;
}
