/**
 * Where a lead came from in marketing terms (docs/api.md, "Marketing source"): the `utm_source`, `utm_medium`,
 * `utm_campaign`, `gclid` and `fbclid` parameters of the page address the lead was sent from (`pageUrl`), kept on
 * the lead under those names. Read once, when the lead is stored (intake, a restore); a page address without a query
 * costs nothing more than one `indexOf`.
 */

/** The parameters read, as named in the address and on the lead (columns of `leads`, migration 0038). */
export const MARKETING_PARAMS = ['utm_source', 'utm_medium', 'utm_campaign', 'gclid', 'fbclid'] as const;

export type MarketingParam = (typeof MARKETING_PARAMS)[number];

export type MarketingSource = Record<MarketingParam, string | null>;

/** Each value is kept to this many characters (the columns' CHECK says the same); longer ones are cut. */
export const MARKETING_VALUE_MAX = 200;

const NONE: MarketingSource = { utm_source: null, utm_medium: null, utm_campaign: null, gclid: null, fbclid: null };

/** Control characters (C0, DEL, C1) have no place in a value shown on a page and in a CSV cell. */
// eslint-disable-next-line no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/g;

/**
 * The marketing parameters of `pageUrl` (an absolute http(s) address, or null): each decoded, trimmed, without
 * control characters and cut to MARKETING_VALUE_MAX code points; absent or blank is null. A parameter given twice
 * takes its first value.
 */
export function marketingSourceOf(pageUrl: string | null): MarketingSource {
  if (pageUrl === null || !pageUrl.includes('?')) return NONE;
  let params: URLSearchParams;
  try {
    params = new URL(pageUrl).searchParams;
  } catch {
    return NONE;
  }
  const found = { ...NONE };
  for (const name of MARKETING_PARAMS) {
    const value = params.get(name)?.replace(CONTROL, '').trim();
    if (value) found[name] = [...value].slice(0, MARKETING_VALUE_MAX).join('');
  }
  return found;
}
