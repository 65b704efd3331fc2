import type { DomainContext } from '../domain/context.js';
import { measureScan, scansToMeasure } from '../domain/scans/measure-scan.js';
import { periodicJob } from './periodic-job.js';

export interface ScanMeasurer {
  /** Waits for the scan being measured, then stops. */
  stop(): Promise<void>;
}

/** How often the sweep looks for unmeasured scans, and how many it measures per look. */
const SWEEP_EVERY_MS = 2_000;
const SCANS_PER_SWEEP = 4;
/** A scan is received (its time taken) a moment before it commits; a minute's overlap never misses one. */
const CAUGHT_UP_MARGIN_MS = 60_000;

/**
 * Measures new scans after they are committed, off the upload path: the upload answers as soon as its bytes are
 * on disk, and a few seconds later this sweep reads its rooms into figures. A few scans per sweep keeps it a small
 * share of the CPU while uploads pour in; the backlog is measured when they stop. A scan's page measures a scan
 * it finds unmeasured itself, so nobody waits for the sweep.
 */
export function startScanMeasurer(ctx: DomainContext, onError: (error: unknown) => void): ScanMeasurer {
  // Until the first sweep that finds less than a full batch, every scan is looked at (a new reader version, scans
  // uploaded while no server ran); after that only scans received since a little before the last look.
  let since: string | undefined;
  const sweep = async (stopping: AbortSignal) => {
    const startedAt = ctx.clock.now().getTime();
    const due = await scansToMeasure(ctx, SCANS_PER_SWEEP, since);
    for (const scanId of due) {
      if (stopping.aborted) return;
      await measureScan({ ctx, input: { scanId } });
    }
    if (due.length < SCANS_PER_SWEEP) since = new Date(startedAt - CAUGHT_UP_MARGIN_MS).toISOString();
  };
  // The timer adds no sweep while one is at work: sweeps never pile up behind a slow one.
  const job = periodicJob(sweep, { everyMs: SWEEP_EVERY_MS, onError });
  return { stop: job.stop };
}
