export interface PeriodicJob<T> {
  /**
   * One pass, after the one under way and any already waiting; resolves with its result (undefined if it failed).
   * After stop no pass is added: it resolves when the last one ends.
   */
  runNow(): Promise<T | undefined>;
  /** Stops the timer, tells the pass under way through its signal, and waits for every pass already asked for. */
  stop(): Promise<void>;
}

export interface PeriodicJobOptions {
  /** How often the timer asks for a pass; 0 for none (tests call runNow). */
  everyMs: number;
  /** Where a failed pass goes; the next pass runs as usual. */
  onError(error: unknown): void;
}

/**
 * The loop behind the server's background jobs. Passes run one after another: one asked for while another runs
 * starts when it ends, so it sees what was committed before it was asked for. The timer adds a pass only when
 * none is waiting or running, so passes never pile up behind a slow one. The signal given to a pass is aborted by
 * stop, for a long pass to end early between its steps.
 */
export function periodicJob<T>(pass: (signal: AbortSignal) => Promise<T>, options: PeriodicJobOptions): PeriodicJob<T> {
  const stopping = new AbortController();
  let running: Promise<T | undefined> = Promise.resolve(undefined);
  let asked = 0;

  const onePass = async () => {
    try {
      return await pass(stopping.signal);
    } catch (error) {
      options.onError(error);
      return undefined;
    } finally {
      asked--;
    }
  };

  const runNow = () => {
    if (stopping.signal.aborted) return running;
    asked++;
    running = running.then(onePass);
    return running;
  };

  const timer =
    options.everyMs > 0
      ? setInterval(() => {
          if (asked === 0) void runNow();
        }, options.everyMs)
      : undefined;
  timer?.unref();

  return {
    runNow,
    async stop() {
      stopping.abort();
      clearInterval(timer);
      await running;
    },
  };
}
