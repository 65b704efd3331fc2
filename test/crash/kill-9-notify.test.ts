import crypto from 'node:crypto';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { createTestDatabase, describeEachBackend, type TestDatabase } from '../helpers/backends.js';
import { parsePrometheusText } from '../ops/prometheus-text.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';
import { eventually, serveProcess, type ServeProcess } from '../multi-instance/serve-process.js';

const LEADS = 30;

/** The lead emails (`crash-N@notify.test`) each email names, counted over every email the sink got. */
function mentions(sink: SmtpSink): Map<string, number> {
  const seen = new Map<string, number>();
  for (const mail of sink.messages) {
    for (const [address] of (mail.text ?? '').matchAll(/crash-\d+@notify\.test/g))
      seen.set(address, (seen.get(address) ?? 0) + 1);
  }
  return seen;
}

/**
 * A committed lead is announced even when the server dies before the email goes out: `leadscan serve` (a real
 * process) takes leads while the mail server is down, is killed with SIGKILL right after the last 200, and is
 * started again with the mail server back. Every lead arrives in an email, none twice.
 */
describeEachBackend('kill -9 after leads commit, before their email is sent', (backend) => {
  let testDb: TestDatabase;
  let sink: SmtpSink;
  let server: ServeProcess | undefined;
  let env: Record<string, string>;
  beforeAll(async () => {
    testDb = await createTestDatabase(backend);
    sink = await startSmtpSink();
    env = {
      DATABASE_URL: testDb.url,
      APP_SECRET: crypto.randomBytes(32).toString('base64url'),
      PUBLIC_BASE_URL: 'http://crash.test',
      INTAKE_RATE_LIMIT: '0',
      SMTP_URL: sink.url,
      MAIL_FROM: 'leads@crash.test',
      EMAIL_BATCH_SECONDS: '0',
      METRICS_TOKEN: 'metrics-token-for-the-crash-test',
    };
  });
  afterEach(async () => {
    await server?.stop();
  });
  afterAll(async () => {
    await sink.stop();
    await testDb.drop();
  });

  it('announces every lead after the restart, each once', { timeout: 240_000 }, async () => {
    await sink.stop();
    const first = await serveProcess([], env);
    const token = /\/api\/intake\/([0-9a-f-]{36})/.exec(first.output())![1]!;
    const answers = await Promise.all(
      Array.from({ length: LEADS }, async (_, i) => {
        const res = await fetch(`${first.url}/api/intake/${token}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ name: `Crash ${i}`, email: `crash-${i}@notify.test` }),
        });
        return res.status;
      }),
    );
    first.child.kill('SIGKILL');
    await first.exited;
    expect(answers).toEqual(Array(LEADS).fill(200));
    expect(sink.messages).toHaveLength(0);

    await sink.start();
    server = await serveProcess([], env);
    // A retry the killed process had scheduled waits out its backoff (30 s), a claim it held lapses (2 min).
    await eventually(() => (mentions(sink).size === LEADS ? true : undefined), `${LEADS} leads announced`, 200_000);
    // Two more notifier rounds: nothing is sent again.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const counts = mentions(sink);
    expect([...counts.values()]).toEqual(Array(LEADS).fill(1));
    expect(sink.messages.every((mail) => mail.to && 'text' in mail.to && mail.to.text === 'admin@localhost')).toBe(
      true,
    );

    // What the restarted server sent is in /metrics, and nothing waits.
    const metrics = await fetch(`${server.url}/metrics`, { headers: { authorization: `Bearer ${env.METRICS_TOKEN}` } });
    const samples = parsePrometheusText(await metrics.text());
    const value = (name: string, labels: Record<string, string> = {}) =>
      samples.find((s) => s.name === name && Object.entries(labels).every(([k, v]) => s.labels[k] === v))?.value;
    expect(value('leadscan_emails_total', { outcome: 'sent' })).toBeGreaterThanOrEqual(1);
    expect(value('leadscan_outbox_waiting')).toBe(0);
    expect(value('leadscan_outbox_oldest_waiting_seconds')).toBe(0);
  });
});
