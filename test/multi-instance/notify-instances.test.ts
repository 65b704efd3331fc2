import crypto from 'node:crypto';
import pg from 'pg';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTestDatabase, postgresAdminUrl, type TestDatabase } from '../helpers/backends.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';
import { eventually, serveProcess, type ServeProcess } from './serve-process.js';

const LEADS = 200;

/**
 * One sender across instances: two `leadscan serve` processes on one PostgreSQL database, both with email on,
 * take 200 leads between them. Each lead is announced exactly once, whichever instance took it and whichever sent.
 */
describe.skipIf(!postgresAdminUrl)(
  'email notifications with two instances on one PostgreSQL',
  { timeout: 120_000 },
  () => {
    let testDb: TestDatabase;
    let sink: SmtpSink;
    const running: ServeProcess[] = [];

    beforeEach(async () => {
      testDb = await createTestDatabase('postgres');
      sink = await startSmtpSink();
    });
    afterEach(async () => {
      await Promise.all(running.splice(0).map((p) => p.stop()));
      await sink.stop();
      await testDb.drop();
    });

    it(`${LEADS} leads posted to both instances: each announced exactly once`, async () => {
      const env = {
        DATABASE_URL: testDb.url,
        APP_SECRET: crypto.randomBytes(32).toString('base64url'),
        PUBLIC_BASE_URL: 'http://leadscan.test',
        INTAKE_RATE_LIMIT: '0',
        SMTP_URL: sink.url,
        MAIL_FROM: 'leads@leadscan.test',
        // Every notifier round may send: the instances race for the same leads as often as they can.
        EMAIL_BATCH_SECONDS: '0',
      };
      const a = await serveProcess([], env);
      running.push(a);
      const b = await serveProcess([], env);
      running.push(b);
      const token = /\/api\/intake\/([0-9a-f-]{36})/.exec(a.output())![1]!;
      const emails = Array.from({ length: LEADS }, (_, i) => `lead-${String(i).padStart(3, '0')}@multi.test`);
      // In waves, so leads keep arriving while both notifiers run.
      for (let wave = 0; wave < LEADS; wave += 40) {
        const statuses = await Promise.all(
          emails.slice(wave, wave + 40).map(async (email, i) => {
            const res = await fetch(`${[a, b][i % 2]!.url}/api/intake/${token}`, {
              method: 'POST',
              headers: { 'content-type': 'application/json' },
              body: JSON.stringify({ name: 'Two Instances', email }),
            });
            return res.status;
          }),
        );
        expect(statuses).toEqual(Array(statuses.length).fill(200));
        await new Promise((resolve) => setTimeout(resolve, 700));
      }
      // An email names each source's first leads and counts the rest ("150 more leads from …"): a lead is announced by
      // name or within a count, and the two together must come to every lead exactly once.
      const mentions = () => {
        const named = new Map<string, number>();
        let counted = 0;
        for (const mail of sink.messages) {
          const text = mail.text ?? '';
          for (const [address] of text.matchAll(/lead-\d{3}@multi\.test/g))
            named.set(address, (named.get(address) ?? 0) + 1);
          for (const [, n] of text.matchAll(/^([\d,]+) more leads? from /gm)) counted += Number(n!.replace(/,/g, ''));
        }
        return { named, counted, total: [...named.values()].reduce((a, n) => a + n, 0) + counted };
      };
      await eventually(() => (mentions().total >= LEADS ? true : undefined), 'every lead announced', 60_000);
      await new Promise((resolve) => setTimeout(resolve, 5000));
      const { named, total } = mentions();
      expect([...named.values()].filter((n) => n !== 1)).toEqual([]);
      expect([...named.keys()].every((address) => emails.includes(address))).toBe(true);
      expect(total).toBe(LEADS);
      expect(sink.messages.length).toBeGreaterThan(1);
      const direct = new pg.Client({ connectionString: testDb.url });
      await direct.connect();
      try {
        const states = await direct.query<{ state: string; n: number }>(
          'select state, count(*)::int as n from outbox group by state',
        );
        expect(states.rows).toEqual([{ state: 'sent', n: sink.messages.length }]);
      } finally {
        await direct.end();
      }
    });
  },
);
