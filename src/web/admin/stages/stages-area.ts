import { findPipeline } from '../../../domain/pipelines/find-pipeline.js';
import { addStage } from '../../../domain/stages/add-stage.js';
import { listStages, type StageWithCount } from '../../../domain/stages/list-stages.js';
import { removeStage } from '../../../domain/stages/remove-stage.js';
import { renameStage } from '../../../domain/stages/rename-stage.js';
import { reorderStages } from '../../../domain/stages/reorder-stages.js';
import { html, type SafeHtml } from '../../html.js';
import { actorOf } from '../leads/leads-area.js';
import { leadsNotice } from '../leads/leads-notices.js';
import type { AdminArea, WorkspaceCall } from '../admin-route.js';
import { workspacePath } from '../admin-route.js';
import { actionButton, csrfField } from '../form-controls.js';

const stagesPath = (call: WorkspaceCall) =>
  workspacePath(call.workspace.workspaceId, `pipelines/${call.params.pipelineId ?? ''}/stages`);

/** The URL's pipeline (its id, or a name typed into the address), resolved once; another workspace's is "not found". */
const pipelineOfUrl = (call: WorkspaceCall) =>
  findPipeline({
    ctx: call.ctx,
    input: { ref: call.params.pipelineId ?? '' },
  });

async function refs(call: WorkspaceCall): Promise<{ workspaceId: string; pipelineId: string }> {
  const pipeline = await pipelineOfUrl(call);
  return { workspaceId: pipeline.workspaceId, pipelineId: pipeline.id };
}

/** The Add stage form as sent back with its error: the name typed and the message next to it. */
interface AddStageRefused {
  name: string;
  error: string;
}

function stagesPage(
  call: WorkspaceCall,
  pipeline: { id: string; name: string },
  stages: StageWithCount[],
  refused?: AddStageRefused,
): SafeHtml {
  const base = stagesPath(call);
  return html`<p class="small"><a href="${workspacePath(
    call.workspace.workspaceId,
    `pipelines/${pipeline.id}/leads`,
  )}">← ${pipeline.name}</a></p>
<div class="page-head"><div><h1>Stages of ${pipeline.name}</h1>
<p class="muted">New leads arrive in the first stage: that is the Leads inbox. A stage that holds leads is removed by
moving its leads to another stage.</p></div></div>
${leadsNotice(call.query.notice)}
<section class="card table-card" aria-labelledby="stages-heading">
<h2 id="stages-heading" class="offscreen">Stages</h2>
<table class="list stages" id="stages">
<thead><tr><th scope="col">Stage</th><th scope="col" class="num">Leads</th><th scope="col">Order</th>
<th scope="col">Remove</th></tr></thead>
<tbody>${stages.map(
    (s, i) => html`<tr>
<td data-label="Stage"><form method="post" action="${base}/${s.key}/rename"
  class="stage-row">${csrfField(call.csrf)}<label class="offscreen"
    for="rename-${s.key}">Name of ${s.name}</label><input type="text" id="rename-${s.key}"
      name="name" value="${s.name}" maxlength="60"
        required><button type="submit" class="secondary">Rename</button></form></td>
<td data-label="Leads" class="num">${s.leads}</td>
<td data-label="Order"><div class="order">${
      i > 0
        ? html`<span class="up">${actionButton({
            action: `${base}/${s.key}/move`,
            csrf: call.csrf,
            label: 'Up',
            fields: { direction: 'up' },
          })}</span>`
        : ''
    }${
      i < stages.length - 1
        ? html`<span class="down">${actionButton({
            action: `${base}/${s.key}/move`,
            csrf: call.csrf,
            label: 'Down',
            fields: { direction: 'down' },
          })}</span>`
        : ''
    }</div></td>
<td data-label="Remove">${
      stages.length > 1
        ? html`<form method="post" action="${base}/${s.key}/remove" class="stage-row remove"
          data-confirm="Remove the stage ${s.name}?">${csrfField(call.csrf)}${
            s.leads > 0
              ? html`<label for="move-${s.key}" class="small">Move its leads to</label><select id="move-${s.key}"
                name="moveTo">${stages
                  .filter((o) => o.key !== s.key)
                  .map((o) => html`<option value="${o.key}">${o.name}</option>`)}</select>`
              : ''
          }<button type="submit" class="danger">Remove</button></form>`
        : html`<span class="muted small">The last stage stays</span>`
    }</td>
</tr>`,
  )}</tbody>
</table>
</section>
<section class="card" aria-labelledby="add-heading">
<h2 id="add-heading">Add a stage</h2>
<form method="post" action="${base}"
  class="stage-row">${csrfField(call.csrf)}<label for="f-new-stage">New stage name</label><input type="text"
    id="f-new-stage" name="name" maxlength="60" required${
      refused ? html` aria-invalid="true" aria-describedby="f-new-stage-error" value="${refused.name}"` : ''
    }><button type="submit">Add stage</button>${
      refused ? html`<p class="field-error" id="f-new-stage-error">${refused.error}</p>` : ''
    }</form>
</section>`;
}

/** Stage management for owners (docs/admin-app.md): rename, reorder, add, remove with move. */
export const stagesArea: AdminArea = {
  routes: [
    {
      method: 'GET',
      path: '/w/:workspaceId/pipelines/:pipelineId/stages',
      access: 'owner',
      handler: async (call) => {
        const pipeline = await pipelineOfUrl(call);
        const stages = await listStages({
          ctx: call.ctx,
          input: { pipelineId: pipeline.id },
        });
        return call.render(200, {
          title: `Stages · ${pipeline.name}`,
          area: 'leads',
          body: stagesPage(call, pipeline, stages),
        });
      },
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/pipelines/:pipelineId/stages',
      access: 'owner',
      handler: async (call) => {
        await addStage({ ctx: call.ctx, input: { ...(await refs(call)), name: call.body.name ?? '' } });
        return call.redirect(stagesPath(call), 'stage-added');
      },
      form: {
        field: 'name',
        // A name refused (taken, or empty or too long) is shown next to the field, with the status of its code.
        rerender: async (call, { status, error }) => {
          const pipeline = await pipelineOfUrl(call);
          const stages = await listStages({ ctx: call.ctx, input: await refs(call) });
          const body = stagesPage(call, pipeline, stages, { name: call.body.name ?? '', error: error.detail });
          return call.render(status, { title: `Stages · ${pipeline.name}`, area: 'leads', body });
        },
      },
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/pipelines/:pipelineId/stages/:stageKey/rename',
      access: 'owner',
      handler: async (call) => {
        await renameStage({
          ctx: call.ctx,
          input: { ...(await refs(call)), stage: call.params.stageKey ?? '', name: call.body.name ?? '' },
        });
        return call.redirect(stagesPath(call), 'stage-renamed');
      },
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/pipelines/:pipelineId/stages/:stageKey/move',
      access: 'owner',
      handler: async (call) => {
        const direction = call.body.direction === 'up' ? 'up' : 'down';
        await reorderStages({
          ctx: call.ctx,
          input: { ...(await refs(call)), stage: call.params.stageKey ?? '', direction },
        });
        return call.redirect(stagesPath(call), 'stage-moved');
      },
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/pipelines/:pipelineId/stages/:stageKey/remove',
      access: 'owner',
      handler: async (call) => {
        const moveTo = call.body.moveTo?.trim() || undefined;
        await removeStage({
          ctx: call.ctx,
          input: { ...(await refs(call)), stage: call.params.stageKey ?? '', moveTo, by: actorOf(call) },
        });
        return call.redirect(stagesPath(call), 'stage-removed');
      },
    },
  ],
};
