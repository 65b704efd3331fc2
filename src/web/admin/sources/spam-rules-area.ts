import { SPAM_RULE_LISTS, type SpamRuleList } from '../../../domain/sources/spam-rules.js';
import { getSpamRules, updateSpamRules } from '../../../domain/sources/update-spam-rules.js';
import type { AdminArea, WorkspaceCall } from '../admin-route.js';
import { workspacePath } from '../admin-route.js';
import { spamRulesPage } from './spam-rules-pages.js';

const sourceIdOf = (call: WorkspaceCall) => call.params.sourceId ?? '';

/** A source's spam rules (docs/admin-app.md), owner only; the same verbs as `leadscan source rules|block|unblock`. */
/** Each rule list of the form, as typed (one rule a line). */
function postedLists(call: WorkspaceCall): Partial<Record<SpamRuleList, string>> {
  const values: Partial<Record<SpamRuleList, string>> = {};
  for (const list of SPAM_RULE_LISTS) values[list] = call.body[list] ?? '';
  return values;
}

export const spamRulesArea: AdminArea = {
  routes: [
    {
      method: 'GET',
      path: '/w/:workspaceId/sources/:sourceId/spam',
      access: 'owner',
      handler: async (call) => {
        const view = await getSpamRules({
          ctx: call.ctx,
          input: { sourceId: sourceIdOf(call) },
        });
        return call.render(200, {
          title: `Spam rules · ${view.name}`,
          area: 'sources',
          body: spamRulesPage(call, { view }),
        });
      },
    },
    {
      method: 'POST',
      path: '/w/:workspaceId/sources/:sourceId/spam',
      access: 'owner',
      handler: async (call) => {
        const workspaceId = call.workspace.workspaceId;
        const values = postedLists(call);
        const set = Object.fromEntries(SPAM_RULE_LISTS.map((l) => [l, (values[l] ?? '').split(/\r\n|\r|\n/)]));
        const view = await updateSpamRules({ ctx: call.ctx, input: { sourceId: sourceIdOf(call), set } });
        return call.redirect(workspacePath(workspaceId, `sources/${view.sourceId}/spam`), 'spam-rules-saved');
      },
      form: {
        field: 'blockedEmails',
        rerender: async (call, { status, errors }) => {
          const view = await getSpamRules({
            ctx: call.ctx,
            input: { sourceId: sourceIdOf(call) },
          });
          return call.render(status, {
            title: `Spam rules · ${view.name}`,
            area: 'sources',
            body: spamRulesPage(call, { view, errors, values: postedLists(call) }),
          });
        },
      },
    },
  ],
};
