import { once } from 'node:events';
import { Readable } from 'node:stream';
import ExcelJS from 'exceljs';
import { beforeEach, describe, expect, it } from 'vitest';
import { addNote } from '../../../src/domain/leads/add-note.js';
import { setFollowUp } from '../../../src/domain/leads/set-follow-up.js';
import { updateWorkspaceSettings } from '../../../src/domain/settings/update-workspace-settings.js';
import { CLI_ACTOR } from '../../../src/domain/stages/stage-history.js';
import { EXPORT_HEADERS } from '../../../src/domain/leads/export-leads.js';
import { xlsxStream, sheetTime } from '../../../src/domain/xlsx-sheet.js';
import { describeEachBackend } from '../../helpers/backends.js';
import { useAdminFixture } from '../../helpers/admin-fixture.js';
import { runCli } from '../../helpers/cli.js';
import { libreOffice, readWithCalc, type CalcCell } from '../../helpers/libreoffice.js';
import { rectangularRoom } from '../../fixtures/roomplan.js';
import { insertLeads, minute } from '../../domain/leads-fixtures.js';
import { inWorkspace } from '../../../src/domain/context.js';

/**
 * Export Excel beside Export CSV (docs/admin-app.md, "The Excel export"), read back by LibreOffice Calc as a person
 * opens it: text as typed (a phone `+44…` without the CSV's apostrophe, a formula-looking name as text, never run),
 * numbers as numbers, times as dates. Calc's CSV quotes its text cells only, so each cell says what Calc holds.
 */
const { soffice, skipReason } = libreOffice();
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** Rows by header name, from Calc's reading. */
function byHeader(sheet: CalcCell[][]): Array<Record<string, CalcCell>> {
  const [head, ...rows] = sheet;
  return rows.map((row) => Object.fromEntries(head!.map((h, i) => [h.shown, row[i] ?? { shown: '', text: false }])));
}

/** No cell of the workbook is a formula, and none begins with the CSV's guard. */
async function noFormulas(bytes: Buffer): Promise<number> {
  const book = new ExcelJS.Workbook();
  await book.xlsx.load(bytes as unknown as ArrayBuffer);
  let cells = 0;
  book.worksheets[0]!.eachRow((row) =>
    row.eachCell((cell) => {
      cells++;
      expect(cell.type).not.toBe(ExcelJS.ValueType.Formula);
      expect(cell.text.startsWith("'")).toBe(false);
    }),
  );
  return cells;
}

describe.skipIf(!soffice)(
  `Excel exports read by LibreOffice Calc${skipReason ? ` (skipped: ${skipReason})` : ''}`,
  () => {
    describeEachBackend('leads and measurements as .xlsx', (backend) => {
      const f = useAdminFixture(backend);
      const ws = (rest: string) => `/w/${f.home.workspaceId}${rest}`;
      const get = (url: string) => f.app.inject({ method: 'GET', url, headers: { cookie: f.owner.cookie } });

      beforeEach(async () => {
        const at = { workspaceId: f.home.workspaceId, pipelineId: f.home.pipelineId, sourceId: f.home.source.id };
        const [first] = await insertLeads(f.world, at, [
          {
            name: 'Smith, "Jo"\nsecond line',
            phone: '+44 20 7946 0958',
            email: 'jo@example.com',
            notes: '=HYPERLINK("http://evil")',
            extra: JSON.stringify({ budget: '12,000', 'how did you hear': '@twitter', '=SUM(A1)': 'x' }),
            received_at: minute(3000),
          },
          {
            name: '-5 apples',
            phone: '0044207946',
            address: '\tTabbed',
            notes: '\rcarriage _x0041_',
            received_at: minute(2999),
          },
        ]);
        await setFollowUp({
          ctx: inWorkspace(f.world.ctx, f.home.workspaceId),
          input: { leadId: first!.id, day: '2026-03-05', by: CLI_ACTOR },
        });
        await addNote({
          ctx: inWorkspace(f.world.ctx, f.home.workspaceId),
          input: { leadId: first!.id, text: 'one', by: CLI_ACTOR },
        });
        await addNote({
          ctx: inWorkspace(f.world.ctx, f.home.workspaceId),
          input: { leadId: first!.id, text: 'two', by: CLI_ACTOR },
        });
        await updateWorkspaceSettings({
          ctx: f.world.ctx,
          input: { workspaceId: f.home.workspaceId, timeZone: 'America/Toronto' },
        });
      });

      it('Export Excel: every cell typed, phones and formula-like text as typed, the count a number, times as dates', async () => {
        const inbox = await get(ws(`/pipelines/${f.home.pipelineId}/leads?q=apples`));
        expect(inbox.body).toContain(
          `<a class="button secondary" id="export-xlsx" href="${ws(`/pipelines/${f.home.pipelineId}/leads.xlsx`)}?q=apples" download>Export Excel</a>`,
        );

        const res = await get(ws(`/pipelines/${f.home.pipelineId}/leads.xlsx`));
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe(XLSX);
        expect(res.headers['content-disposition']).toMatch(
          /^attachment; filename="leads-[a-z0-9-]+-\d{4}-\d{2}-\d{2}\.xlsx"$/,
        );
        const bytes = res.rawPayload;
        expect(await noFormulas(bytes)).toBeGreaterThan(EXPORT_HEADERS.length);

        const sheet = await readWithCalc(soffice!, bytes);
        const headers = sheet[0]!;
        expect(headers.every((h) => h.text)).toBe(true);
        expect(headers.map((h) => h.shown)).toEqual(
          expect.arrayContaining([...EXPORT_HEADERS, 'budget', 'how did you hear', '=SUM(A1)']),
        );
        const rows = byHeader(sheet);
        const jo = rows.find((r) => r.email!.shown === 'jo@example.com')!;
        expect(jo.phone).toEqual({ shown: '+44 20 7946 0958', text: true });
        expect(jo.name).toEqual({ shown: 'Smith, "Jo"\nsecond line', text: true });
        expect(jo.notes).toEqual({ shown: '=HYPERLINK("http://evil")', text: true });
        expect(jo['how did you hear']).toEqual({ shown: '@twitter', text: true });
        expect(jo.budget).toEqual({ shown: '12,000', text: true });
        expect(jo.internal_notes_count).toEqual({ shown: '2', text: false });
        expect(jo.follow_up_on).toEqual({ shown: '2026-03-05', text: false });
        // minute(3000) in Toronto (UTC-05:00 in early March), as a date and time.
        const local = new Date(new Date(minute(3000)).getTime() - 5 * 3600_000).toISOString();
        expect(jo.received_at).toEqual({ shown: `${local.slice(0, 10)} ${local.slice(11, 19)}`, text: false });

        const apples = rows.find((r) => r.name!.shown === '-5 apples')!;
        expect(apples.name!.text).toBe(true);
        // A phone of digits stays text: its leading zeros kept, not a number.
        expect(apples.phone).toEqual({ shown: '0044207946', text: true });
        expect(apples.address).toEqual({ shown: '\tTabbed', text: true });
        expect(apples.notes).toEqual({ shown: '\rcarriage _x0041_', text: true });
        expect(apples.internal_notes_count).toEqual({ shown: '0', text: false });
        for (const row of sheet) for (const cell of row) expect(cell.shown.startsWith("'"), cell.shown).toBe(false);

        // The filters apply as to the CSV.
        const filtered = await readWithCalc(
          soffice!,
          (await get(ws(`/pipelines/${f.home.pipelineId}/leads.xlsx?q=apples`))).rawPayload,
        );
        expect(byHeader(filtered).map((r) => r.name!.shown)).toEqual(['-5 apples']);
      }, 180_000);

      it('leadscan leads export --format xlsx writes the same workbook to stdout; another format is refused', async () => {
        const env = { DATABASE_URL: f.world.testDb.url, APP_SECRET: f.world.appSecret };
        const out = await runCli(
          ['leads', 'export', '--workspace', f.home.workspaceId, '--format', 'xlsx', '--search', 'apples'],
          env,
        );
        expect(out.code, out.stderr).toBe(0);
        expect(out.stdoutBytes.subarray(0, 2).toString()).toBe('PK');
        const rows = byHeader(await readWithCalc(soffice!, out.stdoutBytes));
        expect(rows.map((r) => [r.name!.shown, r.phone!.shown, r.phone!.text])).toEqual([
          ['-5 apples', '0044207946', true],
        ]);
        const bad = await runCli(['leads', 'export', '--workspace', f.home.workspaceId, '--format', 'ods'], env);
        expect(bad.code).not.toBe(0);
        expect(bad.stderr).toContain('--format is csv or xlsx');
      }, 180_000);

      it("a scan's measurements as .xlsx: room names as typed, the figures numbers with the page's digits", async () => {
        const rooms = [
          {
            name: '=HYPERLINK("http://evil.test","click")',
            ...rectangularRoom({ width: 4.2, length: 3.1, height: 2.45 }),
          },
          { name: '+1 Bath', ...rectangularRoom({ width: 1.5, length: 5, height: 2.45, at: [5, 0] }) },
        ];
        const up = await f.app.inject({
          method: 'POST',
          url: '/api/scan/upload',
          headers: { 'x-scan-key': f.home.uploadKey, 'content-type': 'application/json' },
          payload: JSON.stringify({ rooms }),
        });
        expect(up.statusCode).toBe(200);
        const scanId = (
          await f.world.store.db
            .selectFrom('scan_rooms')
            .select('scan_id')
            .where('name', '=', '+1 Bath')
            .executeTakeFirstOrThrow()
        ).scan_id;
        const page = await get(ws(`/scans/${scanId}`));
        expect(page.body).toContain(
          `href="${ws(`/scans/${scanId}`)}/measurements.xlsx" download id="download-measurements-xlsx" aria-label="Download measurements (Excel)">Excel</a>`,
        );

        const res = await get(ws(`/scans/${scanId}/measurements.xlsx`));
        expect(res.statusCode).toBe(200);
        expect(res.headers['content-type']).toBe(XLSX);
        // Not attached to a lead: named after the scan's day, never its id.
        expect(res.headers['content-disposition']).toMatch(
          /^attachment; filename="Scan measurements \d{4}-\d{2}-\d{2}\.xlsx"$/,
        );
        await noFormulas(res.rawPayload);
        const rows = byHeader(await readWithCalc(soffice!, res.rawPayload));
        expect(rows.map((r) => [r.room, r.name, r.floorArea_m2, r.volume_m3])).toEqual([
          [
            { shown: '1', text: false },
            { shown: '=HYPERLINK("http://evil.test","click")', text: true },
            { shown: '13.02', text: false },
            { shown: '31.9', text: false },
          ],
          [
            { shown: '2', text: false },
            { shown: '+1 Bath', text: true },
            { shown: '7.50', text: false },
            { shown: '18.4', text: false },
          ],
        ]);
      }, 180_000);
    });
  },
);

describe('the .xlsx writer streams', () => {
  it('writes rows only as fast as the reader takes the file: 100,000 rows, a few thousand ahead at most', async () => {
    let made = 0;
    async function* rows() {
      yield ['id', 'phone', 'received_at', 'count'];
      for (let i = 0; i < 100_000; i++) {
        made++;
        yield [`lead_${i}`, '+1 415 555 0199', sheetTime('2026-03-04 19:03:00'), i];
      }
    }
    const file = xlsxStream('Leads', rows());
    // Nobody reads yet: the writer stops once its side is full.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(made).toBeLessThan(5_000);
    const chunks: Buffer[] = [];
    file.on('data', (chunk: Buffer) => chunks.push(chunk));
    await once(file, 'end');
    expect(made).toBe(100_000);
    // Read back with exceljs's streaming reader: every row there, the last one typed.
    const reader = new ExcelJS.stream.xlsx.WorkbookReader(Readable.from([Buffer.concat(chunks)]), {});
    let count = 0;
    let last: ExcelJS.Row | undefined;
    for await (const sheet of reader) {
      for await (const row of sheet) {
        count++;
        last = row as ExcelJS.Row;
      }
    }
    expect(count).toBe(100_001);
    expect(last!.getCell(1).text).toBe('lead_99999');
    expect(last!.getCell(4).value).toBe(99_999);
    // The streaming reader gives a date as Excel's serial day number: 2026-03-04 19:03 (25569 is 1970-01-01).
    expect(last!.getCell(3).value).toBeCloseTo(Date.UTC(2026, 2, 4, 19, 3, 0) / 86_400_000 + 25_569, 6);
  }, 120_000);
});
