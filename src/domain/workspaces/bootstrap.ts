import crypto from 'node:crypto';
import { newId } from '../ids.js';
import { nowIso, type DomainContext } from '../context.js';
import { hashUploadKey, mintUploadKey } from '../keys/secret-box.js';
import { toLeadSource, toSourceView, type LeadSourceView } from '../sources/source.js';

export type BootstrapResult =
  | { created: true; workspaceId: string; uploadKey: string; source: LeadSourceView }
  | { created: false; source: LeadSourceView | null };

/**
 * First start (CONTRACT §8): on an empty database make workspace "Default", pipeline "Sales" and source
 * "Website form". The `app_meta` primary key makes this happen once even when several instances start together
 * on one PostgreSQL: the loser's insert fails and it reports "already set up".
 */
export async function bootstrap({ ctx }: { ctx: DomainContext }): Promise<BootstrapResult> {
  const { db } = ctx.store;
  const marker = await db.selectFrom('app_meta').select('value').where('key', '=', 'bootstrapped_at').executeTakeFirst();
  const anyWorkspace = marker ? true : Boolean(await db.selectFrom('workspaces').select('id').limit(1).executeTakeFirst());
  if (!anyWorkspace) {
    const now = nowIso(ctx);
    const workspaceId = newId('ws');
    const pipelineId = newId('pl');
    const sourceId = newId('src');
    const token = crypto.randomUUID();
    const uploadKey = mintUploadKey();
    try {
      await ctx.store.writer.write(async (trx) => {
        await trx.insertInto('app_meta').values({ key: 'bootstrapped_at', value: now }).execute();
        await trx.insertInto('workspaces').values({ id: workspaceId, name: 'Default', created_at: now }).execute();
        await trx
          .insertInto('upload_keys')
          .values({
            workspace_id: workspaceId,
            key_hash: hashUploadKey(uploadKey),
            key_enc: ctx.secrets.seal(uploadKey),
            created_at: now,
            last_connected_at: null,
            last_used_at: null,
          })
          .execute();
        await trx
          .insertInto('pipelines')
          .values({ id: pipelineId, workspace_id: workspaceId, name: 'Sales', created_at: now })
          .execute();
        await trx
          .insertInto('lead_sources')
          .values({
            id: sourceId,
            workspace_id: workspaceId,
            pipeline_id: pipelineId,
            name: 'Website form',
            token,
            active: 1,
            bot_check_provider: null,
            bot_check_secret_enc: null,
            bot_check_site_key: null,
            bot_check_min_score: null,
            created_at: now,
            updated_at: now,
          })
          .execute();
      });
      const source = toSourceView(ctx.config.publicBaseUrl, {
        id: sourceId,
        workspaceId,
        pipelineId,
        name: 'Website form',
        token,
        active: true,
        botCheck: null,
      });
      return { created: true, workspaceId, uploadKey, source };
    } catch (error) {
      // Another instance won the race; fall through and report what it made.
      const won = await db.selectFrom('app_meta').select('key').where('key', '=', 'bootstrapped_at').executeTakeFirst();
      if (!won) throw error;
    }
  }
  const first = await db
    .selectFrom('lead_sources')
    .selectAll()
    .where('active', '=', 1)
    .orderBy('created_at')
    .orderBy('id')
    .limit(1)
    .executeTakeFirst();
  return { created: false, source: first ? toSourceView(ctx.config.publicBaseUrl, toLeadSource(first)) : null };
}
