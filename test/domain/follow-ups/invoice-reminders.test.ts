import type { AddressObject } from 'mailparser';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { listAudit } from '../../../src/domain/audit/list-audit.js';
import { inWorkspace, type WorkspaceContext } from '../../../src/domain/context.js';
import { runFollowUps } from '../../../src/domain/follow-ups/run-follow-ups.js';
import { addInvoiceLine } from '../../../src/domain/invoices/add-invoice-line.js';
import { createBlankInvoice } from '../../../src/domain/invoices/create-blank-invoice.js';
import { recordPayment } from '../../../src/domain/invoices/record-payment.js';
import { sendInvoice } from '../../../src/domain/invoices/send-invoice.js';
import { updateInvoice } from '../../../src/domain/invoices/update-invoice.js';
import { voidInvoice } from '../../../src/domain/invoices/void-invoice.js';
import { deliverDueEmails } from '../../../src/domain/notifications/deliver-emails.js';
import { updateWorkspaceSettings } from '../../../src/domain/settings/update-workspace-settings.js';
import { describeEachBackend } from '../../helpers/backends.js';
import { TestClock } from '../../helpers/clock.js';
import { startSmtpSink, type SmtpSink } from '../../helpers/smtp-sink.js';
import { createWorld, type TestWorld } from '../../helpers/test-app.js';
import { quotingWorkspace } from '../../web/quote-fixtures.js';
import { leadOf } from '../quotes/quote-fixtures.js';
import { setClock } from '../reports/report-fixtures.js';

/** Monday 2 November 2026, 10:00 in Toronto (UTC−5): the invoices are sent and due today (payment terms 0). */
const SENT = '2026-11-02T15:00:00.000Z';
const at = (day: string, hourUtc = 15) => `${day}T${String(hourUtc).padStart(2, '0')}:00:00.000Z`;

/**
 * Overdue invoices' reminders (docs/invoices.md, "Overdue reminders"), under a moved clock: off by default; on, each
 * open invoice's customer is reminded on the days after the due date, from 08:00 in the workspace's zone, once (two
 * runs at once queue one); a payment in full, a void, or a payment before a queued reminder went stops them; audited.
 */
describeEachBackend('overdue invoice reminders', (backend) => {
  let world: TestWorld;
  let clock: TestClock;
  let sink: SmtpSink;
  let ws: Awaited<ReturnType<typeof quotingWorkspace>>;
  let wctx: WorkspaceContext;

  beforeAll(async () => {
    sink = await startSmtpSink();
    clock = new TestClock(Date.parse(SENT));
    world = await createWorld(backend, {
      clock,
      env: { SMTP_URL: sink.url, MAIL_FROM: 'Leadscan <invoices@leadscan.test>' },
    });
    ws = await quotingWorkspace(world, 'Home', { businessName: 'Rénovations Tremblay' });
    wctx = inWorkspace(world.ctx, ws.seeded.workspaceId);
    await updateWorkspaceSettings({
      ctx: world.ctx,
      input: { workspaceId: ws.seeded.workspaceId, paymentTerms: 0, paymentInstructions: 'Bank transfer to <b>X</b>' },
    });
  }, 60_000);
  afterAll(async () => {
    await world.close();
    await sink.stop();
  });

  const run = async (iso: string) => {
    setClock(clock, iso);
    return (await runFollowUps({ ctx: world.ctx, input: { emailOn: true } })).invoiceReminders;
  };
  let seen = 0;
  async function delivered() {
    const deliveries = await deliverDueEmails(world.ctx, { limit: 100 });
    await sink.waitFor(seen + deliveries.filter((d) => d.state === 'sent').length);
    const fresh = sink.messages.slice(seen);
    seen = sink.messages.length;
    return fresh.filter((m) => m.subject?.startsWith('Reminder'));
  }
  async function sentInvoice(name: string) {
    const leadId = await leadOf(world, ws.seeded, name);
    const draft = await createBlankInvoice({ ctx: wctx, input: { leadId } });
    await updateInvoice({ ctx: wctx, input: { invoiceId: draft.id, details: { title: 'Repairs' } } });
    await addInvoiceLine({
      ctx: wctx,
      input: { invoiceId: draft.id, line: { description: 'Repair', quantity: '1', unit: 'fixed', price: '100.00' } },
    });
    return (await sendInvoice({ ctx: wctx, input: { invoiceId: draft.id, by: { userId: ws.senderId } } })).invoice;
  }
  const pay = (invoiceId: string, amount: string, date: string) =>
    recordPayment({
      ctx: wctx,
      input: { invoiceId, payment: { amount, date, method: 'cash' }, receipt: false },
    });

  it('reminds the customers of open overdue invoices on the days after the due date, once, and stops on payment or void', async () => {
    const a = await sentInvoice('Ada Unpaid');
    const d = await sentInvoice('Dan Partly');
    const b = await sentInvoice('Ben Paid');
    const c = await sentInvoice('Cy Void');
    await pay(d.id, '10.00', '2026-11-02');
    await pay(b.id, (b.total / 100).toFixed(2), '2026-11-02');
    await voidInvoice({ ctx: wctx, input: { invoiceId: c.id, reason: 'Sent twice' } });
    await delivered();

    // Off by default: a week overdue, nothing.
    expect(await run(at('2026-11-09'))).toBe(0);
    await updateWorkspaceSettings({
      ctx: world.ctx,
      input: { workspaceId: ws.seeded.workspaceId, invoiceReminders: '7,14' },
    });
    // Day 6: nothing yet; day 7 at 07:00 in Toronto: not before 08:00; at 10:00: Ada and Dan.
    expect(await run(at('2026-11-08'))).toBe(0);
    expect(await run(at('2026-11-09', 12))).toBe(0);
    expect(await run(at('2026-11-09'))).toBe(2);
    expect(await run(at('2026-11-09', 20))).toBe(0);
    const first = await delivered();
    expect(first.map((m) => (m.to as AddressObject).text).sort()).toEqual(['ada@example.com', 'dan@example.com']);
    const ada = first.find((m) => m.text?.includes('Hello Ada Unpaid'))!;
    expect(ada.subject).toBe('Reminder: invoice INV-0001 from Rénovations Tremblay is overdue');
    expect(ada.text).toContain(`Balance still to pay: $${(a.total / 100).toFixed(2)}`);
    expect(ada.text).toContain('was due on November 2, 2026');
    expect(ada.text).toMatch(/\/i\/[A-Za-z0-9_-]{22}/);
    expect(ada.html).toContain('Bank transfer to &lt;b&gt;X&lt;/b&gt;');
    const dan = first.find((m) => m.text?.includes('Hello Dan Partly'))!;
    expect(dan.text).toContain(`Balance still to pay: $${((d.total - 1000) / 100).toFixed(2)}`);

    // Ada pays in full on day 10: no second reminder. Dan's second, on day 14: two runs at once queue it once.
    setClock(clock, at('2026-11-12'));
    await pay(a.id, (a.total / 100).toFixed(2), '2026-11-12');
    setClock(clock, at('2026-11-16'));
    const both = await Promise.all([
      runFollowUps({ ctx: world.ctx, input: { emailOn: true } }),
      runFollowUps({ ctx: world.ctx, input: { emailOn: true } }),
    ]);
    expect(both.map((r) => r.invoiceReminders).sort()).toEqual([0, 1]);
    // Paid before the queued reminder went: it is not mailed.
    await pay(d.id, ((d.total - 1000) / 100).toFixed(2), '2026-11-16');
    expect(await delivered()).toEqual([]);
    expect(await run(at('2026-11-30'))).toBe(0);

    const audit = await listAudit({
      ctx: world.ctx,
      input: { workspaceId: ws.seeded.workspaceId, action: 'invoice.customer_reminded' },
    });
    expect(audit.records.map((r) => [r.targetIds[0], (r.details as { reminder: number }).reminder]).sort()).toEqual(
      [
        [a.id, 1],
        [d.id, 1],
        [d.id, 2],
      ].sort(),
    );
  }, 120_000);
});
