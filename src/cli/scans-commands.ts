import type { Command } from 'commander';
import { listScans } from '../domain/scans/list-scans.js';
import { readScanRaw, readScanRoom } from '../domain/scans/read-scan-bytes.js';
import { nonNegativeInteger, type CliKit } from './kit.js';

/** `leadscan scans …`: the Scans inbox and the stored bytes. */
export function registerScansCommands(program: Command, { run, withJson }: CliKit) {
  const scans = program.command('scans').description('the Scans inbox');
  withJson(scans.command('list'))
    .description('scan uploads of a workspace, newest first')
    .requiredOption('--workspace <workspace>', 'workspace id or name')
    .action(run((ctx, opts: { workspace: string }) => listScans({ ctx, input: opts })));
  withJson(scans.command('raw <id>'))
    .description('the stored request body, byte for byte')
    .action(run((ctx, scanId: string) => readScanRaw({ ctx, input: { scanId } })));
  withJson(scans.command('room <id> <index>'))
    .description("one room's exact bytes (index from 0)")
    .action(
      run((ctx, scanId: string, index: string) =>
        readScanRoom({ ctx, input: { scanId, index: nonNegativeInteger(index) } }),
      ),
    );
}
