import { sql, type Kysely, type Migration } from 'kysely';

interface Named {
  id: string;
  scope: string;
  name: string;
  created_at: string;
}

/** What 0002 renamed, so the operator is told (on stderr, which keeps `--json` stdout one document). */
export interface Renamed {
  table: 'workspaces' | 'pipelines' | 'lead_sources';
  id: string;
  from: string;
  to: string;
}

/**
 * The later rows of each case-insensitive duplicate name in a scope get " (2)", " (3)", … (the oldest keeps its
 * name), skipping suffixes that are already taken, so the unique indexes below can be built.
 */
export function dedupeNames(rows: Named[]): Array<{ id: string; from: string; to: string }> {
  const taken = new Set(rows.map((r) => `${r.scope}\u0000${r.name.toLowerCase()}`));
  const seen = new Set<string>();
  const renames: Array<{ id: string; from: string; to: string }> = [];
  const ordered = [...rows].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
  for (const row of ordered) {
    const key = `${row.scope}\u0000${row.name.toLowerCase()}`;
    if (!seen.has(key)) {
      seen.add(key);
      continue;
    }
    let n = 2;
    let candidate = `${row.name} (${n})`;
    while (taken.has(`${row.scope}\u0000${candidate.toLowerCase()}`)) candidate = `${row.name} (${(n += 1)})`;
    taken.add(`${row.scope}\u0000${candidate.toLowerCase()}`);
    seen.add(`${row.scope}\u0000${candidate.toLowerCase()}`);
    renames.push({ id: row.id, from: row.name, to: candidate });
  }
  return renames;
}

/**
 * docs/cli.md, docs/operations.md: names unique per scope, case-insensitively (workspaces service-wide, pipelines and
 * lead sources per workspace); the per-source intake log; quarantine rows remember their Idempotency-Key so erasing a
 * person also erases the key's record.
 */
export function uniqueNamesAndIntakeLog(report: (renamed: Renamed) => void = reportRename): Migration {
  return {
    async up(db: Kysely<unknown>) {
      const scopes = [
        { table: 'workspaces', scope: sql<string>`''` },
        { table: 'pipelines', scope: sql<string>`workspace_id` },
        { table: 'lead_sources', scope: sql<string>`workspace_id` },
      ] as const;
      for (const { table, scope } of scopes) {
        const { rows } =
          await sql<Named>`select id, ${scope} as scope, name, created_at from ${sql.table(table)}`.execute(db);
        for (const rename of dedupeNames(rows)) {
          await sql`update ${sql.table(table)} set name = ${rename.to} where id = ${rename.id}`.execute(db);
          report({ table, ...rename });
        }
      }
      // lower() is ASCII-only on SQLite and Unicode-aware on PostgreSQL; lookups use the same lower() as the index.
      await sql`create unique index workspaces_name_unique on workspaces (lower(name))`.execute(db);
      await sql`create unique index pipelines_name_unique on pipelines (workspace_id, lower(name))`.execute(db);
      await sql`create unique index lead_sources_name_unique on lead_sources (workspace_id, lower(name))`.execute(db);

      // Counts only, no personal data: one row per source, UTC day, outcome and code.
      await db.schema
        .createTable('intake_log')
        .addColumn('day', 'text', (c) => c.notNull())
        .addColumn('source_id', 'text', (c) => c.notNull())
        .addColumn('outcome', 'text', (c) => c.notNull())
        .addColumn('code', 'text', (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull())
        .addPrimaryKeyConstraint('intake_log_pk', ['source_id', 'day', 'outcome', 'code'])
        .execute();

      await db.schema.alterTable('quarantine').addColumn('idempotency_key', 'text').execute();
      await db.schema
        .createIndex('leads_email')
        .on('leads')
        .expression(sql`lower(email)`)
        .execute();
      await db.schema.createIndex('leads_phone').on('leads').column('phone').execute();
    },
  };
}

/** Said on stderr, so stdout (and --json) stay one document. */
function reportRename({ table, id, from, to }: Renamed): void {
  const kind = table === 'lead_sources' ? 'lead source' : table.slice(0, -1);
  process.stderr.write(`leadscan: names are now unique: renamed ${kind} ${id} from "${from}" to "${to}"\n`);
}
