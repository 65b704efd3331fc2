import type { Transaction } from 'kysely';
import type { DialectOps } from '../../storage/dialect-ops.js';
import type { LeadInsertValues, LeadRow } from '../../storage/hot-writes/lead.js';
import { emailKey, phoneKey } from '../../storage/contact-keys.js';
import type { BotCheckOutcome } from './verify-bot-check.js';
import type { LeadFields } from '../lead-fields.js';
import type { Schema } from '../../storage/schema.js';
import { marketingSourceOf } from '../marketing-source.js';

/** What the request said about itself, kept with the lead or the quarantine row (docs/api.md). */
export interface IntakeMeta {
  clientIp: string | null;
  userAgent: string | null;
  origin: string | null;
  referer: string | null;
  /**
   * The host the request was addressed to (not stored): a post from a page of this server is never `site_not_allowed`.
   */
  host?: string | null;
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

/** A lead's row as every path that makes one writes it (intake, restore): fields, request details, bot check. */
export function leadRowOf(input: {
  id: string;
  sourceId: string;
  /** The pipeline the caller saw the source in (intake's guard); a restore takes the source's current one. */
  pipelineId: string;
  fields: LeadFields;
  receivedAt: string;
  meta: IntakeMeta;
  botCheck: BotCheckOutcome;
  idempotencyKey: string | null;
}): LeadRow {
  const { fields } = input;
  return {
    id: input.id,
    source_id: input.sourceId,
    pipeline_id: input.pipelineId,
    name: fields.name,
    phone: fields.phone,
    email: fields.email,
    address: fields.address,
    notes: fields.notes,
    extra: JSON.stringify(fields.extra),
    received_at: input.receivedAt,
    ...boundedMeta(input.meta),
    bot_check: input.botCheck,
    idempotency_key: input.idempotencyKey,
    email_key: emailKey(fields.email),
    phone_key: phoneKey(fields.phone),
    page_url: fields.pageUrl,
    ...marketingSourceOf(fields.pageUrl),
  };
}

/**
 * Inserts one lead inside a generic write (restoring a quarantined submission), with the very INSERT the hot path
 * uses (storage/hot-writes/lead.ts), unguarded: into the source's current pipeline, active or not.
 */
export async function insertLead(
  trx: Transaction<Schema>,
  ops: DialectOps,
  input: {
    id: string;
    sourceId: string;
    fields: LeadFields;
    receivedAt: string;
    meta: IntakeMeta;
    botCheck: BotCheckOutcome;
    restoredFrom?: string;
  },
): Promise<void> {
  const values: LeadInsertValues = {
    ...leadRowOf({ ...input, pipelineId: '', idempotencyKey: null }),
    restored_from: input.restoredFrom ?? null,
  };
  if ((await ops.insertLead(trx, values)) !== 1) throw new Error(`Lead source ${input.sourceId} does not exist`);
}
