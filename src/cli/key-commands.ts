import type { Command } from 'commander';
import { regenerateUploadKey } from '../domain/keys/regenerate-upload-key.js';
import { showUploadKey } from '../domain/keys/show-upload-key.js';
import type { CliKit } from './kit.js';
import { workspaceContextOf } from './resolve.js';

/** `leadscan key …`: the workspace's scan upload key. */
export function registerKeyCommands(program: Command, { run, withJson }: CliKit) {
  const key = program.command('key').description("the workspace's scan upload key");
  withJson(key.command('show'))
    .description('show the live upload key')
    .requiredOption('--workspace <workspace>', 'workspace id or name')
    .action(
      run(async (ctx, opts: { workspace: string }) =>
        showUploadKey({
          ctx: await workspaceContextOf(ctx, opts.workspace),
          input: { audit: 'key.shown' },
        }),
      ),
    );
  withJson(key.command('regenerate'))
    .description('replace the upload key; the old one is refused at once')
    .requiredOption('--workspace <workspace>', 'workspace id or name')
    .action(
      run(async (ctx, opts: { workspace: string }) =>
        regenerateUploadKey({ ctx: await workspaceContextOf(ctx, opts.workspace), input: {} }),
      ),
    );
}
