/**
 * The parts the hot statements are composed of, for either database: parameter markers, the rows a statement reads
 * (one row of parameters, or any number of rows through one array parameter per field) and VALUES lists. Each hot
 * statement is written once, in terms of these parts; nothing edits SQL text after it is built.
 *
 * Shared with the SQLite writer thread: no Kysely, no pg.
 */
import type { Dialect } from '../dialect.js';

/** The PostgreSQL element type of a field's array parameter (`$n::text[]`). */
export type PgType = 'text' | 'int';

/** A field of the rows a statement reads: its name there (`v.name`) and its PostgreSQL type. */
export type Field<Name extends string = string> = readonly [name: Name, pgType: PgType];

/**
 * Parameter markers for one statement: `?` on SQLite; `$1, $2, …` on PostgreSQL, numbered on across every part
 * composed into the statement (so the parts' parameters follow each other in that order). SQLite binds `?` in the
 * order they stand in the text, so a statement makes its markers in that order too.
 */
export class Markers {
  private count = 0;

  constructor(readonly dialect: Dialect) {}

  /** The next parameter; `pgCast` types it on PostgreSQL (`$3::text[]`). */
  next(pgCast?: string): string {
    this.count += 1;
    if (this.dialect === 'sqlite') return '?';
    return pgCast ? `$${this.count}::${pgCast}` : `$${this.count}`;
  }

  /** `n` parameters, comma-separated. */
  list(n: number): string {
    return Array.from({ length: n }, () => this.next()).join(', ');
  }
}

/** Each builder run with markers of its own: the standalone statements of one database. */
export function statementsFor<T extends Record<string, (m: Markers) => string>>(
  dialect: Dialect,
  builders: T,
): { [K in keyof T]: string } {
  return Object.fromEntries(Object.entries(builders).map(([key, build]) => [key, build(new Markers(dialect))])) as {
    [K in keyof T]: string;
  };
}

/**
 * The rows a statement reads, as `alias` with `fields`: on SQLite one row of parameters, `(select ? as a, ? as b)
 * alias` (the statement is prepared once and run per row); on PostgreSQL any number of rows, one array parameter per
 * field, `unnest($1::text[], $2::int[]) as alias(a, b)` (one statement for a whole batch). `ordinality` names a
 * last field numbering the rows from 1 (PostgreSQL only).
 */
export function rowsOf(m: Markers, alias: string, fields: readonly Field[], ordinality?: string): string {
  if (m.dialect === 'sqlite') {
    if (ordinality) throw new Error('rowsOf: ordinality is for unnest (PostgreSQL)');
    return `(select ${fields.map(([name]) => `${m.next()} as ${name}`).join(', ')}) ${alias}`;
  }
  const arrays = fields.map(([, type]) => m.next(`${type}[]`)).join(', ');
  const names = fields.map(([name]) => name);
  if (ordinality) return `unnest(${arrays}) with ordinality as ${alias}(${[...names, ordinality].join(', ')})`;
  return `unnest(${arrays}) as ${alias}(${names.join(', ')})`;
}

/** A column an INSERT sets: from the posted field of that name, or to a constant (`{ constant: "x''" }`). */
export type InsertColumn = Field | readonly [name: string, value: { constant: string }];

/**
 * An INSERT of posted rows into `table`, from one column list: on SQLite one row, `insert into t (a, b) values (?, ?)`
 * (prepared once, run per row); on PostgreSQL any number, `insert into t (a, b) select r.a, r.b from
 * unnest($1::text[], $2::int[]) as r(a, b)`. Parameters: the posted fields in column order, constants left out.
 */
export function insertRows(m: Markers, table: string, columns: readonly InsertColumn[]): string {
  const names = columns.map(([name]) => name).join(', ');
  const values = (field: (name: string) => string) =>
    columns.map(([name, value]) => (typeof value === 'string' ? field(name) : value.constant)).join(', ');
  if (m.dialect === 'sqlite') return `insert into ${table} (${names}) values (${values(() => m.next())})`;
  const posted = columns.filter((c): c is Field => typeof c[1] === 'string');
  return `insert into ${table} (${names}) select ${values((name) => `r.${name}`)} from ${rowsOf(m, 'r', posted)}`;
}

/**
 * `count` rows of `width` parameters for a VALUES list: `(?, ?)`, or `($1, $2), ($3, $4)`. Where a field is bytes
 * on PostgreSQL, VALUES rather than unnest: each value goes as a binary parameter, not as hex text in an array.
 */
export function valuesRows(m: Markers, width: number, count: number): string {
  return Array.from({ length: count }, () => `(${m.list(width)})`).join(', ');
}

/** An empty byte string in this database's SQL. */
export function emptyBytes(dialect: Dialect): string {
  return dialect === 'sqlite' ? "x''" : "''::bytea";
}

/** One array per field, in the order of `fields`: PostgreSQL parameters for `unnest(…)`. */
export function columns<T, K extends keyof T>(rows: readonly T[], fields: readonly K[]): Array<Array<T[K]>> {
  return fields.map((f) => rows.map((r) => r[f]));
}
