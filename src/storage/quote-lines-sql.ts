import { sql, type Insertable, type Transaction } from 'kysely';
import type { QuoteLineTable, Schema } from './schema.js';

/**
 * A quote's lines written as sets (docs/performance.md, "Quotes at scale"): a 300-line quote made, copied or
 * re-priced is a few statements, not one per line. The SQL is the same on both databases.
 */

/** Rows per INSERT: 12 columns each stays far below SQLite's and PostgreSQL's bound-parameter limits. */
const INSERT_CHUNK = 500;

/** Inserts lines as multi-row INSERTs, in the order given. */
export async function insertQuoteLines(
  trx: Transaction<Schema>,
  rows: ReadonlyArray<Insertable<QuoteLineTable>>,
): Promise<void> {
  for (let i = 0; i < rows.length; i += INSERT_CHUNK) {
    await trx
      .insertInto('quote_lines')
      .values(rows.slice(i, i + INSERT_CHUNK))
      .execute();
  }
}

/**
 * Sets one integer column (amount, position, the customer's tick) of some of a quote's lines in one UPDATE per chunk
 * (`case id when … then … end`). The values are safe integers, written as literals so both databases type them as
 * integers.
 */
export async function setQuoteLineIntegers(
  trx: Transaction<Schema>,
  quoteId: string,
  column: 'amount' | 'position' | 'chosen',
  changes: ReadonlyArray<{ id: string; value: number }>,
): Promise<void> {
  for (let i = 0; i < changes.length; i += INSERT_CHUNK) {
    const chunk = changes.slice(i, i + INSERT_CHUNK);
    for (const { value } of chunk) {
      if (!Number.isSafeInteger(value)) throw new RangeError(`${column} ${value} is not a safe integer`);
    }
    const cases = sql.join(
      chunk.map((c) => sql`when ${c.id} then ${sql.lit(c.value)}`),
      sql` `,
    );
    await trx
      .updateTable('quote_lines')
      .set({ [column]: sql<number>`case id ${cases} else ${sql.ref(column)} end` })
      .where('quote_id', '=', quoteId)
      .where(
        'id',
        'in',
        chunk.map((c) => c.id),
      )
      .execute();
  }
}
