/**
 * The hot writes: the few row writes every intake post and scan upload makes, described as plain data so they can
 * be posted to the SQLite writer thread or folded into multi-row PostgreSQL statements, instead of closures over a
 * transaction. Everything else writes through the generic `writer.write(trx => …)`.
 *
 * Each kind's rows and statements are a module of its own under hot-writes/ (lead, quarantine, scan,
 * idempotency-key), composed from the parts in hot-writes/sql-parts.ts: every statement is written once, and the
 * SQLite writer thread (one row a statement, prepared once) and the PostgreSQL writer (a batch a statement) build
 * their forms from it. Shared by the main thread and the SQLite writer thread: no Kysely, no pg, no domain imports.
 */
import type { KeyClaim, KeyDone, KeyRow } from './hot-writes/idempotency-key.js';
import type { LeadRow } from './hot-writes/lead.js';
import type { QuarantineRow } from './hot-writes/quarantine.js';
import type { RoomRow, ScanRow } from './hot-writes/scan.js';

export type HotWrite =
  | { kind: 'lead'; lead: LeadRow; done: KeyDone | null }
  | { kind: 'quarantine'; row: QuarantineRow; cutoff: string; keep: number; done: KeyDone | null }
  | { kind: 'scan'; scan: ScanRow; rooms: RoomRow[]; done: KeyDone | null }
  | { kind: 'claim'; claim: KeyClaim };

/** lead/quarantine: `stored` is false when the source was closed (or moved) meanwhile. claim: the row in the way. */
export type HotResult =
  { kind: 'stored'; stored: boolean } | { kind: 'claimed' } | { kind: 'existing'; row: KeyRow | null };

export type ResultOf<W extends HotWrite> = W extends { kind: 'claim' }
  ? Extract<HotResult, { kind: 'claimed' | 'existing' }>
  : Extract<HotResult, { kind: 'stored' }>;

/** The data-only write path, one per database handle. */
export interface HotWriter {
  /** Resolves after the COMMIT that holds the write; rejects alone if the write failed, or all in flight on a crash. */
  write<W extends HotWrite>(write: W): Promise<ResultOf<W>>;
  readonly stats: { commits: number; writes: number; largestBatch: number };
  /** Gets ready before the first write (the server calls it once it listens); a no-op where nothing needs starting. */
  start(): void;
  close(): Promise<void>;
}
