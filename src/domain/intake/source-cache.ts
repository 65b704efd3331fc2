import type { DomainContext } from '../context.js';
import { readSourceForm, sourceFormOf, type SourceForm } from '../forms/source-form.js';
import { toLeadSource, type LeadSource } from '../sources/source.js';

/**
 * Active lead sources by token, with their hosted form's fields, so an intake post costs no lookup query. Safe
 * because the lead's INSERT is guarded in SQL (the source must still be active and in the same pipeline): a
 * deactivation, from this process or from the CLI in another, refuses the very next post, and that refusal drops
 * the entry. An entry is also dropped by any generic (management) write this process commits, which every change of
 * spam rules or form fields is (domain/sources/update-spam-rules.ts, domain/forms/source-form.ts); changes made by
 * another process (spam rules, form fields, bot check, name) are seen within SOURCE_CACHE_TTL_MS. Closed and
 * unknown tokens are never cached.
 */
export const SOURCE_CACHE_TTL_MS = 5_000;
const MAX_ENTRIES = 10_000;

/** What intake reads of a source: the source itself (with its compiled spam rules) and its hosted form's shape. */
interface IntakeSource {
  source: LeadSource;
  form: SourceForm;
}

type Entries = Map<string, IntakeSource & { at: number; commits: number }>;
const caches = new WeakMap<DomainContext['store'], Entries>();
const inFlight = new WeakMap<DomainContext['store'], Map<string, Promise<IntakeSource | null>>>();

function lookupsOf(ctx: DomainContext): Map<string, Promise<IntakeSource | null>> {
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

/** The source that owns a token, active or not, and its form's fields, in one query; null when no source has it. */
async function readIntakeSource(ctx: DomainContext, token: string): Promise<IntakeSource | null> {
  const row = await ctx.store.db
    .selectFrom('lead_sources')
    .leftJoin('lead_source_texts', 'lead_source_texts.source_id', 'lead_sources.id')
    .selectAll('lead_sources')
    .select(['lead_source_texts.form_fields', 'lead_source_texts.form_layout'])
    .where('lead_sources.token', '=', token)
    .executeTakeFirst();
  return row ? { source: toLeadSource(row), form: sourceFormOf(row) } : null;
}

async function findIntakeSourceCached(ctx: DomainContext, token: string): Promise<IntakeSource | null> {
  const map = entriesOf(ctx);
  const key = token.toLowerCase();
  const now = Date.now();
  // Any management write committed by this process since (a rename, a form edit) makes the entry stale.
  const commits = ctx.store.writer.stats.commits;
  const hit = map.get(key);
  if (hit && hit.commits === commits && now - hit.at < SOURCE_CACHE_TTL_MS && now >= hit.at) return hit;
  // Concurrent misses for one token (a burst on a cold cache) share one lookup; only posts that saw the same
  // commits share it, so a post made after a form edit never takes a lookup begun before the edit.
  const lookups = lookupsOf(ctx);
  const lookupKey = `${key} ${commits}`;
  const pending = lookups.get(lookupKey);
  if (pending) return pending;
  const lookup = readIntakeSource(ctx, key);
  lookups.set(lookupKey, lookup);
  let found: IntakeSource | null;
  try {
    found = await lookup;
  } finally {
    lookups.delete(lookupKey);
  }
  if (found?.source.active) {
    if (map.size >= MAX_ENTRIES) map.clear();
    map.set(key, { ...found, at: now, commits });
  } else {
    map.delete(key);
  }
  return found;
}

export async function findActiveSourceCached(ctx: DomainContext, token: string): Promise<LeadSource | null> {
  return (await findIntakeSourceCached(ctx, token))?.source ?? null;
}

/**
 * A source's hosted form (its own fields, the built-in fields' settings), for a hosted-form post: what the cache
 * read with the source (no query), or the form itself when its token no longer finds it (the insert's guard then
 * refuses the post anyway).
 */
export async function sourceFormCached(ctx: DomainContext, source: LeadSource): Promise<SourceForm> {
  const found = await findIntakeSourceCached(ctx, source.token);
  if (found?.source.id === source.id) return found.form;
  return readSourceForm(ctx, source.id);
}

/** Called when a guarded insert found the source closed (or moved). */
export function forgetCachedSource(ctx: DomainContext, token: string): void {
  entriesOf(ctx).delete(token.toLowerCase());
}
