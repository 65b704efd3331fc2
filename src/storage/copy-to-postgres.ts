import BetterSqlite3 from 'better-sqlite3';
import { sql } from 'kysely';
import pg from 'pg';
import { openDatabase } from './database.js';
import { redactedUrl } from './redact-url.js';
import { searchDocument } from './search-text.js';

/**
 * `leadscan copy-to POSTGRES_URL` (docs/deployment.md, "9. Outgrowing SQLite"): every application table of the SQLite
 * database into an empty PostgreSQL database, ids and bytes as they are, in one transaction on the target.
 *
 * Tables come from the source's schema, so a table added later is copied without editing this file. A table that is
 * not copied must be named below with the reason; one that is neither copied nor named stops the copy before it
 * writes anything (and test/cli/copy-to.test.ts fails).
 */

/**
 * Why a copy was refused, in the domain's error codes; storage does not import the domain, so the CLI turns it into
 * an AppError.
 */
export class CopyRefused extends Error {
  constructor(
    readonly code: 'invalid_arguments' | 'invalid_request' | 'not_empty',
    message: string,
  ) {
    super(message);
  }
}

/** SQLite tables that are not copied: bookkeeping and SQLite's own derived search and counter tables. */
export const SKIPPED_SOURCE_TABLES: Readonly<Record<string, string>> = {
  kysely_migration: 'the target runs the same migrations itself',
  kysely_migration_lock: 'the target runs the same migrations itself',
  leads_search_changes: "the SQLite search index's change log (the index file is not copied either)",
  leads_search_mark: "the SQLite search index's watermark",
  lead_unread_counts: "derived: the target's triggers on lead_unread count as the marks are copied",
  quote_report_months: "derived: the target's triggers on quote_outcomes count as those rows are copied",
  invoice_open_totals: "derived: the target's triggers on invoices sum the open ones as they are copied",
  server_instances: 'the SQLite server processes that ran; a server on the target records its own',
};

/** PostgreSQL tables that are not copied but filled from what is: the search documents and the unread counters. */
export const DERIVED_TARGET_TABLES: Readonly<Record<string, string>> = {
  kysely_migration: 'written by the migrations',
  kysely_migration_lock: 'written by the migrations',
  lead_search_pending: "each copied lead's search document, written with the lead (the search mover then moves it)",
  lead_search: 'filled from lead_search_pending by the search mover once the server runs',
  lead_unread_counts: 'kept by the triggers on lead_unread',
  quote_report_months: 'kept by the triggers on quote_outcomes',
  invoice_open_totals: 'kept by the triggers on invoices',
  server_instances: 'written by each server that runs on the target',
};

export interface CopyResult {
  target: string;
  /** Rows copied per table, in the order copied. */
  tables: Record<string, number>;
  /** Search documents written into lead_search_pending (one per lead). */
  searchDocuments: number;
  /** Sessions and one-time links are copied as they are (see docs/deployment.md). */
  sessions: 'copied';
  /** Where the source's generated app secret is, when APP_SECRET was not set: the target's server needs the same. */
  appSecretFile?: string;
}

/** A batch ends at this many rows or this many bytes of blobs, whichever comes first, so memory stays bounded. */
const BATCH_ROWS = 500;
const BATCH_BYTES = 8 * 1024 * 1024;
/** PostgreSQL takes at most 65,535 parameters a statement. */
const MAX_PARAMETERS = 60_000;

const quote = (name: string) => `"${name.replace(/"/g, '""')}"`;

/** Tables in an order where every table comes after the tables its foreign keys name. */
function foreignKeyOrder(sqlite: BetterSqlite3.Database, tables: string[]): string[] {
  const parents = new Map<string, string[]>();
  for (const table of tables) {
    const keys = sqlite.prepare(`pragma foreign_key_list(${quote(table)})`).all() as Array<{ table: string }>;
    parents.set(table, [...new Set(keys.map((k) => k.table).filter((t) => t !== table && tables.includes(t)))]);
  }
  const ordered: string[] = [];
  const visiting = new Set<string>();
  const visit = (table: string) => {
    if (ordered.includes(table)) return;
    if (visiting.has(table)) throw new Error(`copy-to: the foreign keys of ${table} form a cycle`);
    visiting.add(table);
    for (const parent of parents.get(table) ?? []) visit(parent);
    visiting.delete(table);
    ordered.push(table);
  };
  for (const table of [...tables].sort()) visit(table);
  return ordered;
}

async function targetTables(client: pg.ClientBase): Promise<string[]> {
  const { rows } = await client.query<{ name: string }>(
    'select table_name as name from information_schema.tables ' +
      "where table_schema = current_schema() and table_type = 'BASE TABLE' order by 1",
  );
  return rows.map((r) => r.name);
}

/** Tables (other than the migrations' bookkeeping) holding at least one row. */
async function nonEmptyTables(client: pg.ClientBase): Promise<string[]> {
  const found: string[] = [];
  for (const table of await targetTables(client)) {
    if (table.startsWith('kysely_migration')) continue;
    const { rows } = await client.query(`select 1 from ${quote(table)} limit 1`);
    if (rows.length > 0) found.push(table);
  }
  return found;
}

export async function copyToPostgres(input: {
  sqlitePath: string;
  targetUrl: string;
  appSecretFile?: string;
}): Promise<CopyResult> {
  const target = redactedUrl(input.targetUrl);
  if (!/^postgres(ql)?:\/\//i.test(input.targetUrl)) {
    throw new CopyRefused('invalid_arguments', `copy-to needs a postgres:// URL, not ${target}`);
  }
  // The source, on a connection of its own. BEGIN IMMEDIATE takes SQLite's write lock for the whole copy: it is
  // refused at once while a writer (a running server's writer thread mid-commit) holds it, and once taken nothing
  // can change the source until the copy ends, so the copy is one consistent state.
  const sqlite = new BetterSqlite3(input.sqlitePath, { fileMustExist: true });
  try {
    sqlite.pragma('busy_timeout = 0');
    try {
      sqlite.exec('begin immediate');
    } catch (error) {
      if ((error as { code?: string }).code === 'SQLITE_BUSY') {
        throw new CopyRefused(
          'invalid_request',
          `The SQLite database ${input.sqlitePath} is being written to (is \`leadscan serve\` running?): ` +
            'stop the server, then copy',
        );
      }
      throw error;
    }
    const applied = (sqlite.prepare('select count(*) as n from kysely_migration').get() as { n: number }).n;
    const sourceTables = (
      sqlite
        .prepare("select name from sqlite_master where type = 'table' and name not like 'sqlite\\_%' escape '\\'")
        .all() as Array<{ name: string }>
    ).map((r) => r.name);

    // The target: refused when any application table holds a row; then the same migrations.
    const pool = new pg.Pool({ connectionString: input.targetUrl, max: 1, connectionTimeoutMillis: 5000 });
    pool.on('error', () => {});
    try {
      const probe = await pool.connect().catch((error: unknown) => {
        throw new CopyRefused(
          'invalid_request',
          `Cannot open the database ${target}: ${error instanceof Error ? error.message : String(error)}`,
        );
      });
      try {
        const busy = await nonEmptyTables(probe);
        if (busy.length > 0) {
          throw new CopyRefused(
            'not_empty',
            `The target ${target} is not empty (rows in ${busy.join(', ')}): copy-to only fills an empty database`,
          );
        }
      } finally {
        probe.release();
      }
      const store = openDatabase({ kind: 'postgres', url: input.targetUrl }, { poolSize: 1 });
      try {
        await store.migrate();
        const { rows } = await sql<{ n: number }>`select count(*)::int as n from kysely_migration`.execute(store.db);
        if (rows[0]!.n !== applied) {
          throw new CopyRefused(
            'invalid_request',
            `The SQLite database has ${applied} migrations applied and this version has ${rows[0]!.n}: ` +
              'run `leadscan migrate` on it first',
          );
        }
      } finally {
        await store.close();
      }

      const client = await pool.connect();
      try {
        const onTarget = new Set(await targetTables(client));
        const copied = sourceTables.filter((t) => !(t in SKIPPED_SOURCE_TABLES));
        const unknown = [
          ...copied.filter((t) => !onTarget.has(t)).map((t) => `${t} (SQLite only)`),
          ...[...onTarget]
            .filter((t) => !sourceTables.includes(t) && !(t in DERIVED_TARGET_TABLES))
            .map((t) => `${t} (PostgreSQL only)`),
        ];
        if (unknown.length > 0) {
          throw new Error(
            `copy-to does not know how to copy ${unknown.join(', ')}: ` +
              'copy it or name it as skipped in src/storage/copy-to-postgres.ts',
          );
        }
        const order = foreignKeyOrder(sqlite, copied);
        const result: CopyResult = { target, tables: {}, searchDocuments: 0, sessions: 'copied' };
        if (input.appSecretFile) result.appSecretFile = input.appSecretFile;
        await client.query('begin');
        try {
          // Another copy-to started at the same moment: the second waits here and finds rows.
          await client.query(`lock table ${order.map(quote).join(', ')} in exclusive mode`);
          if ((await nonEmptyTables(client)).length > 0)
            throw new CopyRefused('not_empty', `The target ${target} is not empty`);
          for (const table of order) {
            // Rows the target's triggers made from tables copied before (the "new" marks of leads and scans):
            // the source's own rows replace them.
            await client.query(`delete from ${quote(table)}`);
            result.tables[table] = await copyTable(sqlite, client, table, (n) => (result.searchDocuments += n));
          }
          await advanceSequences(client);
          await client.query('commit');
        } catch (error) {
          await client.query('rollback').catch(() => {});
          throw error;
        }
        return result;
      } finally {
        client.release();
      }
    } finally {
      await pool.end();
    }
  } finally {
    if (sqlite.inTransaction) sqlite.exec('rollback');
    sqlite.close();
  }
}

/** Streams one table from SQLite into the target in bounded batches; returns the rows copied. */
async function copyTable(
  sqlite: BetterSqlite3.Database,
  client: pg.ClientBase,
  table: string,
  searched: (n: number) => void,
): Promise<number> {
  const columns = (sqlite.prepare(`pragma table_info(${quote(table)})`).all() as Array<{ name: string }>).map(
    (c) => c.name,
  );
  const rowsPerStatement = Math.max(1, Math.min(BATCH_ROWS, Math.floor(MAX_PARAMETERS / columns.length)));
  let batch: unknown[][] = [];
  let leads: Array<{ id: unknown; search_text: string }> = [];
  let bytes = 0;
  let count = 0;
  const flush = async () => {
    if (batch.length === 0) return;
    const values = batch
      .map((_, i) => `(${columns.map((__, j) => `$${i * columns.length + j + 1}`).join(', ')})`)
      .join(', ');
    await client.query(`insert into ${quote(table)} (${columns.map(quote).join(', ')}) values ${values}`, batch.flat());
    if (leads.length > 0) {
      // What the lead INSERT writes on PostgreSQL (hot-writes/lead.ts): the search document beside the lead.
      await client.query(
        'insert into lead_search_pending (lead_id, search_text) select * from unnest($1::text[], $2::text[])',
        [leads.map((l) => l.id), leads.map((l) => l.search_text)],
      );
      searched(leads.length);
    }
    count += batch.length;
    batch = [];
    leads = [];
    bytes = 0;
  };
  // better-sqlite3 reads row by row; a blob comes back as a Buffer and goes to bytea as it is.
  const reader = sqlite
    .prepare(`select ${columns.map(quote).join(', ')} from ${quote(table)} order by rowid`)
    .raw(true);
  const rows = reader.iterate() as IterableIterator<unknown[]>;
  for (const row of rows) {
    const values = row.map((v) => (typeof v === 'bigint' ? v.toString() : v));
    batch.push(values);
    for (const v of values) if (Buffer.isBuffer(v)) bytes += v.length;
    if (table === 'leads') {
      const lead = Object.fromEntries(columns.map((c, i) => [c, values[i]])) as Record<string, string | null>;
      leads.push({
        id: lead.id,
        search_text: searchDocument({
          name: lead.name ?? null,
          email: lead.email ?? null,
          phone: lead.phone ?? null,
          notes: lead.notes ?? null,
          extra: lead.extra ?? null,
        }),
      });
    }
    if (batch.length >= rowsPerStatement || bytes >= BATCH_BYTES) await flush();
  }
  await flush();
  return count;
}

/** Sequences owned by a column (none in today's schema) start past the copied ids. */
async function advanceSequences(client: pg.ClientBase) {
  const { rows } = await client.query<{ tbl: string; col: string; seq: string }>(
    `select t.relname as tbl, a.attname as col, s.relname as seq
       from pg_depend d
       join pg_class s on s.oid = d.objid and s.relkind = 'S'
       join pg_class t on t.oid = d.refobjid
       join pg_attribute a on a.attrelid = t.oid and a.attnum = d.refobjsubid
       join pg_namespace n on n.oid = t.relnamespace and n.nspname = current_schema()`,
  );
  for (const r of rows) {
    await client.query(
      `select setval(${"'" + quote(r.seq).replace(/'/g, "''") + "'"}::regclass, ` +
        `coalesce((select max(${quote(r.col)}) from ${quote(r.tbl)}), 0) + 1, false)`,
    );
  }
}
