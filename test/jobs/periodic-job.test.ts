import { afterEach, describe, expect, it, vi } from 'vitest';
import { periodicJob, type PeriodicJob } from '../../src/jobs/periodic-job.js';

/** A pass the test ends by hand, to hold the loop mid-pass. */
function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

/** For tests where no pass fails: an error reaches the test's own promise. */
const failTest = (error: unknown) => {
  throw error;
};

describe('periodicJob: the loop behind the background jobs', () => {
  let job: PeriodicJob<unknown> | undefined;

  afterEach(async () => {
    await job?.stop();
    job = undefined;
    vi.useRealTimers();
  });

  it('runs passes one after another: one asked for mid-pass starts when that one ends', async () => {
    const log: string[] = [];
    const first = gate();
    let n = 0;
    job = periodicJob(
      async () => {
        const mine = ++n;
        log.push(`start ${mine}`);
        if (mine === 1) await first.opened;
        log.push(`end ${mine}`);
        return mine;
      },
      { everyMs: 0, onError: failTest },
    );
    const one = job.runNow();
    const two = job.runNow();
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(log).toEqual(['start 1']);
    first.open();
    expect(await Promise.all([one, two])).toEqual([1, 2]);
    expect(log).toEqual(['start 1', 'end 1', 'start 2', 'end 2']);
  });

  it('stop waits for the pass under way and every pass already asked for, tells them through the signal, and adds none after', async () => {
    const held = gate();
    const seen: boolean[] = [];
    let passes = 0;
    job = periodicJob(
      async (signal) => {
        passes++;
        if (passes === 1) await held.opened;
        seen.push(signal.aborted);
      },
      { everyMs: 0, onError: failTest },
    );
    void job.runNow();
    void job.runNow();
    let stopped = false;
    const stopping = job.stop().then(() => {
      stopped = true;
    });
    await new Promise((resolve) => setTimeout(resolve, 10));
    expect(stopped).toBe(false);
    held.open();
    await stopping;
    expect(seen).toEqual([true, true]);
    await job.runNow();
    expect(passes).toBe(2);
  });

  it('gives a failed pass to onError and goes on with the next', async () => {
    const errors: unknown[] = [];
    let n = 0;
    job = periodicJob(
      async () => {
        n++;
        if (n === 1) throw new Error('first pass fails');
        return n;
      },
      { everyMs: 0, onError: (error) => errors.push(error) },
    );
    expect(await job.runNow()).toBeUndefined();
    expect(await job.runNow()).toBe(2);
    expect(errors.map((e) => (e as Error).message)).toEqual(['first pass fails']);
  });

  it('the timer keeps going after a failed pass, and adds a pass only when none is waiting or running', async () => {
    vi.useFakeTimers();
    const errors: unknown[] = [];
    const held = gate();
    let passes = 0;
    job = periodicJob(
      async () => {
        passes++;
        if (passes === 1) throw new Error('boom');
        if (passes === 2) await held.opened;
      },
      { everyMs: 1_000, onError: (error) => errors.push(error) },
    );
    await vi.advanceTimersByTimeAsync(1_000);
    expect(passes).toBe(1);
    expect(errors).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(passes).toBe(2);
    // Pass 2 is held: ticks while it runs add nothing, nor while one asked for by hand waits behind it.
    const byHand = job.runNow();
    await vi.advanceTimersByTimeAsync(5_000);
    expect(passes).toBe(2);
    held.open();
    await byHand;
    expect(passes).toBe(3);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(passes).toBe(4);
  });
});
