import type { Transaction } from 'kysely';
import type { BotCheckOutcome } from './verify-bot-check.js';
import type { LeadFields } from './lead-fields.js';
import type { Schema } from '../../storage/schema.js';

/** What the request said about itself, kept with the lead or the quarantine row (CONTRACT §2.4). */
export interface IntakeMeta {
  clientIp: string | null;
  userAgent: string | null;
  origin: string | null;
  referer: string | null;
}

/** Header values are the client's to choose; a bound keeps one request from storing 16 KiB of user agent. */
const META_MAX = 1000;

function bounded(value: string | null): string | null {
  return value === null ? null : value.slice(0, META_MAX);
}

export function boundedMeta(meta: IntakeMeta) {
  return {
    client_ip: bounded(meta.clientIp),
    user_agent: bounded(meta.userAgent),
    origin: bounded(meta.origin),
    referer: bounded(meta.referer),
  };
}

/** Inserts one lead in its pipeline's first stage. Shared by intake and by restoring a quarantined submission. */
export async function insertLead(
  trx: Transaction<Schema>,
  input: {
    id: string;
    workspaceId: string;
    pipelineId: string;
    sourceId: string;
    fields: LeadFields;
    receivedAt: string;
    meta: IntakeMeta;
    botCheck: BotCheckOutcome;
    restoredFrom?: string;
  },
): Promise<void> {
  const { fields } = input;
  await trx
    .insertInto('leads')
    .values({
      id: input.id,
      workspace_id: input.workspaceId,
      pipeline_id: input.pipelineId,
      source_id: input.sourceId,
      // The first stage is the pipeline's Leads inbox (CONTRACT §12); a pipeline always has one.
      stage: (eb) =>
        eb.selectFrom('stages').select('key').where('pipeline_id', '=', input.pipelineId).orderBy('position').limit(1),
      name: fields.name,
      phone: fields.phone,
      email: fields.email,
      address: fields.address,
      notes: fields.notes,
      extra: JSON.stringify(fields.extra),
      received_at: input.receivedAt,
      ...boundedMeta(input.meta),
      bot_check: input.botCheck,
      idempotency_key: null,
      restored_from: input.restoredFrom ?? null,
    })
    .execute();
}
