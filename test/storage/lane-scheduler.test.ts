import { expect, it } from 'vitest';
import { LaneScheduler, MAX_CONFLICT_ATTEMPTS, type LaneItem } from '../../src/storage/lane-scheduler.js';

/** The scheduler alone, with a commit that fails on demand (the writers' own suites run it on real databases). */
interface Item extends LaneItem {
  name: string;
  resolve: () => void;
}

function harness(options: { lanes: number; maxBatch: number }, fail: (item: Item, tries: number) => unknown) {
  const batches: string[][] = [];
  const tries = new Map<string, number>();
  let running = 0;
  let mostRunning = 0;
  const scheduler: LaneScheduler<Item> = new LaneScheduler(options, async (batch) => {
    running += 1;
    mostRunning = Math.max(mostRunning, running);
    batches.push(batch.map((i) => i.name));
    await new Promise((resolve) => setTimeout(resolve, 1));
    running -= 1;
    for (const item of batch) {
      const n = (tries.get(item.name) ?? 0) + 1;
      tries.set(item.name, n);
      const error = fail(item, n);
      if (error) scheduler.retryOrReject(item, error);
      else item.resolve();
    }
  });
  const push = (name: string) =>
    new Promise<void>((resolve, reject) => scheduler.push({ name, attempts: 0, resolve, reject }));
  return { scheduler, push, batches, tries, mostRunning: () => mostRunning };
}

const conflict = (code: string) => Object.assign(new Error(`conflict ${code}`), { code });

it('fills up to `lanes` batches of at most `maxBatch` writes from one event-loop turn', async () => {
  const h = harness({ lanes: 2, maxBatch: 3 }, () => null);
  await Promise.all(Array.from({ length: 10 }, (_, i) => h.push(`w${i}`)));
  expect(h.batches.slice(0, 2)).toEqual([
    ['w0', 'w1', 'w2'],
    ['w3', 'w4', 'w5'],
  ]);
  expect(h.batches.flat()).toHaveLength(10);
  expect(h.mostRunning()).toBe(2);
});

it('tries a write that lost a serialization conflict or a deadlock again, and whenIdle waits for it', async () => {
  const h = harness({ lanes: 2, maxBatch: 10 }, (item, n) =>
    item.name === 'loser' && n <= 2 ? conflict(n === 1 ? '40P01' : '40001') : null,
  );
  let settled = false;
  const write = h.push('loser').then(() => (settled = true));
  void h.push('other');
  await new Promise((resolve) => setImmediate(resolve));
  await h.scheduler.whenIdle();
  expect(settled).toBe(true);
  await write;
  expect(h.tries.get('loser')).toBe(3);
  expect(h.tries.get('other')).toBe(1);
});

it('rejects a write at once on any other error, and after the last try on a conflict', async () => {
  const h = harness({ lanes: 1, maxBatch: 10 }, (item) =>
    item.name === 'bad' ? Object.assign(new Error('unique'), { code: '23505' }) : conflict('40P01'),
  );
  await expect(h.push('bad')).rejects.toMatchObject({ code: '23505' });
  expect(h.tries.get('bad')).toBe(1);
  // Once the retries are spent, the conflict is "not now" (503), with the database's error as its cause.
  await expect(h.push('unlucky')).rejects.toMatchObject({ name: 'StorageUnavailableError', cause: { code: '40P01' } });
  expect(h.tries.get('unlucky')).toBe(MAX_CONFLICT_ATTEMPTS);
});

it('fails the writes of a batch whose commit throws, instead of leaving them waiting', async () => {
  const scheduler = new LaneScheduler<Item>({ lanes: 1, maxBatch: 10 }, () => Promise.reject(new Error('bug')));
  const write = new Promise<void>((resolve, reject) => scheduler.push({ name: 'w', attempts: 0, resolve, reject }));
  await expect(write).rejects.toThrow('bug');
  await scheduler.whenIdle();
});
