import { AppError } from '../errors.js';
import type { VerbArgs } from '../context.js';
import type { Units } from '../units.js';

export type { Units } from '../units.js';

export interface WorkspaceSettings {
  workspaceId: string;
  name: string;
  timeZone: string;
  units: Units;
  /** Months leads are kept before the daily job deletes them; null keeps them (docs/operations.md, "Retention"). */
  leadRetentionMonths: RetentionMonths | null;
  /** Months scans are kept; null keeps them. */
  scanRetentionMonths: RetentionMonths | null;
}

/** The ages a workspace may choose for leads and scans; "off" is null. */
export const RETENTION_MONTHS = [3, 6, 12, 24, 36] as const;
export type RetentionMonths = (typeof RETENTION_MONTHS)[number];

/** `off` or a number of months from RETENTION_MONTHS, as the settings form and the CLI send it. */
export function checkRetention(field: string, value: string): RetentionMonths | null {
  const text = value.trim();
  if (text === 'off' || text === '') return null;
  const months = Number(text);
  if (!(RETENTION_MONTHS as readonly number[]).includes(months)) {
    throw new AppError('invalid_fields', `Retention is off or ${RETENTION_MONTHS.join(', ')} months`, [
      { field, code: 'invalid', message: `Choose off or ${RETENTION_MONTHS.join(', ')} months` },
    ]);
  }
  return months as RetentionMonths;
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
    .select(['id', 'name', 'time_zone', 'units', 'lead_retention_months', 'scan_retention_months'])
    .where('id', '=', input.workspaceId)
    .executeTakeFirst();
  if (!row) throw new AppError('workspace_not_found', 'No such workspace');
  return {
    workspaceId: row.id,
    name: row.name,
    timeZone: row.time_zone ?? 'UTC',
    units: (row.units ?? 'metric') as Units,
    leadRetentionMonths: (row.lead_retention_months ?? null) as RetentionMonths | null,
    scanRetentionMonths: (row.scan_retention_months ?? null) as RetentionMonths | null,
  };
}
