import type { WorkspaceVerbArgs } from '../context.js';

/** What an audit record's target id names now: its current name, or null when it no longer exists. */
export type TargetNames = Map<string, string | null>;

/** The id prefixes (domain/ids.ts) whose current name is looked up; other ids are shown by kind and id. */
const NAMED = ['lead', 'src', 'pl', 'usr', 'ws'] as const;

/**
 * The current names of a page of audit records' targets, in this workspace (docs/operations.md, "The audit log"):
 * read when the page renders, one query per kind of id on the page, never stored in the log. A lead is named by its
 * name (or email, or phone); a source and a pipeline by their names; a person by their display name while they are
 * a member; the workspace itself by its name. An id of those kinds that is not found (deleted, erased, or not in this
 * workspace) maps to null.
 */
export async function auditTargetNames({ ctx, input }: WorkspaceVerbArgs<{ ids: string[] }>): Promise<TargetNames> {
  const { db } = ctx.store;
  const { workspaceId } = ctx;
  const byKind = new Map<string, string[]>();
  for (const id of new Set(input.ids)) {
    const kind = id.split('_')[0] ?? '';
    if ((NAMED as readonly string[]).includes(kind)) byKind.set(kind, [...(byKind.get(kind) ?? []), id]);
  }
  const names: TargetNames = new Map();
  for (const ids of byKind.values()) for (const id of ids) names.set(id, null);
  const found = (rows: Array<{ id: string; name: string | null }>) => {
    for (const row of rows) names.set(row.id, row.name);
  };
  const leads = byKind.get('lead');
  if (leads) {
    const rows = await db
      .selectFrom('leads')
      .select(['id', 'name', 'email', 'phone'])
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', leads)
      .execute();
    found(rows.map((r) => ({ id: r.id, name: r.name ?? r.email ?? r.phone ?? 'Lead without name' })));
  }
  const sources = byKind.get('src');
  if (sources)
    found(
      await db
        .selectFrom('lead_sources')
        .select(['id', 'name'])
        .where('workspace_id', '=', workspaceId)
        .where('id', 'in', sources)
        .execute(),
    );
  const pipelines = byKind.get('pl');
  if (pipelines)
    found(
      await db
        .selectFrom('pipelines')
        .select(['id', 'name'])
        .where('workspace_id', '=', workspaceId)
        .where('id', 'in', pipelines)
        .execute(),
    );
  const users = byKind.get('usr');
  if (users) {
    found(
      await db
        .selectFrom('users')
        .innerJoin('memberships', 'memberships.user_id', 'users.id')
        .select(['users.id as id', 'users.display_name as name'])
        .where('memberships.workspace_id', '=', workspaceId)
        .where('users.id', 'in', users)
        .execute(),
    );
  }
  const workspaces = byKind.get('ws');
  if (workspaces?.includes(workspaceId))
    found(await db.selectFrom('workspaces').select(['id', 'name']).where('id', '=', workspaceId).execute());
  return names;
}
