import { recordAudit } from '../audit/record-audit.js';
import { nowIso, type WorkspaceVerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import {
  checkSpamRules,
  parseSpamRules,
  SPAM_RULE_LISTS,
  spamRulesText,
  type SpamRuleList,
  type SpamRules,
} from './spam-rules.js';

export type SpamRuleEdits = Partial<Record<SpamRuleList, readonly string[]>>;

export interface SpamRulesView {
  sourceId: string;
  name: string;
  rules: SpamRules;
}

/** A source's spam rules; another workspace's source is "not found". */
export async function getSpamRules({ ctx, input }: WorkspaceVerbArgs<{ sourceId: string }>): Promise<SpamRulesView> {
  const row = await ctx.store.db
    .selectFrom('lead_sources')
    .select(['id', 'name', 'spam_rules'])
    .where('id', '=', input.sourceId)
    .where('workspace_id', '=', ctx.workspaceId)
    .executeTakeFirst();
  if (!row) throw new AppError('source_not_found', `No lead source has the id ${input.sourceId}`);
  return { sourceId: row.id, name: row.name, rules: parseSpamRules(row.spam_rules) };
}

/**
 * Changes a source's spam rules in one transaction (docs/admin-app.md, "Spam rules"): `set` replaces the lists it
 * names (the spam page's text areas), `add` and `remove` change single entries (`leadscan source block|unblock`).
 * The result is checked and bounded as a whole. Intake sees the change at once in this process (a management write
 * drops the cached source) and within seconds in others (domain/intake/source-cache.ts).
 */
export async function updateSpamRules({
  ctx,
  input,
}: WorkspaceVerbArgs<{
  sourceId: string;
  set?: SpamRuleEdits;
  add?: SpamRuleEdits;
  remove?: SpamRuleEdits;
}>): Promise<SpamRulesView> {
  return ctx.store.writer.write(async (trx) => {
    const row = await trx
      .selectFrom('lead_sources')
      .select(['id', 'name', 'spam_rules', 'workspace_id'])
      .where('id', '=', input.sourceId)
      .where('workspace_id', '=', ctx.workspaceId)
      .executeTakeFirst();
    if (!row) throw new AppError('source_not_found', `No lead source has the id ${input.sourceId}`);
    const current = parseSpamRules(row.spam_rules);
    const next: Partial<Record<SpamRuleList, string[]>> = {};
    for (const list of SPAM_RULE_LISTS) {
      const removed = new Set(checkSpamRules({ [list]: input.remove?.[list] ?? [] })[list]);
      const base = input.set?.[list] ?? current[list];
      // Tidied as the check writes entries (lower case, no `@` before a domain), so a removal names them as typed.
      next[list] = checkSpamRules({ [list]: [...base, ...(input.add?.[list] ?? [])] })[list].filter(
        (e) => !removed.has(e),
      );
    }
    const rules = checkSpamRules(next);
    await trx
      .updateTable('lead_sources')
      .set({ spam_rules: spamRulesText(rules), updated_at: nowIso(ctx) })
      .where('id', '=', row.id)
      .execute();
    const details = Object.fromEntries(SPAM_RULE_LISTS.map((list) => [list, rules[list].length]));
    await recordAudit(trx, ctx, {
      action: 'source.spam_rules_changed',
      workspaceId: row.workspace_id,
      targetIds: [row.id],
      details,
    });
    return { sourceId: row.id, name: row.name, rules };
  });
}
