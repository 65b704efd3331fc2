import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DomainContext } from '../../src/domain/context.js';
import { runFollowUps } from '../../src/domain/follow-ups/run-follow-ups.js';
import { deliverDueEmails } from '../../src/domain/notifications/deliver-emails.js';
import { updateWorkspaceSettings } from '../../src/domain/settings/update-workspace-settings.js';
import { createDomainContext } from '../../src/runtime.js';
import { openDatabase, type Database } from '../../src/storage/database.js';
import { postgresAdminUrl } from '../helpers/backends.js';
import { TestClock } from '../helpers/clock.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';
import { quotingWorkspace, sentQuote } from '../web/quote-fixtures.js';
import { setClock } from '../domain/reports/report-fixtures.js';

const QUOTES = 12;

/**
 * Once-only reminders across instances: two instances (each its own pool and writer, as two `leadscan serve`
 * processes have) on one PostgreSQL database run the follow-up job at the same moments, again and again, and send
 * what they queued, both at once. Every reminder reaches its person exactly once.
 */
describe.skipIf(!postgresAdminUrl)(
  'follow-up reminders with two instances on one PostgreSQL',
  { timeout: 120_000 },
  () => {
    let world: TestWorld;
    let sink: SmtpSink;
    let clock: TestClock;
    let second: { store: Database; ctx: DomainContext };

    beforeAll(async () => {
      sink = await startSmtpSink();
      clock = new TestClock(Date.parse('2026-11-02T15:00:00Z'));
      world = await createWorld('postgres', {
        clock,
        env: { SMTP_URL: sink.url, MAIL_FROM: 'Leadscan <quotes@leadscan.test>' },
      });
      const store = openDatabase(world.config.database);
      second = { store, ctx: createDomainContext({ config: world.config, store, appSecret: world.appSecret, clock }) };
    });
    afterAll(async () => {
      await second.store.close();
      await world.close();
      await sink.stop();
    });

    it(`${QUOTES} quotes: each sender and customer reminder queued and sent once, whichever instance ran`, async () => {
      const ws = await quotingWorkspace(world, 'Twice');
      await updateWorkspaceSettings({
        ctx: world.ctx,
        input: { workspaceId: ws.seeded.workspaceId, followUpDays: '3', customerReminders: '3,7' },
      });
      for (let i = 0; i < QUOTES; i++)
        await sentQuote(world, ws, { customer: `Customer ${i}`, email: `customer${i}@twice.test` });
      await deliverDueEmails(world.ctx, { limit: 100 });
      sink.messages.length = 0;
      const instances = [world.ctx, second.ctx];
      const counted = { sender: 0, customer: 0 };
      for (const at of [
        '2026-11-05T13:00:00Z',
        '2026-11-05T13:05:00Z',
        '2026-11-09T13:00:00Z',
        '2026-11-09T13:01:00Z',
      ]) {
        setClock(clock, at);
        // Both instances, three passes each, all at once.
        const runs = await Promise.all(
          [...instances, ...instances, ...instances].map((ctx) => runFollowUps({ ctx, input: { emailOn: true } })),
        );
        for (const run of runs) {
          counted.sender += run.senderReminders;
          counted.customer += run.customerReminders;
        }
        await Promise.all(instances.map((ctx) => deliverDueEmails(ctx, { limit: 100 })));
      }
      expect(counted).toEqual({ sender: QUOTES, customer: 2 * QUOTES });
      const rows = await world.store.db.selectFrom('reminders').select(['kind', 'ordinal', 'outbox_id']).execute();
      expect(rows).toHaveLength(3 * QUOTES);
      await sink.waitFor(3 * QUOTES);
      await new Promise((resolve) => setTimeout(resolve, 500));
      const received = sink.messages.map((m) => `${(m.to as { text: string }).text} ${m.subject}`);
      expect(received).toHaveLength(3 * QUOTES);
      expect(new Set(received.filter((r) => r.includes('Reminder:'))).size).toBe(QUOTES);
      expect(received.filter((r) => r.startsWith(ws.senderEmail))).toHaveLength(QUOTES);
      for (let i = 0; i < QUOTES; i++)
        expect(received.filter((r) => r.startsWith(`customer${i}@twice.test `))).toHaveLength(2);
    });
  },
);
