import { sql } from 'kysely';
import type { Database } from '../../src/storage/database.js';

/** Every row of every table (whoever added the table), as text, so nothing can hide a person's data. */
export async function everyRow(store: Database): Promise<Array<{ table: string; text: string }>> {
  const tables =
    store.dialect === 'sqlite'
      ? await sql<{
          name: string;
        }>`select name from sqlite_master where type = 'table' and name not like 'sqlite_%'`.execute(store.db)
      : await sql<{ name: string }>`select tablename as name from pg_tables where schemaname = 'public'`.execute(
          store.db,
        );
  const rows: Array<{ table: string; text: string }> = [];
  for (const { name } of tables.rows) {
    const result = await sql<Record<string, unknown>>`select * from ${sql.table(name)}`.execute(store.db);
    for (const row of result.rows) {
      const text = Object.values(row)
        .map((v) => (Buffer.isBuffer(v) || v instanceof Uint8Array ? Buffer.from(v).toString('latin1') : String(v)))
        .join('\u0001');
      rows.push({ table: name, text });
    }
  }
  return rows;
}
