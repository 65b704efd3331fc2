import { sql } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { newId } from '../../src/domain/ids.js';
import { describeEachBackend } from '../helpers/backends.js';
import { createWorld, type Seeded, type TestWorld } from '../helpers/test-app.js';
import { handOver } from '../../src/storage/hot-writes/scan.js';

describeEachBackend('migration 0007: scan bodies stored uncompressed', (backend) => {
  let world: TestWorld;
  let ws: Seeded;
  beforeEach(async () => {
    world = await createWorld(backend);
    ws = await world.seed();
  });
  afterEach(async () => {
    await world.close();
  });

  it('stores a compressible 1 MB body byte for byte and, on PostgreSQL, out of line without compressing it', async () => {
    // Highly compressible, so pglz would shrink it if the column still allowed compression.
    const raw = Buffer.from(`{"rooms":[{"name":"A","mesh":"${'ab'.repeat(500_000)}"}]}`);
    // The SQLite writer takes the body's memory over (a transfer, not a copy): compare with a copy.
    const expected = Buffer.from(raw);
    const id = newId('scan');
    await world.store.hot.write({
      kind: 'scan',
      scan: {
        id,
        workspace_id: ws.workspaceId,
        received_at: new Date().toISOString(),
        room_count: 1,
        byte_size: expected.length,
        user_agent: null,
        raw: handOver(raw),
        idempotency_key: null,
      },
      rooms: [{ name: 'A', start: 10, end: expected.length - 2 }],
      done: null,
    });
    const row = await world.store.db.selectFrom('scans').select('raw').where('id', '=', id).executeTakeFirstOrThrow();
    expect(Buffer.from(row.raw).equals(expected)).toBe(true);
    if (backend === 'postgres') {
      const { rows } = await sql<{ storage: string; stored: number }>`
        select a.attstorage as storage, (select pg_column_size(raw) from scans where id = ${id}) as stored
        from pg_attribute a where a.attrelid = 'scans'::regclass and a.attname = 'raw'`.execute(world.store.db);
      expect(rows[0]!.storage).toBe('e');
      expect(Number(rows[0]!.stored)).toBeGreaterThanOrEqual(expected.length);
    }
  });
});
