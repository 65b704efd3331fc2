import { leadCtx, quoteCtx } from '../../helpers/contexts.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { addQuoteLine } from '../../../src/domain/quotes/add-quote-line.js';
import { createQuote } from '../../../src/domain/quotes/create-quote.js';
import { sendQuote } from '../../../src/domain/quotes/send-quote.js';
import { createDomainContext } from '../../../src/runtime.js';
import { openDatabase, type Database } from '../../../src/storage/database.js';
import { describeEachBackend, postgresAdminUrl } from '../../helpers/backends.js';
import { createWorld, type TestWorld } from '../../helpers/test-app.js';
import { leadOf, quoteWorkspace } from './quote-fixtures.js';

const SENDS = 20;
const BY = { userId: null, label: 'test' };
const expected = Array.from({ length: SENDS }, (_, i) => `Q-${String(i + 1).padStart(4, '0')}`);

async function drafts(world: TestWorld, lead: string): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < SENDS; i += 1) {
    const q = await createQuote({ ctx: await leadCtx(world.ctx, lead), input: { leadId: lead } });
    await addQuoteLine({
      ctx: await quoteCtx(world.ctx, q.id),
      input: { quoteId: q.id, line: { description: `Job ${i}`, quantity: '1', unit: 'fixed', price: '10' } },
    });
    ids.push(q.id);
  }
  return ids;
}

describeEachBackend('quote numbers under concurrent sends', (backend) => {
  let world: TestWorld;
  beforeAll(async () => {
    world = await createWorld(backend);
  });
  afterAll(async () => {
    await world.close();
  });

  it(`${SENDS} parallel sends get ${SENDS} consecutive numbers, none twice`, async () => {
    const ws = await quoteWorkspace(world, 'Parallel');
    const ids = await drafts(world, await leadOf(world, ws));
    const sent = await Promise.all(
      ids.map(async (quoteId) => sendQuote({ ctx: await quoteCtx(world.ctx, quoteId), input: { quoteId, by: BY } })),
    );
    expect(sent.map((s) => s.quote.number).sort()).toEqual(expected);
  });
});

/** Two app instances (each its own pool and commit batcher) on one PostgreSQL database, as with `serve --workers`. */
describe.skipIf(!postgresAdminUrl)('quote numbers with two app instances on one PostgreSQL', () => {
  let world: TestWorld;
  let second: Database;
  beforeAll(async () => {
    world = await createWorld('postgres');
    second = openDatabase(world.config.database);
  });
  afterAll(async () => {
    await second.close();
    await world.close();
  });

  it(`${SENDS} parallel sends through both instances: consecutive numbers, none twice`, async () => {
    const ws = await quoteWorkspace(world, 'Two instances');
    const lead = await leadOf(world, ws);
    const ids = await drafts(world, lead);
    const other = createDomainContext({ config: world.config, store: second, appSecret: world.appSecret });
    const sent = await Promise.all(
      ids.map(async (quoteId, i) =>
        sendQuote({ ctx: await quoteCtx(i % 2 === 0 ? world.ctx : other, quoteId), input: { quoteId, by: BY } }),
      ),
    );
    expect(sent.map((s) => s.quote.number).sort()).toEqual(expected);
  });
});
