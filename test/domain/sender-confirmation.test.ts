import { afterEach, beforeEach, expect, it } from 'vitest';
import { HONEYPOT_FIELD } from '../../src/domain/lead-fields.js';
import { deliverDueEmails } from '../../src/domain/notifications/deliver-emails.js';
import { CONFIRMATIONS_PER_SOURCE_PER_DAY } from '../../src/domain/notifications/sender-confirmation.js';
import { erasePerson } from '../../src/domain/persons/erase-person.js';
import { setSenderConfirmation } from '../../src/domain/sources/set-sender-confirmation.js';
import { openIntake, parseIntakeToken } from '../../src/domain/intake/open-intake.js';
import { submitLead } from '../../src/domain/intake/submit-lead.js';
import { describeEachBackend } from '../helpers/backends.js';
import { TestClock } from '../helpers/clock.js';
import { startSmtpSink, type SmtpSink } from '../helpers/smtp-sink.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { inWorkspace } from '../../src/domain/context.js';

const DAY = 24 * 60 * 60_000;

/** The confirmation to the person who sent a form (CONTRACT §17): through a real SMTP server on loopback. */
describeEachBackend('the confirmation to the sender', (backend) => {
  let sink: SmtpSink;
  let world: TestWorld;
  let clock: TestClock;
  let seeded: Seeded;

  beforeEach(async () => {
    sink = await startSmtpSink();
    clock = new TestClock(Date.parse('2026-03-02T12:00:00.000Z'));
    world = await createWorld(backend, {
      clock,
      env: { SMTP_URL: sink.url, MAIL_FROM: 'Leadscan <leads@leadscan.test>' },
    });
    seeded = await world.seed('Acme Renovations');
  });

  afterEach(async () => {
    await world.close();
    await sink.stop();
  });

  const post = async (payload: Record<string, unknown>) => {
    const app = await world.app();
    const res = await app.inject({ method: 'POST', url: `/api/intake/${seeded.source.token}`, payload });
    expect(res.statusCode).toBe(200);
  };
  /** Sends what the outbox holds (no notifier runs: only confirmations are queued) and waits for `total` messages. */
  const send = async (total: number) => {
    await deliverDueEmails(world.ctx, { limit: 500 });
    await new Promise((resolve) => setTimeout(resolve, 200));
    return sink.waitFor(total);
  };
  const confirmations = async () =>
    world.store.db
      .selectFrom('outbox')
      .select(['to_address', 'state'])
      .where('purpose', '=', 'confirmation')
      .orderBy('created_at')
      .execute();
  const setBusiness = (email: string | null) =>
    world.store.db
      .updateTable('workspaces')
      .set({ business_email: email, business_phone: '+1 514-555-0100', business_address: '12 Main St\nMontréal' })
      .where('id', '=', seeded.workspaceId)
      .execute();
  const turnOn = () =>
    setSenderConfirmation({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { sourceId: seeded.source.id, on: true },
    });

  it('off by default; on, the sender gets one email with the business’s contact, Reply-To the business, nothing they typed', async () => {
    await post({ name: 'Before', email: 'before@example.com' });
    expect(await confirmations()).toEqual([]);
    // On needs the business email that replies go to.
    await expect(turnOn()).rejects.toMatchObject({ code: 'invalid_fields', fieldErrors: [{ field: 'confirmSender' }] });
    await setBusiness('office@acme.test');
    await turnOn();

    await post({
      name: 'Mallory <b>Spammer</b>',
      email: 'Victim@Example.com',
      notes: 'Click https://phish.example now',
      pitch: 'free money',
    });
    const [mail] = await send(1);
    expect((mail!.to as { text: string }).text.toLowerCase()).toBe('victim@example.com');
    expect(mail!.replyTo?.value).toEqual([{ address: 'office@acme.test', name: '' }]);
    expect(mail!.subject).toBe('We got your request · Acme Renovations');
    expect(mail!.text).toContain('Thank you for contacting Acme Renovations');
    expect(mail!.text).toContain('+1 514-555-0100');
    expect(mail!.text).toContain('office@acme.test');
    const everything = `${mail!.subject}${mail!.text}${String(mail!.html)}`;
    for (const typed of ['Mallory', 'Spammer', 'phish', 'free money', 'Victim'])
      expect(everything).not.toContain(typed);
    expect(String(mail!.html)).toContain('href="tel:+15145550100"');
    // Once sent, the outbox no longer holds the visitor's address.
    expect(await confirmations()).toEqual([{ to_address: '(the person who sent the form)', state: 'sent' }]);
    const kept = await world.store.db.selectFrom('confirmation_sends').selectAll().execute();
    expect(JSON.stringify(kept).toLowerCase()).not.toContain('victim');

    // The same address again the same day (any case): nothing more.
    await post({ name: 'Again', email: 'victim@example.com' });
    // A quarantined post (the honeypot filled) gets none.
    await post({ name: 'Bot', email: 'bot@example.com', [HONEYPOT_FIELD]: 'http://spam.example' });
    // An address mail cannot go to gets none.
    await post({ name: 'Broken', email: 'two@example.com, three@example.com' });
    await deliverDueEmails(world.ctx, { limit: 500 });
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(sink.messages).toHaveLength(1);
    expect(await confirmations()).toHaveLength(1);

    // The next day, the same address gets one again; turned off, nobody does.
    clock.advance(DAY);
    await post({ name: 'Tomorrow', email: 'victim@example.com' });
    await send(2);
    await setSenderConfirmation({
      ctx: inWorkspace(world.ctx, seeded.workspaceId),
      input: { sourceId: seeded.source.id, on: false },
    });
    await post({ name: 'Off', email: 'off@example.com' });
    expect(await confirmations()).toHaveLength(2);
  });

  it('one a day per mailbox: plus-tags, case, and dots where the provider ignores them name the same mailbox', async () => {
    await setBusiness('office@acme.test');
    await turnOn();
    for (const email of [
      'victim@example.com',
      'victim+1@example.com',
      'Victim+2@Example.com',
      'v.ictim@gmail.com',
      'victim+x@gmail.com',
      'VIC.TIM@googlemail.com',
      // Dots are part of the mailbox elsewhere: another person.
      'v.ictim@example.com',
    ])
      await post({ name: 'Same person?', email });
    expect((await confirmations()).map((c) => c.to_address)).toEqual([
      'victim@example.com',
      'v.ictim@gmail.com',
      'v.ictim@example.com',
    ]);
  });

  it(`at most ${CONFIRMATIONS_PER_SOURCE_PER_DAY} a day per source, exactly, with posts arriving together`, async () => {
    await setBusiness('office@acme.test');
    await turnOn();
    const ctx = world.ctx;
    const source = await openIntake({ ctx, input: { token: parseIntakeToken(seeded.source.token) } });
    const meta = { clientIp: '203.0.113.9', userAgent: 'ua', origin: null, referer: null };
    const total = CONFIRMATIONS_PER_SOURCE_PER_DAY + 20;
    await Promise.all(
      Array.from({ length: total }, (_, i) =>
        submitLead({ ctx, input: { source, body: { name: `P${i}`, email: `p${i}@example.com` }, meta } }),
      ),
    );
    expect(await world.store.db.selectFrom('leads').select('id').execute()).toHaveLength(total);
    expect(await confirmations()).toHaveLength(CONFIRMATIONS_PER_SOURCE_PER_DAY);
    const [count] = await world.store.db.selectFrom('confirmation_counts').select('sent').execute();
    expect(Number(count!.sent)).toBe(CONFIRMATIONS_PER_SOURCE_PER_DAY);
  });

  it('erasing the person removes their confirmation record and the confirmation still waiting', async () => {
    await setBusiness('office@acme.test');
    await turnOn();
    await sink.stop(); // nothing is sent: the confirmation waits in the outbox with the address
    await post({ name: 'Zed', email: 'zed@example.com', phone: '+1 514 555 0111' });
    await post({ name: 'Kept', email: 'kept@example.com' });
    expect((await confirmations()).map((c) => c.to_address).sort()).toEqual(['kept@example.com', 'zed@example.com']);
    expect(await world.store.db.selectFrom('confirmation_sends').select('address_hash').execute()).toHaveLength(2);
    // Erased by phone: the email they gave on the lead is theirs too.
    await erasePerson({ ctx: inWorkspace(world.ctx, seeded.workspaceId), input: { phone: '+1 514 555 0111' } });
    expect((await confirmations()).map((c) => c.to_address)).toEqual(['kept@example.com']);
    expect(await world.store.db.selectFrom('confirmation_sends').select('address_hash').execute()).toHaveLength(1);
  });
});
