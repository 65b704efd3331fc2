import { recordAudit } from '../audit/record-audit.js';
import type { VerbArgs } from '../context.js';
import { AppError, type FieldError } from '../errors.js';
import { assertNameFree, checkName } from '../unique-name.js';
import { checkRetention, checkTimeZone, checkUnits, getWorkspaceSettings, type WorkspaceSettings } from './workspace-settings.js';

/** Runs a check; a refusal becomes field errors of `field` (so a page shows each next to its field). */
function checked<T>(fieldErrors: FieldError[], field: string, check: () => T): T | undefined {
  try {
    return check();
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    fieldErrors.push(...(error.fieldErrors?.length ? error.fieldErrors : [{ field, code: 'invalid' as const, message: error.detail }]));
    return undefined;
  }
}

/** Which settings a save changed, for its audit record (flags, never the values: a name is free text). */
function changedFlags(before: Record<string, unknown>, changes: Record<string, unknown>): Record<string, boolean> {
  return Object.fromEntries(Object.entries(changes).filter(([column, value]) => (before[column] ?? null) !== value).map(([column]) => [column, true]));
}

/**
 * The Settings screen and `leadscan workspace settings`: name, time zone, units and retention, each optional. Every value is
 * checked before anything is written, all refusals are reported at once, and the change is one transaction.
 */
export async function updateWorkspaceSettings({
  ctx,
  input,
}: VerbArgs<{
  workspaceId: string;
  name?: string;
  timeZone?: string;
  units?: string;
  /** `off` or 3, 6, 12, 24, 36 (months). */
  leadRetention?: string;
  scanRetention?: string;
}>): Promise<WorkspaceSettings> {
  const fieldErrors: FieldError[] = [];
  const name = input.name === undefined ? undefined : checked(fieldErrors, 'name', () => checkName('workspace', input.name!));
  const timeZone = input.timeZone === undefined ? undefined : checked(fieldErrors, 'timeZone', () => checkTimeZone(input.timeZone!));
  const units = input.units === undefined ? undefined : checked(fieldErrors, 'units', () => checkUnits(input.units!));
  const leadRetention =
    input.leadRetention === undefined ? undefined : checked(fieldErrors, 'leadRetention', () => checkRetention('leadRetention', input.leadRetention!));
  const scanRetention =
    input.scanRetention === undefined ? undefined : checked(fieldErrors, 'scanRetention', () => checkRetention('scanRetention', input.scanRetention!));
  if (fieldErrors.length > 0) {
    throw new AppError('invalid_fields', fieldErrors.map((e) => e.message).join('; '), fieldErrors);
  }
  const changes = {
    ...(name !== undefined ? { name } : {}),
    ...(timeZone !== undefined ? { time_zone: timeZone } : {}),
    ...(units !== undefined ? { units } : {}),
    ...(leadRetention !== undefined ? { lead_retention_months: leadRetention } : {}),
    ...(scanRetention !== undefined ? { scan_retention_months: scanRetention } : {}),
  };
  if (Object.keys(changes).length > 0) {
    await ctx.store.writer.write(async (trx) => {
      if (name !== undefined) {
        try {
          await assertNameFree(trx, 'workspaces', { name, exceptId: input.workspaceId });
        } catch (error) {
          if (!(error instanceof AppError)) throw error;
          throw new AppError(error.code, error.detail, [{ field: 'name', code: 'invalid', message: error.detail }]);
        }
      }
      const before = await trx.selectFrom('workspaces').selectAll().where('id', '=', input.workspaceId).executeTakeFirst();
      if (!before) throw new AppError('workspace_not_found', 'No such workspace');
      await trx.updateTable('workspaces').set(changes).where('id', '=', input.workspaceId).execute();
      // A save that changed nothing is no change to record.
      const changed = changedFlags(before, changes);
      if (Object.keys(changed).length > 0) await recordAudit(trx, ctx, { action: 'settings.changed', workspaceId: input.workspaceId, details: changed });
    });
  }
  return getWorkspaceSettings({ ctx, input: { workspaceId: input.workspaceId } });
}
