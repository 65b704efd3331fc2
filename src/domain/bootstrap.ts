import crypto from 'node:crypto';
import { newId } from './ids.js';
import { nowIso, type DomainContext } from './context.js';
import { mintUploadKey } from './secret-box.js';
import { insertPipeline } from './pipelines/create-pipeline.js';
import { insertSource } from './sources/create-source.js';
import { insertWorkspace } from './workspaces/create-workspace.js';
import { toLeadSource, toSourceView, type LeadSourceView } from './sources/source.js';
import { insertFirstOwner } from './users/first-owner.js';
import type { SetupLink } from './auth/setup-links.js';

/** Active lead sources a later start's banner lists; more are only counted. */
export const BANNER_SOURCES = 10;

export type BootstrapResult =
  | { created: true; workspaceId: string; uploadKey: string; source: LeadSourceView; adminSetup?: SetupLink }
  | { created: false; sources: Array<LeadSourceView & { name: string }> };

/**
 * First start (README.md): on an empty database make workspace "Default", pipeline "Sales" and source
 * "Website form". The `app_meta` primary key makes this happen once even when several instances start together
 * on one PostgreSQL: the loser's insert fails and it reports "already set up".
 */
export async function bootstrap({ ctx }: { ctx: DomainContext }): Promise<BootstrapResult> {
  const { db } = ctx.store;
  const marker = await db
    .selectFrom('app_meta')
    .select('value')
    .where('key', '=', 'bootstrapped_at')
    .executeTakeFirst();
  const anyWorkspace = marker
    ? true
    : Boolean(await db.selectFrom('workspaces').select('id').limit(1).executeTakeFirst());
  if (!anyWorkspace) {
    const now = nowIso(ctx);
    const workspaceId = newId('ws');
    const pipelineId = newId('pl');
    const sourceId = newId('src');
    const token = crypto.randomUUID();
    const uploadKey = mintUploadKey();
    try {
      const adminSetup = await ctx.store.writer.write(async (trx) => {
        await trx.insertInto('app_meta').values({ key: 'bootstrapped_at', value: now }).execute();
        await insertWorkspace(trx, ctx, { id: workspaceId, name: 'Default', uploadKey, now });
        await insertPipeline(trx, { id: pipelineId, workspaceId, name: 'Sales', now });
        await insertSource(trx, { id: sourceId, workspaceId, pipelineId, name: 'Website form', token, now });
        return insertFirstOwner(trx, ctx, { workspaceId, now });
      });
      const source = toSourceView(ctx.config.publicBaseUrl, {
        id: sourceId,
        workspaceId,
        pipelineId,
        name: 'Website form',
        token,
        active: true,
        botCheck: null,
        spamRules: null,
        confirmSender: false,
      });
      return { created: true, workspaceId, uploadKey, source, adminSetup };
    } catch (error) {
      // Another instance won the race; fall through and report what it made.
      const won = await db.selectFrom('app_meta').select('key').where('key', '=', 'bootstrapped_at').executeTakeFirst();
      if (!won) throw error;
    }
  }
  // Later starts list the active lead sources (the first few), so each form's links are at hand.
  const active = await db
    .selectFrom('lead_sources')
    .selectAll()
    .where('active', '=', 1)
    .orderBy('created_at')
    .orderBy('id')
    .limit(BANNER_SOURCES + 1)
    .execute();
  return {
    created: false,
    sources: active.map((row) => ({ ...toSourceView(ctx.config.publicBaseUrl, toLeadSource(row)), name: row.name })),
  };
}
