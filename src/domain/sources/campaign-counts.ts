import type { VerbArgs } from '../context.js';

/** One marketing source's leads (`utm_source`; null: leads whose page address named none). */
export interface CampaignCount {
  utmSource: string | null;
  leads: number;
}

export interface CampaignCounts {
  days: number;
  /** The most leads first. */
  counts: CampaignCount[];
  /** The leads of the sources past the listed ones. */
  others: number;
}

/** At most this many sources are listed, the most leads first; the rest are summed into `others`. */
const LISTED = 10;

/**
 * A lead source's leads of the last `days` days counted per marketing source (docs/admin-app.md, "A source's form"):
 * the `utm_source` of the page each lead was sent from. Reads the source's leads of those days through
 * `leads_source_received`, so its cost is the period's leads, not the table's.
 */
export async function campaignCounts({
  ctx,
  input,
}: VerbArgs<{ sourceId: string; days?: number }>): Promise<CampaignCounts> {
  const days = input.days ?? 30;
  const since = new Date(ctx.clock.now().getTime() - days * 86_400_000).toISOString();
  const rows = await ctx.store.db
    .selectFrom('leads')
    .select(['utm_source', (eb) => eb.fn.countAll<number | string>().as('leads')])
    .where('source_id', '=', input.sourceId)
    .where('received_at', '>=', since)
    .groupBy('utm_source')
    .execute();
  const counts = rows
    .map((r) => ({ utmSource: r.utm_source ?? null, leads: Number(r.leads) }))
    .sort((a, b) => b.leads - a.leads || (a.utmSource ?? '').localeCompare(b.utmSource ?? ''));
  const others = counts.slice(LISTED).reduce((sum, c) => sum + c.leads, 0);
  return { days, counts: counts.slice(0, LISTED), others };
}
