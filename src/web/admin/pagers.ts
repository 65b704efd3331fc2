import { html, type SafeHtml } from '../html.js';

/** `?page=N` of a paged list (Scans, Quarantine): 1 when absent or not a page number. */
export function pageNumber(value: string | undefined): number {
  return value && /^[1-9]\d{0,5}$/.test(value) ? Number(value) : 1;
}

/** Newer/Older links of a list paged by number, newest first; nothing when everything fits on page 1. */
export function numberedPager(input: { base: string; page: number; hasOlder: boolean }): SafeHtml | string {
  const { base, page, hasOlder } = input;
  if (page <= 1 && !hasOlder) return '';
  const join = base.includes('?') ? '&' : '?';
  const link = (to: number) => (to <= 1 ? base : `${base}${join}page=${to}`);
  return html`<nav class="pager" aria-label="Pages">
<span>${page > 1 ? html`<a href="${link(page - 1)}" rel="prev">← Newer</a>` : ''}</span>
<span class="muted small">Page ${page}</span>
<span>${hasOlder ? html`<a href="${link(page + 1)}" rel="next">Older →</a>` : ''}</span>
</nav>`;
}

/**
 * Newest/Older links of a list paged by a cursor, newest first (Leads inbox, Audit log). `base` is the list's first
 * page with its filters; Older adds `param` set to the cursor the list handed back for the next page. `cursor` is the
 * one this page was opened with: without it this is already the newest page. Nothing when everything fits on one page.
 */
export function cursorPager(input: {
  base: string;
  param: string;
  cursor: string | undefined;
  next: string | null | undefined;
}): SafeHtml | string {
  const { base, param, cursor, next } = input;
  if (!cursor && !next) return '';
  const join = base.includes('?') ? '&' : '?';
  const older = next ? `${base}${join}${new URLSearchParams({ [param]: next }).toString()}` : '';
  return html`<nav class="pager" aria-label="Pages">
<span>${cursor ? html`<a href="${base}">← Newest</a>` : ''}</span>
<span>${older ? html`<a href="${older}" rel="next">Older →</a>` : ''}</span>
</nav>`;
}
