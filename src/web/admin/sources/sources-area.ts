import { sourceStats } from '../../../domain/intake-log/source-stats.js';
import { configureBotCheck, type BotCheckInput } from '../../../domain/sources/configure-bot-check.js';
import { campaignCounts } from '../../../domain/sources/campaign-counts.js';
import { createSource } from '../../../domain/sources/create-source.js';
import { findWorkspaceSource, listSources, pipelineChoices } from '../../../domain/sources/list-sources.js';
import { getSpamRules } from '../../../domain/sources/update-spam-rules.js';
import { setSourceActive } from '../../../domain/sources/set-source-active.js';
import { setSenderConfirmation } from '../../../domain/sources/set-sender-confirmation.js';
import { getWorkspaceSettings } from '../../../domain/settings/workspace-settings.js';
import { readSourceTexts, updateSourceTexts } from '../../../domain/sources/update-source-texts.js';
import { AppError } from '../../../domain/errors.js';
import type { AdminArea, WorkspaceCall } from '../admin-route.js';
import { workspacePath } from '../admin-route.js';
import type { FormErrors } from '../form-controls.js';
import { newSourcePage, sourcePage, sourcesPage } from './sources-pages.js';
import { formEditorRoutes } from './form-editor-routes.js';

const sourceOf = (call: WorkspaceCall) =>
  findWorkspaceSource({
    ctx: call.ctx,
    input: { sourceId: call.params.sourceId ?? '' },
  });

const sourcePath = (call: WorkspaceCall, id: string) => workspacePath(call.workspace.workspaceId, `sources/${id}`);

async function renderSource(
  call: WorkspaceCall,
  status: number,
  extra: {
    botCheckErrors?: FormErrors;
    textErrors?: FormErrors;
    textValues?: Record<string, string>;
    confirmationErrors?: FormErrors;
  } = {},
) {
  const source = await sourceOf(call);
  const texts = await readSourceTexts(call.ctx, source.id);
  // The same verb as `leadscan source stats`: why a form did or did not deliver, per day (docs/operations.md).
  const stats = await sourceStats({ ctx: call.ctx, input: { sourceId: source.id, days: 14 } });
  const { rules: spamRules } = await getSpamRules({ ctx: call.ctx, input: { sourceId: source.id } });
  const campaigns = await campaignCounts({ ctx: call.ctx, input: { sourceId: source.id } });
  const workspaceName = call.workspace.workspaceName;
  const { businessEmail } = await getWorkspaceSettings({
    ctx: call.ctx,
    input: { workspaceId: call.workspace.workspaceId },
  });
  return call.render(status, {
    title: source.name,
    area: 'sources',
    body: sourcePage(call, { source, texts, stats, spamRules, campaigns, workspaceName, businessEmail, ...extra }),
  });
}

/** The bot-check form as the verb's input; "None" turns it off. */
/** The form's texts as typed. */
const textsOf = (call: WorkspaceCall) => ({
  heading: call.body.heading ?? '',
  introduction: call.body.introduction ?? '',
  thankYou: call.body.thankYou ?? '',
});

function botCheckInput(body: Record<string, string>): BotCheckInput {
  const provider = body.provider ?? 'off';
  if (provider === 'off') return { off: true };
  if (!body.secret?.trim()) {
    throw new AppError('invalid_fields', 'A bot check needs the provider secret', [
      { field: 'secret', code: 'required', message: 'Enter the secret key from the provider' },
    ]);
  }
  const minScoreText = body.minScore?.trim() ?? '';
  const minScore = minScoreText === '' ? undefined : Number(minScoreText);
  if (minScore !== undefined && !(minScore >= 0 && minScore <= 1)) {
    throw new AppError('invalid_fields', 'The minimum score is a number from 0 to 1', [
      { field: 'minScore', code: 'invalid', message: 'A number from 0 to 1, e.g. 0.5' },
    ]);
  }
  return {
    provider,
    secret: body.secret,
    ...(body.siteKey?.trim() ? { siteKey: body.siteKey } : {}),
    ...(minScore !== undefined ? { minScore } : {}),
  };
}

/** Sources (docs/admin-app.md), owner only. */
export const sourcesArea: AdminArea = {
  nav: { area: 'sources', label: 'Sources', path: 'sources', access: 'owner' },
  routes: [
    {
      method: 'GET',
      path: '/w/:workspaceId/sources',
      access: 'owner',
      handler: async (call) => {
        const sources = await listSources({ ctx: call.ctx, input: {} });
        return call.render(200, { title: 'Sources', area: 'sources', body: sourcesPage(call, sources) });
      },
    },
    {
      method: 'GET',
      path: '/w/:workspaceId/sources/new',
      access: 'owner',
      handler: async (call) => {
        const pipelines = await pipelineChoices({ ctx: call.ctx, input: {} });
        return call.render(200, { title: 'New source', area: 'sources', body: newSourcePage(call, pipelines) });
      },
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/sources',
      access: 'owner',
      handler: async (call) => {
        const created = await createSource({
          ctx: call.ctx,
          input: { pipelineId: call.body.pipeline ?? '', name: call.body.name ?? '' },
        });
        return call.redirect(sourcePath(call, created.id), 'source-created');
      },
      form: {
        field: 'name',
        fields: { pipeline_not_found: 'pipeline' },
        rerender: async (call, { status, errors, error }) => {
          const values = { name: call.body.name ?? '', pipeline: call.body.pipeline ?? '' };
          const pipelines = await pipelineChoices({
            ctx: call.ctx,
            input: {},
          });
          // A name taken answers 409 as the API does (a pipeline gone meanwhile is this form's own 400).
          const shownStatus = error.code === 'pipeline_not_found' ? 400 : status;
          return call.render(shownStatus, {
            title: 'New source',
            area: 'sources',
            body: newSourcePage(call, pipelines, values, errors),
          });
        },
      },
    },
    {
      method: 'GET',
      path: '/w/:workspaceId/sources/:sourceId',
      access: 'owner',
      handler: (call) => renderSource(call, 200),
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/sources/:sourceId/active',
      access: 'owner',
      handler: async (call) => {
        const source = await sourceOf(call);
        const active = call.body.active === '1';
        await setSourceActive({ ctx: call.ctx, input: { sourceId: source.id, active } });
        return call.redirect(sourcePath(call, source.id), active ? 'source-activated' : 'source-deactivated');
      },
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/sources/:sourceId/bot-check',
      access: 'owner',
      handler: async (call) => {
        const source = await sourceOf(call);
        const settings = botCheckInput(call.body);
        await configureBotCheck({ ctx: call.ctx, input: { sourceId: source.id, settings } });
        return call.redirect(sourcePath(call, source.id), settings.off ? 'bot-check-off' : 'bot-check-saved');
      },
      form: {
        field: 'secret',
        rerender: (call, { status, errors }) => renderSource(call, status, { botCheckErrors: errors }),
      },
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/sources/:sourceId/texts',
      access: 'owner',
      handler: async (call) => {
        const source = await sourceOf(call);
        await updateSourceTexts({ ctx: call.ctx, input: { sourceId: source.id, texts: textsOf(call) } });
        return call.redirect(sourcePath(call, source.id), 'texts-saved');
      },
      form: {
        field: 'heading',
        rerender: (call, { status, errors }) =>
          renderSource(call, status, { textErrors: errors, textValues: textsOf(call) }),
      },
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/sources/:sourceId/confirmation',
      access: 'owner',
      handler: async (call) => {
        const source = await sourceOf(call);
        const on = call.body.confirmSender === '1';
        await setSenderConfirmation({
          ctx: call.ctx,
          input: { sourceId: source.id, on },
        });
        return call.redirect(sourcePath(call, source.id), on ? 'confirmation-on' : 'confirmation-off');
      },
      form: {
        field: 'confirmSender',
        rerender: (call, { status, errors }) => renderSource(call, status, { confirmationErrors: errors }),
      },
    },
    ...formEditorRoutes,
  ],
};
