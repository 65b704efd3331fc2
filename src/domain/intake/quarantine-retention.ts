/** Honeypot catches are kept per source for 30 days, at most 10,000 of them, oldest dropped first (docs/api.md). */
export const QUARANTINE_RETENTION = { days: 30, perSource: 10_000 } as const;

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Catches received before this instant are past retention: never listed or restored, and pruned by the hot write
 * that adds a catch to the same source (storage/hot-writes/quarantine.ts).
 */
export function quarantineCutoff(now: Date): string {
  return new Date(now.getTime() - QUARANTINE_RETENTION.days * DAY_MS).toISOString();
}
