import { afterEach, beforeEach, expect, it } from 'vitest';
import { openIntake, parseIntakeToken } from '../../src/domain/intake/open-intake.js';
import { submitLead } from '../../src/domain/intake/submit-lead.js';
import { erasePerson } from '../../src/domain/persons/erase-person.js';
import { addQuoteLine } from '../../src/domain/quotes/add-quote-line.js';
import { createQuote } from '../../src/domain/quotes/create-quote.js';
import { sendQuote } from '../../src/domain/quotes/send-quote.js';
import { updateQuote } from '../../src/domain/quotes/update-quote.js';
import { createUser } from '../../src/domain/users/create-user.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { inWorkspace } from '../../src/domain/context.js';

/** An erasure takes the emails to the person out of the outbox too: their address is plain text there. */
describeEachBackend('a person’s erasure and the emails sent to them', (backend) => {
  let world: TestWorld;
  let seeded: Seeded;
  beforeEach(async () => {
    // Email on (a port nothing listens on): sends queue their emails, which stay in the outbox.
    world = await createWorld(backend, {
      env: { NOTIFY_EMAILS: 'on', SMTP_URL: 'smtp://127.0.0.1:1', MAIL_FROM: 'Leadscan <leads@example.com>' },
    });
    seeded = await world.seed('Acme');
  });
  afterEach(async () => {
    await world.close();
  });

  it('deletes the sent quote’s email to the person, addressed as on the lead or as edited on the quote, and keeps the others', async () => {
    const ctx = world.ctx;
    const workspaceId = seeded.workspaceId;
    const owner = await createUser({
      ctx,
      input: { email: 'olga@acme.example', workspaceId, role: 'owner', displayName: 'Olga' },
    });
    const source = await openIntake({ ctx, input: { token: parseIntakeToken(seeded.source.token) } });
    const meta = { clientIp: '203.0.113.9', userAgent: 'ua', origin: null, referer: null };
    const person = await submitLead({
      ctx,
      input: { source, body: { name: 'Zed Erased', email: 'Zed@Example.com' }, meta },
    });
    const other = await submitLead({
      ctx,
      input: { source, body: { name: 'Kept Person', email: 'kept@example.com' }, meta },
    });

    const send = async (leadId: string, customerEmail?: string) => {
      const quote = await createQuote({ ctx: inWorkspace(ctx, workspaceId), input: { leadId } });
      if (customerEmail)
        await updateQuote({
          ctx: inWorkspace(ctx, workspaceId),
          input: { quoteId: quote.id, details: { customerEmail } },
        });
      await addQuoteLine({
        ctx: inWorkspace(ctx, workspaceId),
        input: {
          quoteId: quote.id,
          line: { description: 'Sanding', quantity: '10', unit: 'm2', price: '12.50' },
        },
      });
      await sendQuote({
        ctx: inWorkspace(ctx, workspaceId),
        input: {
          quoteId: quote.id,
          by: { userId: owner.userId, label: 'Olga' },
          email: { replyTo: 'olga@acme.example', senderName: 'Olga' },
        },
      });
    };
    await send(person.leadId);
    await send(person.leadId, 'zed.work@example.com');
    await send(other.leadId);
    const addresses = async () =>
      (await world.store.db.selectFrom('outbox').select('to_address').where('purpose', '=', 'quote_sent').execute())
        .map((r) => r.to_address.toLowerCase())
        .sort();
    expect(await addresses()).toEqual(['kept@example.com', 'zed.work@example.com', 'zed@example.com']);

    await erasePerson({ ctx: inWorkspace(ctx, workspaceId), input: { email: 'zed@example.com' } });
    expect(await addresses()).toEqual(['kept@example.com']);
  });
});
