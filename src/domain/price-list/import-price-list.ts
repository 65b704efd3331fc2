import { parse } from 'csv-parse/sync';
import { recordAudit } from '../audit/record-audit.js';
import { nowIso, type VerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { newId } from '../ids.js';
import { getWorkspaceSettings } from '../settings/workspace-settings.js';
import type { Role } from '../roles.js';
import { checkItemFields, itemRow, type ItemValues } from './item-fields.js';
import { PRICE_LIST_HEADERS, unguardCell } from './price-list-csv.js';

/** The most rows one import takes. */
export const MAX_IMPORT_ROWS = 5_000;

/** The most bad rows one refusal names. */
export const MAX_ROW_ERRORS = 20;

const refuse = (detail: string) =>
  new AppError('invalid_fields', detail, [{ field: 'file', code: 'invalid', message: detail }]);

/**
 * Imports a price list CSV (owners): the header row names the columns (`name`, `unit` and `price` required, the
 * rest optional, in any order); a row whose name matches an item's (case-insensitively) replaces that item, the
 * others are added. Every row is checked first; one bad row refuses the whole file, naming every bad row (up to
 * MAX_ROW_ERRORS), and nothing changes.
 */
export async function importPriceList({
  ctx,
  input,
}: VerbArgs<{ workspaceId: string; role: Role; csv: string }>): Promise<{ added: number; updated: number }> {
  if (input.role !== 'owner')
    throw new AppError('owner_only', 'Only an owner of the workspace can change the price list; ask an owner');
  let records: string[][];
  try {
    records = parse(input.csv, { bom: true, skip_empty_lines: true, relax_column_count: true }) as string[][];
  } catch (error) {
    throw refuse(`The file is not readable CSV: ${(error as Error).message.slice(0, 200)}`);
  }
  const [header, ...rows] = records;
  if (!header) throw refuse('The file is empty; it needs a header row: ' + PRICE_LIST_HEADERS.join(','));
  const columns = header.map((h) => h.trim().toLowerCase());
  for (const required of ['name', 'unit', 'price']) {
    if (!columns.includes(required))
      throw refuse(`The header row has no "${required}" column (columns: ${PRICE_LIST_HEADERS.join(', ')})`);
  }
  const unknown = columns.find((c) => !(PRICE_LIST_HEADERS as readonly string[]).includes(c));
  if (unknown !== undefined)
    throw refuse(
      `The header row has a column "${unknown.slice(0, 40)}" that is not one of ${PRICE_LIST_HEADERS.join(', ')}`,
    );
  if (rows.length > MAX_IMPORT_ROWS)
    throw refuse(`The file has ${rows.length} rows; one import takes at most ${MAX_IMPORT_ROWS}`);
  const settings = await getWorkspaceSettings({ ctx, input: { workspaceId: input.workspaceId } });
  const bad: string[] = [];
  const values = rows.map((cells, i): ItemValues | null => {
    const cell = (name: string) => {
      const at = columns.indexOf(name);
      return at < 0 ? undefined : unguardCell(cells[at] ?? '');
    };
    const taxes = cell('taxes');
    try {
      return checkItemFields(
        {
          name: cell('name')!,
          unit: cell('unit')!,
          price: cell('price')!,
          measure: cell('measure'),
          waste: cell('waste'),
          coats: cell('coats'),
          pack: cell('pack'),
          customerDescription: cell('description'),
          taxes:
            taxes === undefined
              ? undefined
              : taxes
                  .split(/[,;]/)
                  .map((t) => t.trim())
                  .filter(Boolean),
        },
        settings,
        `Row ${i + 2}: `,
      );
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      bad.push(error.detail);
      return null;
    }
  });
  if (bad.length > 0) {
    // Every bad row is named (up to MAX_ROW_ERRORS), so a file is fixed in one go; still nothing changes.
    const shown = bad.slice(0, MAX_ROW_ERRORS);
    if (bad.length > shown.length) shown.push(`… and ${bad.length - shown.length} more bad rows`);
    throw new AppError(
      'invalid_fields',
      shown.join('; '),
      shown.map((message) => ({ field: 'file', code: 'invalid', message })),
    );
  }
  const at = nowIso(ctx);
  return ctx.store.writer.write(async (trx) => {
    const existing = await trx
      .selectFrom('price_list_items')
      .select(['id', 'name'])
      .where('workspace_id', '=', input.workspaceId)
      .execute();
    const byName = new Map(existing.map((r) => [r.name.toLowerCase(), r.id]));
    let added = 0;
    let updated = 0;
    for (const value of values as ItemValues[]) {
      const id = byName.get(value.name.toLowerCase());
      if (id !== undefined) {
        await trx
          .updateTable('price_list_items')
          .set({ ...itemRow(value), updated_at: at })
          .where('id', '=', id)
          .execute();
        updated += 1;
      } else {
        const newItem = newId('pli');
        await trx
          .insertInto('price_list_items')
          .values({ id: newItem, workspace_id: input.workspaceId, ...itemRow(value), created_at: at, updated_at: at })
          .execute();
        byName.set(value.name.toLowerCase(), newItem);
        added += 1;
      }
    }
    await recordAudit(trx, ctx, {
      action: 'price_list.imported',
      workspaceId: input.workspaceId,
      details: { added, updated },
    });
    return { added, updated };
  });
}
