import { sql } from 'kysely';
import type { DomainContext } from '../context.js';

export type { IntakeOutcome, IntakeOutcomeKind, IntakeRecorder } from '../intake-recorder.js';
import type { IntakeOutcome, IntakeRecorder } from '../intake-recorder.js';

const SEP = '\u0000';

/**
 * Bounds, so a flood of refusals (random tokens, say) cannot grow memory or break the flush: at most MAX_KEYS
 * counters wait in memory (new ones past that are dropped: /metrics still counts every answer), and a flush writes
 * in chunks of FLUSH_CHUNK, well under SQLite's limit on bound parameters.
 */
export const MAX_KEYS = 10_000;
/**
 * Of those, counters keyed by a token not yet resolved to a source (refused before the lookup: the rate limit).
 * Bounded on their own, so a flood of made-up tokens cannot crowd out the counts of real sources.
 */
export const MAX_TOKEN_KEYS = 1_000;
const FLUSH_CHUNK = 500;

/**
 * The per-source intake log (docs/operations.md): counts per source, UTC day, outcome and code, kept in memory and
 * added to the `intake_log` table every few seconds and on shutdown through the group-commit writer, so the
 * intake's own transactions never wait on it. The upsert adds, so several instances sum up. Refusals whose token
 * names no source (malformed, unknown) are not logged: they belong to no owner's form (/metrics counts them).
 */
export class IntakeLog implements IntakeRecorder {
  private counts = new Map<string, number>();
  private timer: NodeJS.Timeout | undefined;
  /** The UTC day's text, made once a day rather than once a request. */
  private day = { number: NaN, text: '' };

  constructor(
    private readonly ctx: DomainContext,
    private readonly onError: (error: unknown) => void = () => {},
  ) {}

  /** Counters dropped because MAX_KEYS were waiting (a flood, or a database that has not taken a flush for long). */
  dropped = 0;

  record({ sourceId, token, outcome, code }: IntakeOutcome): void {
    // A malformed token never got this far: it names no source, and it could be any string at all.
    const who = sourceId ? `id:${sourceId}` : token ? `token:${token}` : undefined;
    if (!who) return;
    const dayNumber = Math.floor(this.ctx.clock.now().getTime() / 86_400_000);
    if (dayNumber !== this.day.number) {
      this.day = { number: dayNumber, text: new Date(dayNumber * 86_400_000).toISOString().slice(0, 10) };
    }
    const key = `${who}${SEP}${this.day.text}${SEP}${outcome}${SEP}${code}`;
    this.add(key, 1);
  }

  private tokenKeys = 0;

  private add(key: string, n: number): void {
    const count = this.counts.get(key);
    if (count === undefined) {
      const byToken = key.startsWith('token:');
      if (this.counts.size >= MAX_KEYS || (byToken && this.tokenKeys >= MAX_TOKEN_KEYS)) {
        this.dropped += n;
        return;
      }
      if (byToken) this.tokenKeys += 1;
    }
    this.counts.set(key, (count ?? 0) + n);
  }

  /** Counters waiting for the next flush. */
  get pending(): number {
    return this.counts.size;
  }

  /** Flushes every `everyMs` until `stop()`; the timer never keeps the process alive. */
  start(everyMs = 10_000): void {
    this.timer ??= setInterval(() => {
      this.flush().catch(this.onError);
    }, everyMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    this.timer = undefined;
    await this.flush();
  }

  /** Adds the counts so far to the table; on failure they are kept for the next flush. */
  async flush(): Promise<void> {
    if (this.counts.size === 0) return;
    const taken = this.counts;
    this.counts = new Map();
    this.tokenKeys = 0;
    try {
      await this.write(taken);
    } catch (error) {
      // Kept for the next flush, within the same bound as new counts: a database that stays down costs no memory.
      for (const [key, n] of taken) this.add(key, n);
      throw error;
    }
  }

  private async write(taken: Map<string, number>): Promise<void> {
    const entries = [...taken].map(([key, count]) => {
      const [who, day, outcome, code] = key.split(SEP) as [string, string, string, string];
      return { who, day, outcome, code, count };
    });
    const tokens = [...new Set(entries.filter((e) => e.who.startsWith('token:')).map((e) => e.who.slice(6)))];
    const byToken = new Map<string, string>();
    // Unknown tokens resolve to nothing here and are never stored: only a real source's counts reach the table.
    for (const chunk of chunks(tokens, FLUSH_CHUNK)) {
      const rows = await this.ctx.store.db
        .selectFrom('lead_sources')
        .select(['id', 'token'])
        .where('token', 'in', chunk)
        .execute();
      for (const row of rows) byToken.set(row.token, row.id);
    }
    const rows = new Map<string, { source_id: string; day: string; outcome: string; code: string; count: number }>();
    for (const e of entries) {
      const sourceId = e.who.startsWith('id:') ? e.who.slice(3) : byToken.get(e.who.slice(6));
      if (!sourceId) continue;
      const key = [sourceId, e.day, e.outcome, e.code].join(SEP);
      const row = rows.get(key) ?? { source_id: sourceId, day: e.day, outcome: e.outcome, code: e.code, count: 0 };
      row.count += e.count;
      rows.set(key, row);
    }
    if (rows.size === 0) return;
    // One transaction, so a failed flush added nothing and the counts it puts back are not counted twice.
    await this.ctx.store.writer.write(async (trx) => {
      for (const chunk of chunks([...rows.values()], FLUSH_CHUNK)) {
        await trx
          .insertInto('intake_log')
          .values(chunk)
          .onConflict((oc) =>
            oc
              .columns(['source_id', 'day', 'outcome', 'code'])
              .doUpdateSet({ count: sql<number>`${sql.ref('intake_log.count')} + ${sql.ref('excluded.count')}` }),
          )
          .execute();
      }
    });
  }
}

function chunks<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
