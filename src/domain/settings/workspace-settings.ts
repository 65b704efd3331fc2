import { AppError } from '../errors.js';
import type { DomainContext, VerbArgs } from '../context.js';
import type { Units } from '../units.js';

export type { Units } from '../units.js';

export interface WorkspaceSettings {
  workspaceId: string;
  name: string;
  timeZone: string;
  units: Units;
}

const TIME_ZONES: ReadonlySet<string> = new Set([...Intl.supportedValuesOf('timeZone'), 'UTC']);

/** Every IANA zone this Node knows, for the settings screen's list. */
export function timeZones(): string[] {
  return [...TIME_ZONES].sort();
}

export function checkTimeZone(value: string): string {
  const zone = value.trim();
  if (!TIME_ZONES.has(zone)) {
    throw new AppError('invalid_fields', `"${zone.slice(0, 60)}" is not a time zone this server knows`, [
      { field: 'timeZone', code: 'invalid', message: 'Choose a time zone from the list, e.g. America/Toronto or Europe/Paris' },
    ]);
  }
  return zone;
}

export function checkUnits(value: string): Units {
  if (value !== 'metric' && value !== 'imperial') {
    throw new AppError('invalid_fields', 'Units are metric or imperial', [
      { field: 'units', code: 'invalid', message: 'Choose metric (m, m²) or imperial (ft-in, ft²)' },
    ]);
  }
  return value;
}

/** A workspace's settings by id (the workspace exists: callers have resolved it). */
export async function getWorkspaceSettings({ ctx, input }: VerbArgs<{ workspaceId: string }>): Promise<WorkspaceSettings> {
  const row = await ctx.store.db
    .selectFrom('workspaces')
    .select(['id', 'name', 'time_zone', 'units'])
    .where('id', '=', input.workspaceId)
    .executeTakeFirst();
  if (!row) throw new AppError('workspace_not_found', 'No such workspace');
  return { workspaceId: row.id, name: row.name, timeZone: row.time_zone ?? 'UTC', units: (row.units ?? 'metric') as Units };
}

/** The units of the workspace a scan belongs to (the CLI's `scans measure`). */
export async function unitsOfScan(ctx: DomainContext, scanId: string): Promise<Units> {
  const row = await ctx.store.db
    .selectFrom('scans')
    .innerJoin('workspaces', 'workspaces.id', 'scans.workspace_id')
    .select('workspaces.units')
    .where('scans.id', '=', scanId)
    .executeTakeFirst();
  if (!row) throw new AppError('scan_not_found', `No scan has the id ${scanId}`);
  return (row.units ?? 'metric') as Units;
}
