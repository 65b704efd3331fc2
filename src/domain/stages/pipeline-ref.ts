import type { DomainContext } from '../context.js';
import { findPipeline } from '../pipelines/find-pipeline.js';
import type { Pipeline } from '../pipelines/create-pipeline.js';
import { findWorkspace } from '../workspaces/find-workspace.js';

/** The pipeline named by a workspace ref and a pipeline ref; another workspace's pipeline is "not found". */
export async function pipelineOf(ctx: DomainContext, input: { workspace: string; pipeline: string }): Promise<Pipeline> {
  const workspace = await findWorkspace({ ctx, input: { ref: input.workspace } });
  return findPipeline({ ctx, input: { workspaceId: workspace.id, ref: input.pipeline } });
}
