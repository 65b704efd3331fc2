import { expect, it } from 'vitest';
import { formatDateTime, formatDay, formatDayOf, zonedDay } from '../../../src/domain/dates.js';
import { renderEmail } from '../../../src/domain/notifications/render-email.js';
import { updateWorkspaceSettings } from '../../../src/domain/settings/update-workspace-settings.js';
import { useAdminFixture } from '../../helpers/admin-fixture.js';
import { describeEachBackend } from '../../helpers/backends.js';

it('writes dates one way, in the workspace’s locale; machines keep YYYY-MM-DD', () => {
  expect(formatDay('2026-11-27', 'en-US')).toBe('November 27, 2026');
  expect(formatDay('2026-11-27', 'fr-CA')).toBe('27 novembre 2026');
  // An instant's day is the day in the workspace's zone.
  expect(zonedDay('2026-11-28T03:30:00.000Z', 'America/Toronto')).toBe('2026-11-27');
  expect(formatDayOf('2026-11-28T03:30:00.000Z', 'en-US', 'America/Toronto')).toBe('November 27, 2026');
  expect(formatDateTime('2026-11-27T20:04:00.000Z', 'en-US', 'America/Toronto')).toMatch(
    /^November 27, 2026 at 3:04\sPM \(EST\)$/,
  );
  // A new-lead email writes its times the same way, in the workspace's locale and zone.
  const email = renderEmail({
    kind: 'digest',
    workspaceName: 'Acme',
    timeZone: 'America/Toronto',
    locale: 'fr-CA',
    leads: [
      {
        id: 'lead_1',
        name: 'Émile',
        email: null,
        phone: null,
        address: null,
        notes: null,
        extra: {},
        sourceId: 'src_1',
        sourceName: 'Site',
        receivedAt: '2026-11-27T20:04:00.000Z',
        url: 'http://leadscan.test/w/ws_1/leads/lead_1',
      },
    ],
    total: 1,
    from: '2026-11-27T00:00:00.000Z',
    to: '2026-11-28T00:00:00.000Z',
    inboxUrl: 'http://leadscan.test/w/ws_1/leads',
    settingsUrl: 'http://leadscan.test/w/ws_1/notifications',
  } as Parameters<typeof renderEmail>[0]);
  expect(email.text).toContain('27 novembre 2026');
  expect(email.text).not.toMatch(/Nov 27|2026-11-27/);
});

describeEachBackend('dates on the admin pages', (backend) => {
  const f = useAdminFixture(backend);

  it('the Quotes screen shows Valid until as the other dates read, in the workspace’s locale', async () => {
    await updateWorkspaceSettings({ ctx: f.world.ctx, input: { workspaceId: f.home.workspaceId, locale: 'en-CA' } });
    const draft = await f.world.store.db
      .selectFrom('quotes')
      .select(['id', 'valid_until'])
      .where('workspace_id', '=', f.home.workspaceId)
      .executeTakeFirstOrThrow();
    const shown = formatDay(draft.valid_until, 'en-CA');
    const get = (url: string) => f.app.inject({ method: 'GET', url, headers: { cookie: f.owner.cookie } });
    const list = await get(`/w/${f.home.workspaceId}/quotes`);
    expect(list.body).toContain(`<time datetime="${draft.valid_until}">${shown}</time>`);
    expect(list.body).not.toContain(`class="num">${draft.valid_until}<`);
    // The script that writes times in the viewer's zone writes them in the workspace's locale.
    expect(list.body).toMatch(/<html lang="en" data-locale="en-CA">/);
  });
});
