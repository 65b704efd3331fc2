/**
 * The idempotency-key statements of the hot writes: a claim, and the answer marked done with the rows it answers for.
 */
import { columns, rowsOf, type Field, type Markers } from './sql-parts.js';

/** Marks an idempotency key done with its result, in the same transaction as the rows it answers for. */
export interface KeyDone {
  scope: string;
  key: string;
  requestHash: string;
  /** response_status: null since keys keep domain results (records from before held an HTTP status). */
  status: number | null;
  /** response_body: the result as JSON text. */
  body: string;
}

export interface KeyClaim {
  scope: string;
  key: string;
  requestHash: string;
  createdAt: string;
  expiresAt: string;
  /** An in_flight row created at or before this is abandoned and taken over. */
  leaseCutoff: string;
}

export interface KeyRow {
  request_hash: string;
  state: string;
  response_status: number | null;
  response_body: string | null;
}

/** What marking a key done sets, from the three values given as SQL. */
function doneSet(requestHash: string, status: string, body: string): string {
  return `request_hash = ${requestHash}, state = 'done', response_status = ${status}, response_body = ${body}`;
}

/** One key marked done (each write on SQLite; each quarantine entry on PostgreSQL). Parameters: keyDoneParams. */
export function keyDone(m: Markers): string {
  return (
    `update idempotency_keys set ${doneSet(m.next(), m.next(), m.next())} ` +
    `where scope = ${m.next()} and key = ${m.next()}`
  );
}

export function keyDoneParams(done: KeyDone): unknown[] {
  return [done.requestHash, done.status, done.body, done.scope, done.key];
}

/** A batch's keys to mark done, each with the id of the row it answers for (PostgreSQL, keysDoneParams). */
export type KeyDoneFor = KeyDone & { rowId: string };

const DONE_FIELDS = [
  ['scope', 'text'],
  ['key', 'text'],
  ['request_hash', 'text'],
  ['response_status', 'int'],
  ['response_body', 'text'],
  ['row_id', 'text'],
] as const satisfies readonly Field[];

/**
 * Marks done the keys of the rows `stored` (a CTE of the statement this is composed into, with an `id` column)
 * holds: a batch whose row was refused keeps its key in flight. Any number of keys (PostgreSQL).
 */
export function keysDoneIn(m: Markers, stored: string): string {
  return (
    `update idempotency_keys k set ${doneSet('d.request_hash', 'd.response_status', 'd.response_body')} ` +
    `from ${rowsOf(m, 'd', DONE_FIELDS)} where k.scope = d.scope and k.key = d.key ` +
    `and d.row_id in (select id from ${stored})`
  );
}

/**
 * Parameters of keysDoneIn, in DONE_FIELDS order. Two batches never lock the same key rows (each key is claimed by one
 * request), and each statement takes them in key order anyway.
 */
export function keysDoneParams(done: KeyDoneFor[]): unknown[] {
  done.sort((a, b) => (a.scope === b.scope ? (a.key < b.key ? -1 : 1) : a.scope < b.scope ? -1 : 1));
  return columns(done, ['scope', 'key', 'requestHash', 'status', 'body', 'rowId']);
}

/**
 * The claim upsert over `rows` (a VALUES or SELECT clause of the inserted columns, below): a new key is taken; an
 * existing one only once it has expired, or while it is in flight and was created at or before `leaseCutoff` (an
 * abandoned request). Returns `returning` for each key it took.
 */
function claimUpsert(rows: string, leaseCutoff: string, returning: string): string {
  return (
    'insert into idempotency_keys ' +
    `(scope, key, request_hash, state, response_status, response_body, created_at, expires_at) ${rows} ` +
    'on conflict (scope, key) do update set request_hash = excluded.request_hash, state = excluded.state, ' +
    'response_status = null, ' +
    'response_body = null, created_at = excluded.created_at, expires_at = excluded.expires_at ' +
    'where idempotency_keys.expires_at <= excluded.created_at ' +
    `or (idempotency_keys.state = 'in_flight' and idempotency_keys.created_at <= ${leaseCutoff}) ` +
    `returning ${returning}`
  );
}

/** The inserted columns of a claim, from the five values given as SQL. */
function claimedRow(scope: string, key: string, requestHash: string, createdAt: string, expiresAt: string): string {
  return `${scope}, ${key}, ${requestHash}, 'in_flight', null, null, ${createdAt}, ${expiresAt}`;
}

/** One claim (SQLite), returning a row if it took the key. Parameters: keyClaimParams. */
export function keyClaim(m: Markers): string {
  return claimUpsert(`values (${claimedRow(m.next(), m.next(), m.next(), m.next(), m.next())})`, m.next(), 'scope');
}

export function keyClaimParams(c: KeyClaim): unknown[] {
  return [c.scope, c.key, c.requestHash, c.createdAt, c.expiresAt, c.leaseCutoff];
}

/** The row in the way of a claim that did not take its key (SQLite). */
export function keyRead(m: Markers): string {
  return (
    'select request_hash, state, response_status, response_body from idempotency_keys ' +
    `where scope = ${m.next()} and key = ${m.next()}`
  );
}

const CLAIM_FIELDS = [
  ['scope', 'text'],
  ['key', 'text'],
  ['request_hash', 'text'],
  ['created_at', 'text'],
  ['expires_at', 'text'],
  ['lease_cutoff', 'text'],
] as const satisfies readonly Field[];

/**
 * A batch of claims, one statement (PostgreSQL): the claim upsert over the batch's rows `c`, each with its own lease
 * cutoff, then one row per claim in the batch's order: `claimed`, and for a key it did not get, the row in the way as
 * the statement's snapshot saw it (none if it was committed meanwhile: the caller reads that as "in flight, try
 * again"). Two claims of one key in a batch make PostgreSQL refuse the statement (21000), and then each claim runs
 * alone. Parameters: keyClaimsParams.
 */
export function keyClaims(m: Markers): string {
  const rows = `select ${claimedRow('c.scope', 'c.key', 'c.request_hash', 'c.created_at', 'c.expires_at')} from c`;
  const cutoff = '(select c.lease_cutoff from c where c.scope = excluded.scope and c.key = excluded.key)';
  return (
    `with c as (select * from ${rowsOf(m, 'c', CLAIM_FIELDS, 'i')}), ` +
    `claimed as (${claimUpsert(rows, cutoff, 'scope, key')}) ` +
    'select cl.key is not null as claimed, k.request_hash, k.state, k.response_status, k.response_body from c ' +
    'left join claimed cl on cl.scope = c.scope and cl.key = c.key ' +
    'left join idempotency_keys k on cl.key is null and k.scope = c.scope and k.key = c.key order by c.i'
  );
}

/** Parameters of keyClaims, in CLAIM_FIELDS order. */
export function keyClaimsParams(claims: readonly KeyClaim[]): unknown[] {
  return columns(claims, ['scope', 'key', 'requestHash', 'createdAt', 'expiresAt', 'leaseCutoff']);
}
