import { inWorkspace, type DomainContext, type WorkspaceContext } from '../domain/context.js';
import { findPipeline } from '../domain/pipelines/find-pipeline.js';
import { requireSource } from '../domain/sources/find-source.js';
import { findWorkspace } from '../domain/workspaces/find-workspace.js';

/**
 * The CLI takes workspaces, pipelines and sources as a person types them (an id or a name; a source's id or its
 * intake token) and turns them into ids here, once, before calling a verb: the verbs take ids. Not found is the
 * lookup's own error (`workspace_not_found`, `pipeline_not_found`, `source_not_found`, `malformed_token`).
 */
export async function workspaceIdOf(ctx: DomainContext, ref: string): Promise<string> {
  return (await findWorkspace({ ctx, input: { ref } })).id;
}

/** The context of a workspace's verbs, from the workspace as typed (`--workspace`). */
export async function workspaceContextOf(ctx: DomainContext, ref: string): Promise<WorkspaceContext> {
  return inWorkspace(ctx, await workspaceIdOf(ctx, ref));
}

/** The ids of a workspace and of one of its pipelines, for the commands that take both. */
export async function pipelineIdsOf(
  ctx: DomainContext,
  refs: { workspace: string; pipeline: string },
): Promise<{ workspaceId: string; pipelineId: string }> {
  const workspaceId = await workspaceIdOf(ctx, refs.workspace);
  const pipeline = await findPipeline({ ctx, input: { workspaceId, ref: refs.pipeline } });
  return { workspaceId, pipelineId: pipeline.id };
}

export async function sourceIdOf(ctx: DomainContext, ref: string): Promise<string> {
  return (await requireSource({ ctx, input: { ref } })).id;
}
