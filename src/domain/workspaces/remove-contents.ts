import type { Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';
import { AppError } from '../errors.js';
import { sourceScope, workspaceScope } from '../idempotency/idempotency-key.js';

/** What a delete removed, printed by the CLI so nothing disappears unannounced. */
export interface RemovedCounts {
  pipelines: number;
  sources: number;
  leads: number;
  quarantine: number;
  scans: number;
}

export const NOTHING_REMOVED: RemovedCounts = { pipelines: 0, sources: 0, leads: 0, quarantine: 0, scans: 0 };

const count = (result: { numDeletedRows: bigint } | undefined) => Number(result?.numDeletedRows ?? 0n);

/**
 * docs/cli.md: deleting something that holds leads or scans needs --force. Called inside the deleting
 * transaction with counts taken there, so a lead that arrives between a look and the delete is not removed unasked.
 */
export function refuseUnlessEmpty(input: {
  what: string;
  leads: number;
  scans: number;
  force: boolean;
  hint?: string;
}): void {
  if (input.force || input.leads + input.scans === 0) return;
  const holds = [input.leads ? `${input.leads} lead(s)` : '', input.scans ? `${input.scans} scan(s)` : '']
    .filter(Boolean)
    .join(' and ');
  throw new AppError(
    'not_empty',
    `${input.what} holds ${holds}; add --force to delete them with it${input.hint ?? ''}`,
  );
}

export async function countLeads(
  trx: Transaction<Schema>,
  by: { sourceIds: string[]; pipelineId?: string },
): Promise<number> {
  if (by.sourceIds.length === 0 && !by.pipelineId) return 0;
  const row = await trx
    .selectFrom('leads')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where((eb) =>
      eb.or([
        ...(by.sourceIds.length > 0 ? [eb('source_id', 'in', by.sourceIds)] : []),
        ...(by.pipelineId ? [eb('pipeline_id', '=', by.pipelineId)] : []),
      ]),
    )
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

export async function countScans(trx: Transaction<Schema>, workspaceId: string): Promise<number> {
  const row = await trx
    .selectFrom('scans')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('workspace_id', '=', workspaceId)
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/**
 * Removes leads with their stage history, inside `trx` (unread marks and the search index follow by trigger).
 * Every verb that deletes leads in bulk goes through here, so nothing of a lead is left behind.
 */
export async function removeLeads(
  trx: Transaction<Schema>,
  column: 'id' | 'source_id' | 'pipeline_id',
  values: string[],
): Promise<number> {
  if (values.length === 0) return 0;
  const leadIds = trx.selectFrom('leads').select('id').where(column, 'in', values);
  await trx.deleteFrom('stage_history').where('lead_id', 'in', leadIds).execute();
  return count(await trx.deleteFrom('leads').where(column, 'in', values).executeTakeFirst());
}

/**
 * Removes pipelines' stages and unread counters, inside `trx`, after their leads and before the pipelines themselves.
 */
export async function removeStages(trx: Transaction<Schema>, pipelineIds: string[]): Promise<void> {
  if (pipelineIds.length === 0) return;
  await trx.deleteFrom('stages').where('pipeline_id', 'in', pipelineIds).execute();
  await trx.deleteFrom('lead_unread_counts').where('pipeline_id', 'in', pipelineIds).execute();
}

/** Removes lead sources with their leads, quarantine, idempotency records, form texts and intake log, inside `trx`. */
export async function removeSources(trx: Transaction<Schema>, sourceIds: string[]): Promise<RemovedCounts> {
  if (sourceIds.length === 0) return { ...NOTHING_REMOVED };
  const leads = await removeLeads(trx, 'source_id', sourceIds);
  const quarantine = count(await trx.deleteFrom('quarantine').where('source_id', 'in', sourceIds).executeTakeFirst());
  await trx.deleteFrom('idempotency_keys').where('scope', 'in', sourceIds.map(sourceScope)).execute();
  await trx.deleteFrom('intake_log').where('source_id', 'in', sourceIds).execute();
  await trx.deleteFrom('lead_source_texts').where('source_id', 'in', sourceIds).execute();
  const sources = count(await trx.deleteFrom('lead_sources').where('id', 'in', sourceIds).executeTakeFirst());
  return { ...NOTHING_REMOVED, sources, leads, quarantine };
}

/** Removes a workspace's scans with their rooms and idempotency records, inside `trx`. */
export async function removeScans(trx: Transaction<Schema>, workspaceId: string): Promise<number> {
  const scanIds = trx.selectFrom('scans').select('id').where('workspace_id', '=', workspaceId);
  await trx.deleteFrom('scan_rooms').where('scan_id', 'in', scanIds).execute();
  await trx.deleteFrom('idempotency_keys').where('scope', '=', workspaceScope(workspaceId)).execute();
  return count(await trx.deleteFrom('scans').where('workspace_id', '=', workspaceId).executeTakeFirst());
}
