import type { Command } from 'commander';
import { createPipeline } from '../domain/pipelines/create-pipeline.js';
import { createWorkspace } from '../domain/workspaces/create-workspace.js';
import type { CliKit } from './kit.js';

/** `leadscan workspace …` and `leadscan pipeline …`. */
export function registerWorkspaceCommands(program: Command, { run, withJson }: CliKit) {
  const workspace = program.command('workspace').description('workspaces');
  withJson(workspace.command('create'))
    .description('create a workspace with its upload key')
    .requiredOption('--name <name>', 'workspace name')
    .action(run((ctx, opts: { name: string }) => createWorkspace({ ctx, input: { name: opts.name } })));

  const pipeline = program.command('pipeline').description('pipelines');
  withJson(pipeline.command('create'))
    .description('create a pipeline in a workspace')
    .requiredOption('--workspace <workspace>', 'workspace id or name')
    .requiredOption('--name <name>', 'pipeline name')
    .action(
      run((ctx, opts: { workspace: string; name: string }) =>
        createPipeline({ ctx, input: { workspace: opts.workspace, name: opts.name } }),
      ),
    );
}
