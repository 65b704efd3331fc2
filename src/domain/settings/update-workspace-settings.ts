import type { VerbArgs } from '../context.js';
import { AppError, type FieldError } from '../errors.js';
import { assertNameFree } from '../unique-name.js';
import { checkName } from '../workspaces/create-workspace.js';
import { checkTimeZone, checkUnits, getWorkspaceSettings, type WorkspaceSettings } from './workspace-settings.js';

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

/**
 * The Settings screen and `leadscan workspace settings`: name, time zone and units, each optional. Every value is
 * checked before anything is written, all refusals are reported at once, and the change is one transaction.
 */
export async function updateWorkspaceSettings({
  ctx,
  input,
}: VerbArgs<{ workspaceId: string; name?: string; timeZone?: string; units?: string }>): Promise<WorkspaceSettings> {
  const fieldErrors: FieldError[] = [];
  const name = input.name === undefined ? undefined : checked(fieldErrors, 'name', () => checkName('workspace', input.name!));
  const timeZone = input.timeZone === undefined ? undefined : checked(fieldErrors, 'timeZone', () => checkTimeZone(input.timeZone!));
  const units = input.units === undefined ? undefined : checked(fieldErrors, 'units', () => checkUnits(input.units!));
  if (fieldErrors.length > 0) {
    throw new AppError('invalid_fields', fieldErrors.map((e) => e.message).join('; '), fieldErrors);
  }
  const changes = {
    ...(name !== undefined ? { name } : {}),
    ...(timeZone !== undefined ? { time_zone: timeZone } : {}),
    ...(units !== undefined ? { units } : {}),
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
      const updated = await trx.updateTable('workspaces').set(changes).where('id', '=', input.workspaceId).executeTakeFirst();
      if (Number(updated.numUpdatedRows) !== 1) throw new AppError('workspace_not_found', 'No such workspace');
    });
  }
  return getWorkspaceSettings({ ctx, input: { workspaceId: input.workspaceId } });
}
