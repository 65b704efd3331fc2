import type { Kysely, Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';
import { recordAudit } from '../audit/record-audit.js';
import { nowIso, type VerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { hashQuoteToken, isQuoteToken } from '../quotes/quote-token.js';

/** What the stop link's page says: whose quote, and whether its reminders are stopped. */
export interface ReminderStop {
  workspaceName: string;
  /** `Q-0007`, or `Q-0007 rev 2`. */
  number: string;
  stopped: boolean;
}

type Db = Kysely<Schema> | Transaction<Schema>;

/** The reminder a stop link was sent with; `quote_not_found` for a link that leads nowhere (as the quote's link). */
async function reminderOf(db: Db, token: string) {
  const row = isQuoteToken(token)
    ? await db
        .selectFrom('reminders as r')
        .innerJoin('quotes as q', 'q.id', 'r.quote_id')
        .innerJoin('workspaces as w', 'w.id', 'r.workspace_id')
        .select(['r.id', 'r.chain_id', 'r.quote_id', 'r.workspace_id', 'q.lead_id', 'q.number', 'q.revision', 'w.name'])
        .where('r.stop_token_hash', '=', hashQuoteToken(token))
        .executeTakeFirst()
    : undefined;
  if (!row || row.chain_id === null)
    throw new AppError(
      'quote_not_found',
      'This link leads to no quote: it may have been mistyped, or the quote was deleted',
    );
  return row;
}

async function isStopped(db: Db, chainId: string): Promise<boolean> {
  const stopped = await db
    .selectFrom('reminders')
    .select('id')
    .where('chain_id', '=', chainId)
    .where('stopped_at', 'is not', null)
    .executeTakeFirst();
  return stopped !== undefined;
}

const numberOf = (row: { number: string | null; revision: number }) =>
  `${row.number ?? 'Quote'}${Number(row.revision) > 1 ? ` rev ${row.revision}` : ''}`;

/** The stop link's page (`GET /q/stop/{token}`): reads only, so a mail scanner that fetches the link stops nothing. */
export async function openReminderStop({ ctx, input }: VerbArgs<{ token: string }>): Promise<ReminderStop> {
  const row = await reminderOf(ctx.store.db, input.token);
  return { workspaceName: row.name, number: numberOf(row), stopped: await isStopped(ctx.store.db, row.chain_id!) };
}

/**
 * The customer stops the reminders of a quote (docs/quotes.md, "Follow-ups"): no later reminder of it, of this
 * revision or a later one, is queued, and one already queued is dropped when its turn comes. Once is enough: a second
 * press changes nothing and records nothing. The quote itself, and its link, stay as they are.
 */
export async function stopReminders({ ctx, input }: VerbArgs<{ token: string }>): Promise<ReminderStop> {
  return ctx.store.writer.write(async (trx) => {
    const row = await reminderOf(trx, input.token);
    if (!(await isStopped(trx, row.chain_id!))) {
      await trx
        .updateTable('reminders')
        .set({ stopped_at: nowIso(ctx) })
        .where('id', '=', row.id)
        .execute();
      await recordAudit(trx, ctx, {
        action: 'quote.reminders_stopped',
        workspaceId: row.workspace_id,
        targetIds: [row.quote_id!, row.lead_id],
        details: { revision: Number(row.revision) },
      });
    }
    return { workspaceName: row.name, number: numberOf(row), stopped: true };
  });
}
