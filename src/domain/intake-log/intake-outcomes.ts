import { sql } from 'kysely';
import type { DomainContext } from '../context.js';

export type IntakeOutcomeKind = 'accepted' | 'quarantined' | 'refused';

/**
 * One intake answer, as counted by /metrics and the intake log. `code` is the refusal's error code, the quarantine
 * reason, or '' for an accepted lead. The source is known by id once it is opened; before that (a refusal of the
 * token's shape or the rate limit) by the token in the URL, resolved when the log is flushed.
 */
export interface IntakeOutcome {
  sourceId?: string | undefined;
  token?: string | undefined;
  outcome: IntakeOutcomeKind;
  code: string;
}

/** Where intake answers are reported; counting must cost the request nothing but a map update. */
export interface IntakeRecorder {
  record(outcome: IntakeOutcome): void;
}

const SEP = '\u0000';

/**
 * The per-source intake log (CONTRACT §14): counts per source, UTC day, outcome and code, kept in memory and
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

  record({ sourceId, token, outcome, code }: IntakeOutcome): void {
    const who = sourceId ? `id:${sourceId}` : token ? `token:${token.toLowerCase()}` : undefined;
    if (!who) return;
    const dayNumber = Math.floor(this.ctx.clock.now().getTime() / 86_400_000);
    if (dayNumber !== this.day.number) {
      this.day = { number: dayNumber, text: new Date(dayNumber * 86_400_000).toISOString().slice(0, 10) };
    }
    const key = `${who}${SEP}${this.day.text}${SEP}${outcome}${SEP}${code}`;
    this.counts.set(key, (this.counts.get(key) ?? 0) + 1);
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
    try {
      await this.write(taken);
    } catch (error) {
      for (const [key, n] of taken) this.counts.set(key, (this.counts.get(key) ?? 0) + n);
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
    if (tokens.length > 0) {
      const rows = await this.ctx.store.db.selectFrom('lead_sources').select(['id', 'token']).where('token', 'in', tokens).execute();
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
    await this.ctx.store.writer.write((trx) =>
      trx
        .insertInto('intake_log')
        .values([...rows.values()])
        .onConflict((oc) =>
          oc
            .columns(['source_id', 'day', 'outcome', 'code'])
            .doUpdateSet({ count: sql<number>`${sql.ref('intake_log.count')} + ${sql.ref('excluded.count')}` }),
        )
        .execute(),
    );
  }
}
