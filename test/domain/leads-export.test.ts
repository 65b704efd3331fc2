import { parse } from 'csv-parse/sync';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { exportLeadsCsv, EXPORT_HEADERS, MAX_EXTRA_COLUMNS, MORE_EXTRA } from '../../src/domain/leads/export-leads.js';
import { addNote } from '../../src/domain/leads/add-note.js';
import { assignLead } from '../../src/domain/leads/assign-lead.js';
import { setFollowUp } from '../../src/domain/leads/set-follow-up.js';
import { updateWorkspaceSettings } from '../../src/domain/settings/update-workspace-settings.js';
import { createUser } from '../../src/domain/users/create-user.js';
import type { LeadFilterInput } from '../../src/domain/leads/lead-filters.js';
import { moveLead } from '../../src/domain/leads/move-lead.js';
import { CLI_ACTOR } from '../../src/domain/stages/stage-history.js';
import type { LeadTable } from '../../src/storage/schema.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { insertLeads, minute } from './leads-fixtures.js';
import { inWorkspace } from '../../src/domain/context.js';

async function exportBytes(
  world: TestWorld,
  { workspaceId, ...input }: LeadFilterInput & { workspaceId: string },
): Promise<Buffer> {
  const chunks: Buffer[] = [];
  const ctx = inWorkspace(world.ctx, workspaceId);
  for await (const chunk of await exportLeadsCsv({ ctx, input })) chunks.push(Buffer.from(chunk as Buffer));
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
      {
        name: tricky,
        phone: '+44 20 7946 0958',
        email: 'jo@example.com',
        notes: '=HYPERLINK("http://evil")',
        extra: JSON.stringify({ budget: '12,000', 'how did you hear': '@twitter' }),
        received_at: minute(2000),
        user_agent: 'UA "quoted"',
      },
      {
        name: '-5 apples',
        address: '\tTabbed',
        notes: '\rcarriage',
        received_at: minute(1999),
        bot_check: 'passed',
        extra: JSON.stringify({ 'how did you hear': 'radio', '=SUM(A1)': 'x', name: 'shadow', colour: '+blue' }),
      },
      { name: "Semi ;=cmd|' /C calc'!A0;", notes: 'a,+b, @c', received_at: minute(1998) },
      ...Array.from({ length: 1100 }, (_, i) => ({
        name: `Bulk ${i}`,
        email: `bulk${i}@example.com`,
        received_at: minute(i),
      })),
    ]);
    await moveLead({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { id: rows[1]!.id, stage: 'contacted', by: CLI_ACTOR },
    });
    await createUser({ ctx: world.ctx, input: { email: 'mia@example.com', workspaceId: seeded.workspaceId } });
    await assignLead({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { leadId: rows[0]!.id, assignee: { email: 'mia@example.com' }, by: CLI_ACTOR },
    });
    await setFollowUp({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { leadId: rows[0]!.id, day: '2026-03-05', by: CLI_ACTOR },
    });
    await addNote({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { leadId: rows[0]!.id, text: 'one', by: CLI_ACTOR },
    });
    await addNote({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { leadId: rows[0]!.id, text: 'two', by: CLI_ACTOR },
    });
    // Times are written in the workspace's zone: Toronto is UTC-05:00 in March before the 8th.
    await updateWorkspaceSettings({
      ctx: world.ctx,
      input: { workspaceId: seeded.workspaceId, timeZone: 'America/Toronto' },
    });
  });

  // `minute(n)` in Toronto, as the export writes it.
  const toronto = (n: number) => {
    const utc = new Date(minute(n));
    const local = new Date(utc.getTime() - 5 * 3600_000).toISOString();
    return `${local.slice(0, 10)} ${local.slice(11, 19)}-05:00`;
  };
  const HEADERS = [...EXPORT_HEADERS, 'budget', 'how did you hear', "'=SUM(A1)", 'extra.name', 'colour'];
  afterAll(async () => {
    await world.close();
  });

  it('is RFC 4180 UTF-8 with a BOM and CRLF, one column per field and per extra field, formulas defused', async () => {
    const bytes = await exportBytes(world, { workspaceId: seeded.workspaceId });
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const text = bytes.toString('utf8');
    expect(text.slice(1).startsWith(`${HEADERS.map((h) => `"${h}"`).join(',')}\r\n`)).toBe(true);
    const records = parseCsv(bytes);
    expect(Object.keys(records[0]!)).toEqual(HEADERS);
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
      received_at: toronto(2000),
      assignee: 'mia@example.com',
      follow_up_on: '2026-03-05',
      internal_notes_count: '2',
      budget: '12,000',
      'how did you hear': "'@twitter",
      colour: '',
    });
    expect(second).toMatchObject({
      name: "'-5 apples",
      address: "'\tTabbed",
      notes: "'\rcarriage",
      stage: 'Contacted',
      bot_check: 'passed',
      assignee: '',
      follow_up_on: '',
      internal_notes_count: '0',
      budget: '',
      'how did you hear': 'radio',
      "'=SUM(A1)": 'x',
      'extra.name': 'shadow',
      colour: "'+blue",
    });
    expect(second!.received_at).toBe('2026-03-02 04:19:00-05:00');
    // A `;` or `,` inside a value: the part after it is defused too, and the cell is quoted.
    expect(records.find((r) => r.id === rows[2]!.id)).toMatchObject({
      name: "Semi ;'=cmd|' /C calc'!A0;",
      notes: "a,'+b, '@c",
    });
    // Newest first, like the inbox.
    expect(records.slice(3, 6).map((r) => r.name)).toEqual(['Bulk 1099', 'Bulk 1098', 'Bulk 1097']);
  });

  it('read by a spreadsheet that splits on `;` (comma-decimal locales), no cell begins a formula', async () => {
    const bytes = await exportBytes(world, { workspaceId: seeded.workspaceId });
    // Each line split on `;`, quotes honoured the way such a spreadsheet does; every resulting cell is checked.
    const cells = (
      parse(bytes, {
        bom: true,
        delimiter: ';',
        relax_quotes: true,
        relax_column_count: true,
        quote: '"',
      }) as string[][]
    ).flat();
    expect(cells.length).toBeGreaterThan(1103);
    const risky = cells.map((c) => c.replace(/^[\s"]+/, '')).filter((c) => /^[=+\-@]/.test(c));
    expect(risky).toEqual([]);
    // And with quotes ignored entirely, split on `,` as well.
    const naive = bytes
      .toString('utf8')
      .split(/[;,\r\n]/)
      .map((c) => c.replace(/^[\s"]+/, ''));
    expect(naive.filter((c) => /^[=+@]/.test(c))).toEqual([]);
  });

  it('exports exactly the filtered set', async () => {
    const bySearch = parseCsv(await exportBytes(world, { workspaceId: seeded.workspaceId, search: 'bulk10' }));
    expect(bySearch.map((r) => r.name).sort()).toEqual(
      [
        'Bulk 10',
        ...Array.from({ length: 10 }, (_, i) => `Bulk 10${i}`),
        ...Array.from({ length: 100 }, (_, i) => `Bulk 10${String(i).padStart(2, '0')}`),
      ].sort(),
    );
    const byStage = parseCsv(await exportBytes(world, { workspaceId: seeded.workspaceId, stage: 'Contacted' }));
    expect(byStage.map((r) => r.id)).toEqual([rows[1]!.id]);
    const empty = await exportBytes(world, { workspaceId: seeded.workspaceId, search: 'nobody by this name' });
    expect(empty.toString('utf8')).toBe(`\ufeff${EXPORT_HEADERS.map((h) => `"${h}"`).join(',')}\r\n`);
    // The extra columns are those of the exported leads only.
    const one = parseCsv(await exportBytes(world, { workspaceId: seeded.workspaceId, stage: 'Contacted' }));
    expect(Object.keys(one[0]!)).toEqual([...EXPORT_HEADERS, 'how did you hear', "'=SUM(A1)", 'extra.name', 'colour']);
    await expect(
      exportLeadsCsv({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { stage: 'Nope' } }),
    ).rejects.toMatchObject({
      code: 'stage_not_found',
    });
  });

  it('puts extra fields past the column limit into one JSON column', async () => {
    const own = await createWorld(backend);
    try {
      const ws = await own.seed();
      const at = { workspaceId: ws.workspaceId, pipelineId: ws.pipelineId, sourceId: ws.source.id };
      const many = Array.from({ length: MAX_EXTRA_COLUMNS + 2 }, (_, i) => `k${i}`);
      // Newest first: the first lead's keys fill the columns, the older lead's new keys overflow.
      await insertLeads(own, at, [
        {
          name: 'Newer',
          received_at: minute(2),
          extra: JSON.stringify(Object.fromEntries(many.slice(0, MAX_EXTRA_COLUMNS).map((k) => [k, k]))),
        },
        {
          name: 'Older',
          received_at: minute(1),
          extra: JSON.stringify({ k0: 'a', [many.at(-2)!]: 'b', [many.at(-1)!]: '=c' }),
        },
      ]);
      const records = parseCsv(await exportBytes(own, { workspaceId: ws.workspaceId }));
      expect(Object.keys(records[0]!)).toHaveLength(EXPORT_HEADERS.length + MAX_EXTRA_COLUMNS + 1);
      expect(Object.keys(records[0]!).at(-1)).toBe(MORE_EXTRA);
      expect(records[0]![MORE_EXTRA]).toBe('');
      expect(records[1]).toMatchObject({ k0: 'a' });
      expect(JSON.parse(records[1]![MORE_EXTRA]!)).toEqual({ [many.at(-2)!]: 'b', [many.at(-1)!]: '=c' });
    } finally {
      await own.close();
    }
  });
});
