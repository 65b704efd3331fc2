import type { DomainContext } from '../context.js';
import { findSourceByToken } from '../sources/find-source.js';
import type { LeadSource } from '../sources/source.js';

/**
 * Active lead sources by token, so an intake post costs no lookup query. Safe because the lead's INSERT is guarded
 * in SQL (the source must still be active and in the same pipeline): a deactivation, from this process or from the
 * CLI in another, refuses the very next post, and that refusal drops the entry. An entry is also dropped by any
 * generic (management) write this process commits; changes made by another process to other settings (bot check,
 * name) are seen within SOURCE_CACHE_TTL_MS. Closed and unknown tokens are never cached.
 */
export const SOURCE_CACHE_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

type Entries = Map<string, { source: LeadSource; at: number; commits: number }>;
const caches = new WeakMap<DomainContext['store'], Entries>();
const inFlight = new WeakMap<DomainContext['store'], Map<string, Promise<LeadSource | null>>>();

function lookupsOf(ctx: DomainContext): Map<string, Promise<LeadSource | null>> {
  let map = inFlight.get(ctx.store);
  if (!map) {
    map = new Map();
    inFlight.set(ctx.store, map);
  }
  return map;
}

function entriesOf(ctx: DomainContext): Entries {
  let map = caches.get(ctx.store);
  if (!map) {
    map = new Map();
    caches.set(ctx.store, map);
  }
  return map;
}

export async function findActiveSourceCached(ctx: DomainContext, token: string): Promise<LeadSource | null> {
  const map = entriesOf(ctx);
  const key = token.toLowerCase();
  const now = Date.now();
  // Any management write committed by this process since (a rename, a bot-check change) makes the entry stale.
  const commits = ctx.store.writer.stats.commits;
  const hit = map.get(key);
  if (hit && hit.commits === commits && now - hit.at < SOURCE_CACHE_TTL_MS && now >= hit.at) return hit.source;
  // Concurrent misses for one token (a burst on a cold cache) share one lookup.
  const lookups = lookupsOf(ctx);
  const pending = lookups.get(key);
  if (pending) return pending;
  const lookup = findSourceByToken({ ctx, input: { token } });
  lookups.set(key, lookup);
  let source: LeadSource | null;
  try {
    source = await lookup;
  } finally {
    lookups.delete(key);
  }
  if (source?.active) {
    if (map.size >= MAX_ENTRIES) map.clear();
    map.set(key, { source, at: now, commits });
  } else {
    map.delete(key);
  }
  return source;
}

/** Called when a guarded insert found the source closed (or moved). */
export function forgetCachedSource(ctx: DomainContext, token: string): void {
  entriesOf(ctx).delete(token.toLowerCase());
}
