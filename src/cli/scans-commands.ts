import type { Command } from 'commander';
import { attachScan } from '../domain/scans/attach-scan.js';
import { detachScan } from '../domain/scans/detach-scan.js';
import { listScans } from '../domain/scans/list-scans.js';
import { scanFigures } from '../domain/scans/measure-scan.js';
import { measurementHeaders, measurementRows } from '../domain/scans/measurement-table.js';
import { cellText } from '../domain/csv-cells.js';
import { checkUnits, getWorkspaceSettings } from '../domain/settings/workspace-settings.js';
import { table } from './render.js';
import { readScanRaw, readScanRoom } from '../domain/scans/read-scan-bytes.js';
import { renameRoom } from '../domain/scans/rename-room.js';
import {
  listPage,
  nonNegativeInteger,
  positiveInteger,
  withPaging,
  type CliKit,
  type PageOptions,
  type Render,
} from './kit.js';
import { scanContextOf, workspaceContextOf } from './resolve.js';

/** `leadscan scans …`: the Scans inbox and the stored bytes. */
export function registerScansCommands(program: Command, { io, run, withJson }: CliKit) {
  const scans = program.command('scans').description('the Scans inbox');
  withPaging(withJson(scans.command('list')), 'scans')
    .description('scan uploads of a workspace, newest first')
    .requiredOption('--workspace <workspace>', 'workspace id or name')
    .option('--unattached', 'only scans not attached to a lead yet')
    .action(
      run(async (ctx, opts: PageOptions & { workspace: string; unattached?: boolean }) => {
        const scoped = await workspaceContextOf(ctx, opts.workspace);
        return listPage(io, opts, (page) =>
          listScans({ ctx: scoped, input: { filter: opts.unattached ? 'unattached' : 'all', ...page } }),
        );
      }),
    );
  withJson(scans.command('attach <scan>'))
    .description('attach a scan to a lead of its workspace (the job it is for)')
    .requiredOption('--lead <lead>', 'the lead id')
    .action(
      run(async (ctx, scanId: string, opts: { lead: string }) =>
        attachScan({ ctx: await scanContextOf(ctx, scanId), input: { scanId, leadId: opts.lead } }),
      ),
    );
  withJson(scans.command('detach <scan>'))
    .description('detach a scan from its lead; both stay')
    .action(
      run(async (ctx, scanId: string) => detachScan({ ctx: await scanContextOf(ctx, scanId), input: { scanId } })),
    );
  withJson(scans.command('rename-room <scan> <room>'))
    .description("name a scan's room (ROOM its number from 1); the stored bytes do not change")
    .requiredOption('--name <name>', 'the room\'s name, e.g. "Dining room"')
    .action(
      run(async (ctx, scanId: string, room: string, opts: { name: string }) => {
        // The number is checked first: a mistyped command is told so before the scan is looked up.
        const number = positiveInteger(room);
        return renameRoom({ ctx: await scanContextOf(ctx, scanId), input: { scanId, room: number, name: opts.name } });
      }),
    );
  withJson(scans.command('measure <id>'))
    .description("a scan's room measurements (floor area, perimeter, walls, openings), as on its page")
    .option('--units <units>', 'metric or imperial (default: the workspace setting)')
    .action(
      run(
        async (ctx, scanId: string, opts: { units?: string }) => {
          const { workspaceId } = await scanContextOf(ctx, scanId);
          const figures = await scanFigures({ ctx, input: { workspaceId, scanId } });
          const units = opts.units
            ? checkUnits(opts.units)
            : (await getWorkspaceSettings({ ctx, input: { workspaceId } })).units;
          return {
            ...figures,
            units,
            table: {
              headers: measurementHeaders(units),
              rows: measurementRows(figures, units).map((row) => row.map(cellText)),
            },
          };
        },
        ((result: { table: { headers: string[]; rows: string[][] } }) =>
          table(
            result.table.rows,
            result.table.headers.map(
              (header, i) =>
                [header.toUpperCase(), (row: string[]) => row[i] ?? ''] as [string, (row: string[]) => string],
            ),
          )) as Render,
      ),
    );
  withJson(scans.command('raw <id>'))
    .description('the stored request body, byte for byte')
    .action(
      run(async (ctx, scanId: string) => readScanRaw({ ctx: await scanContextOf(ctx, scanId), input: { scanId } })),
    );
  withJson(scans.command('room <id> <index>'))
    .description("one room's exact bytes (index from 0)")
    .action(
      run(async (ctx, scanId: string, index: string) => {
        // The index is checked first: a mistyped command is told so before the scan is looked up.
        const room = nonNegativeInteger(index);
        return readScanRoom({ ctx: await scanContextOf(ctx, scanId), input: { scanId, index: room } });
      }),
    );
}
