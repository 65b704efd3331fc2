import { describe, expect, it } from 'vitest';
import { cursorPager } from '../../../src/web/admin/pagers.js';

// The markup the Leads inbox and the Audit log wrote before they shared the pager; the browser tests click these links.
const render = (input: Parameters<typeof cursorPager>[0]) => String(cursorPager(input));

describe('cursorPager (Leads inbox, Audit log)', () => {
  it('shows nothing when everything fits on the newest page', () => {
    expect(render({ base: '/w/ws_1/audit', param: 'after', cursor: undefined, next: null })).toBe('');
  });

  it('on the newest page: only Older, keyed by the next cursor after the filters', () => {
    expect(
      render({ base: '/w/ws_1/audit?action=key.regenerated', param: 'after', cursor: undefined, next: 'MjAyNi0x+/=' }),
    ).toBe(
      `<nav class="pager" aria-label="Pages">
<span></span>
<span><a href="/w/ws_1/audit?action=key.regenerated&amp;after=MjAyNi0x%2B%2F%3D" rel="next">Older →</a></span>
</nav>`,
    );
  });

  it('on an older page: Newest back to the filtered first page, and Older while there is more', () => {
    expect(render({ base: '/w/ws_1/pipelines/p_1/leads', param: 'cursor', cursor: 'abc', next: 'def' })).toBe(
      `<nav class="pager" aria-label="Pages">
<span><a href="/w/ws_1/pipelines/p_1/leads">← Newest</a></span>
<span><a href="/w/ws_1/pipelines/p_1/leads?cursor=def" rel="next">Older →</a></span>
</nav>`,
    );
    expect(render({ base: '/w/ws_1/pipelines/p_1/leads?q=ada', param: 'cursor', cursor: 'abc', next: null })).toBe(
      `<nav class="pager" aria-label="Pages">
<span><a href="/w/ws_1/pipelines/p_1/leads?q=ada">← Newest</a></span>
<span></span>
</nav>`,
    );
  });
});
