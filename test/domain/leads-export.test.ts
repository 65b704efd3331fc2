import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { exportLeadsCsv, EXPORT_HEADERS } from '../../src/domain/leads/export-leads.js';
import type { LeadFilterInput } from '../../src/domain/leads/lead-filters.js';
import { moveLead } from '../../src/domain/leads/move-lead.js';
import { CLI_ACTOR } from '../../src/domain/stages/stage-history.js';
import type { LeadTable } from '../../src/storage/schema.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { insertLeads, minute } from './leads-fixtures.js';

async function exportBytes(world: TestWorld, input: LeadFilterInput): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of await exportLeadsCsv({ ctx: world.ctx, input })) chunks.push(Buffer.from(chunk as Buffer));
  return Buffer.concat(chunks);
}

function parseCsv(bytes: Buffer): Array<Record<string, string>> {
  return parse(bytes, { bom: true, columns: true, relax_quotes: false }) as Array<Record<string, string>>;
}

describeEachBackend('CSV export', (backend) => {
  let world: TestWorld;
  let seeded: Seeded;
  let rows: LeadTable[];
  const tricky = 'Smith, "Jo"\nsecond line';

  beforeAll(async () => {
    world = await createWorld(backend);
    seeded = await world.seed();
    const at = { workspaceId: seeded.workspaceId, pipelineId: seeded.pipelineId, sourceId: seeded.source.id };
    // More than one export page (500), so the keyset paging is exercised across pages.
    rows = await insertLeads(world, at, [
      { name: tricky, phone: '+44 20 7946 0958', email: 'jo@example.com', notes: '=HYPERLINK("http://evil")', extra: JSON.stringify({ budget: '12,000', 'how did you hear': '@twitter' }), received_at: minute(2000), user_agent: 'UA "quoted"' },
      { name: '-5 apples', address: '\tTabbed', notes: '\rcarriage', received_at: minute(1999), bot_check: 'passed' },
      { name: "Semi ;=cmd|' /C calc'!A0;", notes: 'a,+b, @c', received_at: minute(1998) },
      ...Array.from({ length: 1100 }, (_, i) => ({ name: `Bulk ${i}`, email: `bulk${i}@example.com`, received_at: minute(i) })),
    ]);
    await moveLead({ ctx: world.ctx, input: { id: rows[1]!.id, stage: 'contacted', by: CLI_ACTOR } });
  });
  afterAll(async () => {
    await world.close();
  });

  it('is RFC 4180 UTF-8 with a BOM and CRLF, one column per field, extra as JSON, formulas defused', async () => {
    const bytes = await exportBytes(world, { workspaceId: seeded.workspaceId });
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8');
    expect(text.slice(1).startsWith(`${EXPORT_HEADERS.map((h) => `"${h}"`).join(',')}\r\n`)).toBe(true);
    const records = parseCsv(bytes);
    expect(records).toHaveLength(1103);
    expect(new Set(records.map((r) => r.id))).toEqual(new Set(rows.map((r) => r.id)));
    const [first, second] = records;
    expect(first).toMatchObject({
      id: rows[0]!.id,
      name: tricky,
      phone: "'+44 20 7946 0958",
      email: 'jo@example.com',
      notes: `'=HYPERLINK("http://evil")`,
      stage: 'Inbox',
      source: 'Website form',
      user_agent: 'UA "quoted"',
      received_at: minute(2000),
    });
    expect(JSON.parse(first!.extra!)).toEqual({ budget: '12,000', 'how did you hear': '@twitter' });
    expect(second).toMatchObject({ name: "'-5 apples", address: "'\tTabbed", notes: "'\rcarriage", stage: 'Contacted', bot_check: 'passed' });
    // A `;` or `,` inside a value: the part after it is defused too, and the cell is quoted.
    expect(records.find((r) => r.id === rows[2]!.id)).toMatchObject({ name: "Semi ;'=cmd|' /C calc'!A0;", notes: "a,'+b, '@c" });
    // Newest first, like the inbox.
    expect(records.slice(3, 6).map((r) => r.name)).toEqual(['Bulk 1099', 'Bulk 1098', 'Bulk 1097']);
  });

  it('read by a spreadsheet that splits on `;` (comma-decimal locales), no cell begins a formula', async () => {
    const bytes = await exportBytes(world, { workspaceId: seeded.workspaceId });
    // Each line split on `;`, quotes honoured the way such a spreadsheet does; every resulting cell is checked.
    const cells = (parse(bytes, { bom: true, delimiter: ';', relax_quotes: true, relax_column_count: true, quote: '"' }) as string[][]).flat();
    expect(cells.length).toBeGreaterThan(1103);
    const risky = cells.map((c) => c.replace(/^[\s"]+/, '')).filter((c) => /^[=+\-@]/.test(c));
    expect(risky).toEqual([]);
    // And with quotes ignored entirely, split on `,` as well.
    const naive = bytes.toString('utf8').split(/[;,\r\n]/).map((c) => c.replace(/^[\s"]+/, ''));
    expect(naive.filter((c) => /^[=+@]/.test(c))).toEqual([]);
  });

  it('exports exactly the filtered set', async () => {
    const bySearch = parseCsv(await exportBytes(world, { workspaceId: seeded.workspaceId, search: 'bulk10' }));
    expect(bySearch.map((r) => r.name).sort()).toEqual(
      ['Bulk 10', ...Array.from({ length: 10 }, (_, i) => `Bulk 10${i}`), ...Array.from({ length: 100 }, (_, i) => `Bulk 10${String(i).padStart(2, '0')}`)].sort(),
    );
    const byStage = parseCsv(await exportBytes(world, { workspaceId: seeded.workspaceId, stage: 'Contacted' }));
    expect(byStage.map((r) => r.id)).toEqual([rows[1]!.id]);
    const empty = await exportBytes(world, { workspaceId: seeded.workspaceId, search: 'nobody by this name' });
    expect(empty.toString('utf8')).toBe(`\ufeff${EXPORT_HEADERS.map((h) => `"${h}"`).join(',')}\r\n`);
    await expect(exportLeadsCsv({ ctx: world.ctx, input: { workspaceId: seeded.workspaceId, stage: 'Nope' } })).rejects.toMatchObject({
      code: 'stage_not_found',
    });
  });
});
