import { newId } from '../../src/domain/ids.js';
import type { LeadRow } from '../../src/storage/hot-writes/lead.js';
import type { ScanRow } from '../../src/storage/hot-writes/scan.js';
import { handOver } from '../../src/storage/hot-writes/scan.js';

/** A lead as intake posts it to the hot writer: only a name, from `source`, seen in `pipeline` (its own by default). */
export function leadRow(
  source: { id: string; pipeline_id: string },
  name: string | null,
  pipeline = source.pipeline_id,
): LeadRow {
  return {
    id: newId('lead'),
    source_id: source.id,
    pipeline_id: pipeline,
    name,
    phone: null,
    email: null,
    address: null,
    notes: null,
    extra: '{}',
    received_at: new Date().toISOString(),
    client_ip: null,
    user_agent: null,
    origin: null,
    referer: null,
    bot_check: 'off',
    idempotency_key: null,
    email_key: null,
    phone_key: null,
  };
}

/** A one-room scan upload of `workspaceId` as the hot writer takes it. */
export function scanRow(workspaceId: string, id: string): ScanRow {
  const raw = Buffer.from('{"rooms":[{"a":1}]}');
  return {
    id,
    workspace_id: workspaceId,
    received_at: new Date().toISOString(),
    room_count: 1,
    byte_size: raw.length,
    user_agent: null,
    raw: handOver(raw),
    idempotency_key: null,
  };
}
