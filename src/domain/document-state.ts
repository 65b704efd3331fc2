import type { DeleteResult, InsertResult, UpdateResult } from 'kysely';
import type { AppError } from './errors.js';

/**
 * A document's states and the moves between them, for every kind of document the product sends (quotes now, invoices
 * next): each kind writes its table of moves once (`quotes/quote-states.ts`), and its verbs make a move only through
 * it (docs/security.md, "Document states"):
 *
 * 1. lock the document first (its row, or its chain's first row, with `ctx.store.ops.lockedRead`: FOR UPDATE on
 *    PostgreSQL; SQLite has one writer), so two verbs on one document run one after the other on every instance;
 * 2. check the move against the state read under that lock (`requireMove`), refusing with the kind's own words;
 * 3. write it conditionally, `UPDATE … WHERE id = ? AND status IN (move.from)` (`moveFrom`), and let the rows it
 *    changed decide the answer (`changedExactly`): no row changed means another writer moved the document first, and
 *    the verb refuses, its transaction and everything it wrote rolled back.
 *
 * The lock makes the refusal say why (the state another verb left); the condition and the row count make a write
 * that lost a race change nothing even where a lock was forgotten.
 */

/** Who makes a move: a person of the workspace, the customer through their link, or the product as part of another. */
export type Mover = 'staff' | 'customer' | 'system';

export interface StateMove<S extends string> {
  /** The states the move starts from: the condition of its UPDATE. */
  readonly from: readonly S[];
  /** The state it ends in (for a move that makes a new row, such as a revision, the new row's state). */
  readonly to: S;
  readonly by: Mover;
  /** The move makes a new row (a revision) from one in `from`, which keeps its own state. */
  readonly makesRow?: boolean;
}

/** A kind's moves by verb. */
export type StateMoves<S extends string, V extends string> = { readonly [K in V]: StateMove<S> };

/** A kind of document's states and moves, with the checks every verb of it runs. */
export interface DocumentStates<S extends string, V extends string> {
  readonly states: readonly S[];
  readonly moves: StateMoves<S, V>;
  /** Whether a document in `status` may make the move `verb`. */
  allows(verb: V, status: string): boolean;
  /** The states `verb` starts from, for its conditional write (`where('status', 'in', moveFrom(verb))`). */
  moveFrom(verb: V): S[];
  /** Refuses (with `refuse(status)`, the kind's words for why) unless `status` allows `verb`. */
  requireMove(verb: V, status: string, refuse: (status: string) => AppError): void;
}

/** Writes a kind's table once; its verbs then check and condition every move on it. */
export function documentStates<S extends string, V extends string>(
  states: readonly S[],
  moves: StateMoves<S, V>,
): DocumentStates<S, V> {
  const allows = (verb: V, status: string) => (moves[verb].from as readonly string[]).includes(status);
  return {
    states,
    moves,
    allows,
    moveFrom: (verb) => [...moves[verb].from],
    requireMove(verb, status, refuse) {
      if (!allows(verb, status)) throw refuse(status);
    },
  };
}

/** How many rows a write changed (an UPDATE, DELETE or INSERT … ON CONFLICT DO NOTHING). */
export function rowsChanged(result: UpdateResult | DeleteResult | InsertResult | undefined): number {
  if (result === undefined) return 0;
  if ('numUpdatedRows' in result) return Number(result.numUpdatedRows);
  if ('numDeletedRows' in result) return Number(result.numDeletedRows);
  return Number(result.numInsertedOrUpdatedRows ?? 0);
}

/**
 * The rows a conditional write changed decide its answer: exactly `expected` (one, for a move of one document), else
 * `refuse()` is thrown and the verb's transaction rolls back with everything it wrote before.
 */
export function changedExactly(
  result: UpdateResult | DeleteResult | InsertResult | undefined,
  expected: number,
  refuse: () => AppError,
): void {
  if (rowsChanged(result) !== expected) throw refuse();
}
