import { sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import type { DomainContext } from '../context.js';
import type { DialectOps } from '../../storage/dialect-ops.js';

/**
 * Possible duplicates (docs/admin-app.md): a lead whose email (trimmed, any case) or phone (its digits, the last ten
 * of them: storage/contact-keys.ts) matches a lead of the same workspace received in the 365 days before it. Worked
 * out when leads are read, not at intake: each check is one range of the (workspace_id, email_key|phone_key,
 * received_at) indexes of migration 0021, so intake pays only for the two index entries, a deleted or restored
 * earlier lead is never a stale mark, and nothing is merged or refused.
 */
export const DUPLICATE_WINDOW_DAYS = 365;

/** `leads.received_at` less the window, as the same ISO text the column holds. */
function windowStart(ops: DialectOps) {
  return ops.daysBefore(sql`leads.received_at`, DUPLICATE_WINDOW_DAYS);
}

function earlierBy(ops: DialectOps, key: 'email_key' | 'phone_key'): Expression<SqlBool> {
  return sql<SqlBool>`exists (select 1 from leads e where e.workspace_id = leads.workspace_id
    and e.${sql.ref(key)} = leads.${sql.ref(key)} and e.received_at < leads.received_at
    and e.received_at >= ${windowStart(ops)})`;
}

/** Whether the row of `leads` in scope is a possible duplicate: for the inbox mark, its filter and the CSV. */
export function possibleDuplicate(ops: DialectOps): RawBuilder<SqlBool> {
  return sql<SqlBool>`(${earlierBy(ops, 'email_key')} or ${earlierBy(ops, 'phone_key')})`;
}

export interface EarlierLead {
  id: string;
  name: string | null;
  receivedAt: string;
  /** What matched: `email`, `phone` or both. */
  matchedBy: Array<'email' | 'phone'>;
}

/** At most this many earlier leads are linked from a lead's page (newest first). */
export const EARLIER_SHOWN = 10;

/** The earlier leads a lead may duplicate, newest first: the links on its page. */
export async function earlierLeadsOf(
  ctx: DomainContext,
  lead: { id: string; workspaceId: string; receivedAt: string; emailKey: string | null; phoneKey: string | null },
): Promise<EarlierLead[]> {
  const from = new Date(Date.parse(lead.receivedAt) - DUPLICATE_WINDOW_DAYS * 86_400_000).toISOString();
  const by = async (key: 'email_key' | 'phone_key', value: string | null) =>
    value === null
      ? []
      : ctx.store.db
          .selectFrom('leads')
          .select(['id', 'name', 'received_at'])
          .where('workspace_id', '=', lead.workspaceId)
          .where(key, '=', value)
          .where('received_at', '<', lead.receivedAt)
          .where('received_at', '>=', from)
          .orderBy('received_at', 'desc')
          .limit(EARLIER_SHOWN)
          .execute();
  const [byEmail, byPhone] = await Promise.all([by('email_key', lead.emailKey), by('phone_key', lead.phoneKey)]);
  const found = new Map<string, EarlierLead>();
  for (const [rows, what] of [
    [byEmail, 'email'],
    [byPhone, 'phone'],
  ] as const) {
    for (const r of rows) {
      const entry = found.get(r.id) ?? { id: r.id, name: r.name, receivedAt: r.received_at, matchedBy: [] };
      entry.matchedBy.push(what);
      found.set(r.id, entry);
    }
  }
  return [...found.values()].sort((a, b) => b.receivedAt.localeCompare(a.receivedAt)).slice(0, EARLIER_SHOWN);
}
