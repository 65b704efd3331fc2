import { overdueCandidatesQuery } from '../../src/domain/follow-ups/invoice-reminders.js';
import { CompiledQuery, sql, type Compilable } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { resolveLeadFilters, type LeadFilterInput } from '../../src/domain/leads/lead-filters.js';
import { leadPageQuery } from '../../src/domain/leads/inbox-query.js';
import { quoteListQuery, type ListStatus } from '../../src/domain/quotes/list-quotes.js';
import {
  invoiceListQuery,
  outstandingTotalsQuery,
  type InvoiceFilter,
} from '../../src/domain/invoices/list-invoices.js';
import { inWorkspace } from '../../src/domain/context.js';
import { followUpCandidatesQuery } from '../../src/domain/follow-ups/run-follow-ups.js';
import { reportRowsQueries } from '../../src/domain/reports/quote-report.js';
import { leadsByEmail } from '../../src/domain/persons/person-data.js';
import { createUser } from '../../src/domain/users/create-user.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';

/**
 * Every inbox, search, duplicate and retention query of `leads` is answered from an index, on both databases: the
 * plan pins it, so an index dropped or narrowed (docs/performance.md, "What a lead costs PostgreSQL") cannot leave a screen
 * scanning a million leads. SQLite without ANALYZE, as the app runs it: a full `SCAN leads` fails. PostgreSQL with
 * `enable_seqscan` off, so a table this small is planned as a large one would be where an index fits: a `Seq Scan
 * on leads` is then one that no index answers. The Quotes screen's first page and status filters likewise.
 */
describeEachBackend('query plans of leads', (backend) => {
  let world: TestWorld;
  let seeded: Seeded;

  beforeAll(async () => {
    world = await createWorld(backend);
    seeded = await world.seed('Acme');
    await createUser({ ctx: world.ctx, input: { email: 'sam@acme.test', workspaceId: seeded.workspaceId } });
  });
  afterAll(async () => {
    await world.close();
  });

  async function planOf(query: Compilable): Promise<string[]> {
    const compiled = query.compile();
    return world.store.db.transaction().execute(async (trx) => {
      if (backend === 'postgres') {
        await sql`set local enable_seqscan = off`.execute(trx);
        const { rows } = await trx.executeQuery<{ 'QUERY PLAN': string }>(
          CompiledQuery.raw(`explain ${compiled.sql}`, [...compiled.parameters]),
        );
        return rows.map((r) => r['QUERY PLAN']);
      }
      const { rows } = await trx.executeQuery<{ detail: string }>(
        CompiledQuery.raw(`explain query plan ${compiled.sql}`, [...compiled.parameters]),
      );
      return rows.map((r) => r.detail);
    });
  }

  /** No step of the plan reads a whole table (`leads`, PostgreSQL's search documents, or a joined one). */
  function expectIndexed(plan: string[]) {
    const text = plan.join('\n');
    if (backend === 'postgres') expect(text, text).not.toMatch(/Seq Scan/);
    else expect(text, text).not.toMatch(/^SCAN /m);
    return text;
  }

  const page = async (input: LeadFilterInput) =>
    planOf(
      leadPageQuery(
        world.ctx,
        await resolveLeadFilters(inWorkspace(world.ctx, seeded.workspaceId), {
          pipelineId: seeded.pipelineId,
          ...input,
        }),
        undefined,
        51,
      ),
    );

  it.each([
    ['the Leads inbox', {}, /leads_pipeline_received_id/],
    ['a stage', { stage: 'inbox' }, /leads_pipeline_stage_received/],
    ['a source', { source: 'Website form' }, /leads_source_received/],
    ['an assignee', { assignee: 'sam@acme.test' }, /leads_pipeline_assignee_received/],
    ['unassigned', { assignee: 'none' }, /leads_pipeline_/],
    ['follow-ups due', { followUpDue: true }, /leads_pipeline_(follow_up|received_id)/],
    ['possible duplicates', { duplicates: true }, /leads_pipeline_received_id/],
    ['received from and to', { since: '2026-01-01', until: '2026-02-01' }, /leads_pipeline_received_id/],
    ['a search', { search: 'lovelace' }, /leads_pipeline_received_id/],
  ] as const)(
    "%s: its first page is read from an index, and each lead's duplicate check too",
    async (_name, input, index) => {
      const text = expectIndexed(await page(input));
      expect(text).toMatch(index);
      // The "possible duplicate" mark of each row: earlier leads with the same email or phone, each from its index.
      expect(text).toMatch(/leads_workspace_email_key/);
      expect(text).toMatch(/leads_workspace_phone_key/);
    },
  );

  it("a person's export and erasure find their leads by email in the duplicate check's index", async () => {
    const text = expectIndexed(await planOf(leadsByEmail(world.store.db, seeded.workspaceId, 'Ada@Example.com')));
    expect(text).toMatch(/leads_workspace_email_key/);
  });

  it("the notifier reads a workspace's new leads from an index", async () => {
    const query = world.store.db
      .selectFrom('leads')
      .select(['id', 'received_at'])
      .where('workspace_id', '=', seeded.workspaceId)
      .where('received_at', '>=', '2026-01-01')
      .orderBy('received_at')
      .limit(1)
      .offset(49_999);
    expect(expectIndexed(await planOf(query))).toMatch(/leads_workspace_received/);
  });

  it("retention reads a workspace's oldest leads from an index", async () => {
    const query = world.store.db
      .selectFrom('leads')
      .select('id')
      .where('workspace_id', '=', seeded.workspaceId)
      .where('received_at', '<', '2026-01-01')
      .orderBy('received_at')
      .limit(500);
    expect(expectIndexed(await planOf(query))).toMatch(/leads_workspace_received/);
  });

  it.each([
    ['the Quotes screen', undefined, /quotes_workspace_created/],
    ['Draft', 'draft', /quotes_workspace_status_created/],
    // Sent and Viewed (still valid): either the status index or the open quotes' one fits.
    ['Sent', 'sent', /quotes_workspace_(status|open)_created/],
    ['Viewed', 'viewed', /quotes_workspace_(status|open)_created/],
    ['Accepted', 'accepted', /quotes_workspace_status_created/],
    ['Declined', 'declined', /quotes_workspace_status_created/],
    ['Withdrawn', 'withdrawn', /quotes_workspace_status_created/],
    ['Expired', 'expired', /quotes_workspace_open_created/],
    ['Needs follow-up', 'needs-follow-up', /quotes_workspace_open_created/],
  ] as const)(
    "%s: the first page of quotes is read from an index in the screen's order, with no sort",
    async (_name, status, index) => {
      const input = {
        workspaceId: seeded.workspaceId,
        limit: 200,
        ...(status ? { status: status as ListStatus } : {}),
      };
      const text = expectIndexed(
        await planOf(quoteListQuery(world.ctx, input, '2026-11-27', '2026-11-25T05:00:00.000Z')),
      );
      expect(text).toMatch(index);
      // Each row's "is it the latest revision" check reads the chain's index.
      expect(text).toMatch(/quotes_chain/);
      if (backend === 'postgres') expect(text, text).not.toMatch(/Sort/);
      else expect(text, text).not.toMatch(/TEMP B-TREE/);
    },
  );

  it('the Report reads whole months from its counts and the days of a part month from each quote, by index', async () => {
    const ctx = inWorkspace(world.ctx, seeded.workspaceId);
    // Two whole months and parts of two others.
    const { wholeQuery, partialQueries } = reportRowsQueries(ctx, { from: '2026-07-15', to: '2026-10-10' });
    const months = expectIndexed(await planOf(wholeQuery!));
    expect(months).toMatch(/quote_report_months_pk|sqlite_autoindex_quote_report_months/);
    expect(partialQueries).toHaveLength(2);
    for (const query of partialQueries)
      expect(expectIndexed(await planOf(query))).toMatch(/quote_outcomes_workspace_day/);
  });

  it('the follow-up job reads only the open sent quotes of the last weeks, from their partial index', async () => {
    const text = expectIndexed(await planOf(followUpCandidatesQuery(world.ctx, '2026-10-01T00:00:00.000Z')));
    expect(text).toMatch(/quotes_open_sent/);
    expect(text).toMatch(/quotes_chain/);
  });

  it('the overdue reminders read only the open invoices, from their partial index, never the whole table', async () => {
    // Across workspaces: the partial index of the open invoices is read whole (SQLite: `SCAN … USING INDEX`), which
    // holds only open invoices; the table itself is never scanned.
    const text = (await planOf(overdueCandidatesQuery(world.ctx, '2026-10-01'))).join('\n');
    expect(text).toMatch(/invoices_workspace_open_(due|totals)/);
    if (backend === 'postgres') expect(text, text).not.toMatch(/Seq Scan/);
    else expect(text, text).not.toMatch(/^SCAN (i|invoices)$/m);
  });

  it.each([
    ['the Invoices screen', undefined, /invoices_workspace_created/],
    ['Draft', 'draft', /invoices_workspace_status/],
    ['Sent', 'sent', /invoices_workspace_sent_created/],
    ['Overdue', 'overdue', /invoices_workspace_open_due/],
    ['Partly paid', 'partly_paid', /invoices_workspace_(status|open_due)/],
    ['Paid', 'paid', /invoices_workspace_status/],
    ['Void', 'void', /invoices_workspace_status/],
  ] as const)(
    "%s: a page of invoices is read from an index in the screen's order, with no sort",
    async (_name, status, index) => {
      const ctx = inWorkspace(world.ctx, seeded.workspaceId);
      const text = expectIndexed(
        await planOf(
          invoiceListQuery(ctx, { limit: 51, ...(status ? { status: status as InvoiceFilter } : {}) }, '2026-11-27'),
        ),
      );
      expect(text).toMatch(index);
      if (backend === 'postgres') expect(text, text).not.toMatch(/Sort/);
      else expect(text, text).not.toMatch(/TEMP B-TREE/);
      // The next page starts after the last row seen, by the same index.
      const after = { at: status === 'overdue' ? '2026-11-20' : '2026-11-20T10:00:00.000Z', id: 'ivc_0' };
      expect(
        expectIndexed(
          await planOf(
            invoiceListQuery(
              ctx,
              { limit: 51, after, ...(status ? { status: status as InvoiceFilter } : {}) },
              '2026-11-27',
            ),
          ),
        ),
      ).toMatch(index);
    },
  );

  it("a lead's invoices, and the outstanding and overdue totals, are read from indexes (the totals from the totals kept per due day)", async () => {
    const ctx = inWorkspace(world.ctx, seeded.workspaceId);
    expect(expectIndexed(await planOf(invoiceListQuery(ctx, { leadId: 'lead_0', limit: 51 }, '2026-11-27')))).toMatch(
      /invoices_lead|invoices_workspace_created/,
    );
    const text = expectIndexed(await planOf(outstandingTotalsQuery(ctx, '2026-11-27')));
    // The workspace's rows of the kept totals, by its primary key: never the invoices.
    expect(text).toMatch(/invoice_open_totals/);
    expect(text).not.toMatch(/\binvoices\b/);
    if (backend === 'sqlite') expect(text).toMatch(/USING (PRIMARY KEY|INDEX sqlite_autoindex_invoice_open_totals)/);
    else expect(text).toMatch(/invoice_open_totals_pk/);
  });
});
