import { afterAll, beforeAll, expect, it } from 'vitest';
import { urlForLog } from '../../src/http/request-log.js';
import type { App } from '../../src/app.js';
import { runFollowUps } from '../../src/domain/follow-ups/run-follow-ups.js';
import type { OutboxPayload } from '../../src/domain/notifications/outbox.js';
import { updateWorkspaceSettings } from '../../src/domain/settings/update-workspace-settings.js';
import { stopFormToken } from '../../src/web/quote/reminder-stop-routes.js';
import { describeEachBackend } from '../helpers/backends.js';
import { TestClock } from '../helpers/clock.js';
import { createWorld, type TestWorld } from '../helpers/test-app.js';
import { tokenLinkSecurityCases } from '../helpers/token-link-security.js';
import { setClock } from '../domain/reports/report-fixtures.js';
import { quotingWorkspace, sentQuote } from './quote-fixtures.js';

describeEachBackend("the stop link of a customer's reminder: generated security cases", (backend) => {
  let world: TestWorld;
  let app: App;
  let clock: TestClock;
  let ws: Awaited<ReturnType<typeof quotingWorkspace>>;

  beforeAll(async () => {
    clock = new TestClock(Date.parse('2026-11-02T15:00:00Z'));
    world = await createWorld(backend, { clock });
    app = await world.app();
    ws = await quotingWorkspace(world, 'Home');
    await updateWorkspaceSettings({
      ctx: world.ctx,
      input: { workspaceId: ws.seeded.workspaceId, followUpDays: 'off', customerReminders: '3' },
    });
  });
  afterAll(async () => world.close());

  /** A quote sent on a Monday and its customer's reminder queued on the Thursday: the stop link's token. */
  async function stopToken(): Promise<string> {
    setClock(clock, '2026-11-02T15:00:00Z');
    const q = await sentQuote(world, ws, { email: 'ada@customer.test' });
    setClock(clock, '2026-11-05T14:00:00Z');
    await runFollowUps({ ctx: world.ctx, input: { emailOn: true } });
    const { outbox_id } = await world.store.db
      .selectFrom('reminders')
      .select('outbox_id')
      .where('quote_id', '=', q.quoteId)
      .executeTakeFirstOrThrow();
    const { payload } = await world.store.db
      .selectFrom('outbox')
      .select('payload')
      .where('id', '=', outbox_id!)
      .executeTakeFirstOrThrow();
    const sealed = JSON.parse(world.ctx.secrets.open(payload)) as Extract<OutboxPayload, { kind: 'follow_up' }>;
    return sealed.stopLink!.split('/q/stop/')[1]!;
  }

  tokenLinkSecurityCases(() => ({ world, app, origin: 'http://leadscan.test' }), {
    prefix: '/q/stop/',
    link: async () => ({ token: await stopToken(), other: await stopToken() }),
    formToken: (token) => stopFormToken(world.ctx, token),
    tables: ['reminders', 'audit_log', 'quotes', 'outbox'],
    okStatus: 303,
  });

  it('keeps the token out of the request log, as the quote link’s', () => {
    expect(urlForLog('/q/stop/AbCdEfGhIjKlMnOpQrStUv')).toBe('/q/[redacted]');
  });
});
