import type { VerbArgs } from '../context.js';
import { getSource } from '../sources/find-source.js';

export interface SourceDayStats {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  accepted: number;
  quarantined: number;
  refused: number;
  /** Refusals by error code, e.g. { "missing_contact": 3, "rate_limited": 1 }. */
  refusedBy: Record<string, number>;
}

export interface SourceStats {
  id: string;
  token: string;
  name: string;
  /** Newest first; days without any request are left out. */
  days: SourceDayStats[];
}

/**
 * "Why did my form not deliver?" (docs/operations.md): a source's intake counts per UTC day for the last `days` days.
 * The server adds its counts every 10 seconds, so the last few seconds may not show yet.
 */
export async function sourceStats({ ctx, input }: VerbArgs<{ sourceId: string; days?: number }>): Promise<SourceStats> {
  const source = await getSource({ ctx, input });
  const days = input.days ?? 7;
  const since = new Date(ctx.clock.now().getTime() - (days - 1) * 86_400_000).toISOString().slice(0, 10);
  const rows = await ctx.store.db
    .selectFrom('intake_log')
    .select(['day', 'outcome', 'code', 'count'])
    .where('source_id', '=', source.id)
    .where('day', '>=', since)
    .orderBy('day', 'desc')
    .orderBy('outcome')
    .orderBy('code')
    .execute();
  const byDay = new Map<string, SourceDayStats>();
  for (const row of rows) {
    let stats = byDay.get(row.day);
    if (!stats) {
      stats = { day: row.day, accepted: 0, quarantined: 0, refused: 0, refusedBy: {} };
      byDay.set(row.day, stats);
    }
    const n = Number(row.count);
    if (row.outcome === 'accepted') stats.accepted += n;
    else if (row.outcome === 'quarantined') stats.quarantined += n;
    else {
      stats.refused += n;
      stats.refusedBy[row.code] = (stats.refusedBy[row.code] ?? 0) + n;
    }
  }
  return { id: source.id, token: source.token, name: source.name, days: [...byDay.values()] };
}
