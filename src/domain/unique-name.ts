import { sql, type Transaction } from 'kysely';
import type { Schema } from '../storage/schema.js';
import { AppError } from './errors.js';
import { checkText } from './text-input.js';

/** A workspace, pipeline or lead source name as typed: one line, trimmed, 1 to 120 characters. */
export function checkName(kind: string, name: string): string {
  const trimmed = checkText(name, 'name', `The ${kind} name`).trim();
  if (trimmed === '' || [...trimmed].length > 120) {
    throw new AppError('invalid_request', `A ${kind} name must be 1 to 120 characters`);
  }
  return trimmed;
}

/** The tables whose names are unique per scope (migration 0002): workspaces service-wide, the rest per workspace. */
export type NamedTable = 'workspaces' | 'pipelines' | 'lead_sources';

const KIND: Record<NamedTable, string> = {
  workspaces: 'workspace',
  pipelines: 'pipeline',
  lead_sources: 'lead source',
};

/**
 * Inside the write that inserts or renames: refuses a name another row of the scope has, compared with the same
 * lower() as the unique index (which still has the last word when two instances race).
 */
export async function assertNameFree(
  trx: Transaction<Schema>,
  table: 'workspaces',
  input: { name: string; exceptId?: string },
): Promise<void>;
export async function assertNameFree(
  trx: Transaction<Schema>,
  table: 'pipelines' | 'lead_sources',
  input: { name: string; workspaceId: string; exceptId?: string },
): Promise<void>;
export async function assertNameFree(
  trx: Transaction<Schema>,
  table: NamedTable,
  input: { name: string; exceptId?: string } | { name: string; workspaceId: string; exceptId?: string },
): Promise<void> {
  let query = trx
    .selectFrom(table)
    .select('id')
    .where(sql<string>`lower(name)`, '=', sql<string>`lower(${input.name})`);
  if ('workspaceId' in input) query = query.where('workspace_id' as never, '=', input.workspaceId as never);
  if (input.exceptId) query = query.where('id', '!=', input.exceptId);
  const clash = await query.executeTakeFirst();
  if (clash) {
    const where = table === 'workspaces' ? '' : ' in this workspace';
    throw new AppError(
      'name_taken',
      `A ${KIND[table]} named "${input.name}" already exists${where} (${clash.id}); choose another name`,
    );
  }
}
