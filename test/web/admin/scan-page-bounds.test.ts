import { expect, it } from 'vitest';
import { scanFigures } from '../../../src/domain/scans/measure-scan.js';
import { MAX_PLAN_SURFACES, ROOMS_PER_PAGE, scanPageRooms } from '../../../src/web/admin/scans/scan-page-bounds.js';
import { describeEachBackend } from '../../helpers/backends.js';
import { useAdminFixture } from '../../helpers/admin-fixture.js';
import { manyWalledUpload } from '../../fixtures/roomplan.js';

/**
 * A scan's page is bounded whatever the upload holds (docs/admin-app.md, "A scan's page"). The upload below is inside
 * every limit (500 rooms, under 32 MiB) and once made a 79 MB page built in 8–11 s on the main thread.
 */
let big: string | undefined;
const bigUpload = () => (big ??= manyWalledUpload(500, 600));

describeEachBackend("a scan's page is bounded: rooms paged, plans simplified", (backend) => {
  const f = useAdminFixture(backend);
  const ws = (rest: string) => `/w/${f.home.workspaceId}${rest}`;
  const get = (url: string) => f.app.inject({ method: 'GET', url, headers: { cookie: f.owner.cookie } });

  it('500 rooms × 600 walls: each page under 5 MB with 50 rooms and simplified plans; the totals and the CSV count every room', async () => {
    const body = bigUpload();
    expect(body.length).toBeGreaterThan(20_000_000);
    const up = await f.app.inject({
      method: 'POST',
      url: '/api/scan/upload',
      headers: { 'x-scan-key': f.home.uploadKey, 'content-type': 'application/json' },
      payload: body,
    });
    expect(up.statusCode).toBe(200);
    const scanId = (
      await f.world.store.db
        .selectFrom('scan_rooms')
        .select('scan_id')
        .where('name', '=', 'Room 500')
        .executeTakeFirstOrThrow()
    ).scan_id;

    // Two pages opened at once before the sweep got there share one measurement.
    const [a, b] = await Promise.all([
      scanFigures({ ctx: f.world.ctx, input: { workspaceId: f.home.workspaceId, scanId } }),
      scanFigures({ ctx: f.world.ctx, input: { workspaceId: f.home.workspaceId, scanId } }),
    ]);
    expect(a).toEqual(b);
    expect(a.computedAt).toBe(b.computedAt);
    expect(a.rooms).toHaveLength(500);
    expect(a.roomsRecognized).toBe(500);

    // The work of one render: one page of rooms, each plan within its bounds.
    const shown = scanPageRooms(a, 1);
    expect(shown.work.roomsShown).toBe(ROOMS_PER_PAGE);
    expect(shown.work.plansDrawn).toBe(ROOMS_PER_PAGE);
    expect(shown.work.surfacesDrawn).toBeLessThanOrEqual(ROOMS_PER_PAGE * MAX_PLAN_SURFACES);
    expect(scanPageRooms(a, 99).page).toBe(10);

    const page = await get(ws(`/scans/${scanId}`));
    expect(page.statusCode).toBe(200);
    expect(page.body.length).toBeLessThan(5_000_000);
    expect(page.body.match(/<svg class="floor-plan"/g)).toHaveLength(ROOMS_PER_PAGE);
    expect(page.body.match(/<tr><td data-label="#"/g)).toHaveLength(ROOMS_PER_PAGE);
    expect(page.body).toContain('Rooms 1–50 of 500');
    expect(page.body).toContain(`href="${ws(`/scans/${scanId}`)}?rooms=2" rel="next"`);
    expect(page.body).toContain('Plan simplified');
    expect(page.body).toContain('the 64 longest of its 600 walls');
    // The totals add up all 500 rooms, not the page's 50.
    expect(page.body).toContain('Total (500 rooms)');

    const last = await get(ws(`/scans/${scanId}?rooms=10`));
    expect(last.body.length).toBeLessThan(5_000_000);
    expect(last.body).toContain('Rooms 451–500 of 500');
    expect(last.body).toContain('<strong>500. Room 500</strong>');
    expect(last.body).not.toContain('<strong>1. Room 1</strong>');

    const csv = await get(ws(`/scans/${scanId}/measurements.csv`));
    expect(csv.body.trim().split('\r\n')).toHaveLength(501);
  }, 180_000);
});
