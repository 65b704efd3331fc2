import type { VerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import { AUDIT_ACTIONS, isAuditAction, type AuditAction } from './audit-actions.js';

export interface AuditRecordView {
  id: string;
  at: string;
  workspaceId: string | null;
  actor: { kind: 'user' | 'cli' | 'system'; userId: string | null; label: string };
  action: AuditAction;
  targetIds: string[];
  details: Record<string, number | boolean>;
}

export interface AuditPage {
  records: AuditRecordView[];
  /** Pass as `after` for the next (older) page; null on the last page. */
  next: string | null;
}

export interface AuditFilters {
  /**
   * A workspace's records, plus the sign-ins of its current members (the Audit log screen); null: every record,
   * server-wide ones included (the operator's CLI).
   */
  workspaceId: string | null;
  action?: string;
  /** The person who acted (a user id). */
  actorUserId?: string;
  /** `YYYY-MM-DD` (UTC day) or an ISO instant, inclusive. */
  since?: string;
  /** `YYYY-MM-DD` (the whole UTC day) or an ISO instant, inclusive. */
  until?: string;
  /** The cursor of the previous page. */
  after?: string;
  limit?: number;
}

const DAY = /^\d{4}-\d{2}-\d{2}$/;

function instant(field: 'since' | 'until', value: string): string {
  const text = value.trim();
  const iso = DAY.test(text) ? (field === 'since' ? `${text}T00:00:00.000Z` : `${text}T23:59:59.999Z`) : text;
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) {
    throw new AppError('invalid_fields', `${field === 'since' ? 'From' : 'To'} is a date like 2026-03-31`, [
      { field, code: 'invalid', message: 'A date like 2026-03-31' },
    ]);
  }
  return new Date(ms).toISOString();
}

/** The keyset cursor: the last record's (at, id), opaque to callers. */
function encodeCursor(record: { at: string; id: string }): string {
  return Buffer.from(`${record.at}|${record.id}`).toString('base64url');
}

function decodeCursor(cursor: string): { at: string; id: string } {
  const [at, id] = Buffer.from(cursor, 'base64url').toString('utf8').split('|');
  if (!at || !id || Number.isNaN(Date.parse(at)) || !/^aud_[0-9a-f]{32}$/.test(id)) {
    throw new AppError('invalid_arguments', 'That page cursor is not one this list gave');
  }
  return { at, id };
}

/** Server-wide records an owner sees for the workspace's current members. */
const MEMBERS_OWN_ACTIONS: AuditAction[] = ['sign_in.succeeded', 'account.set_up', 'account.password_set_by_link'];

/** The audit log, newest first, one keyset page at a time (docs/operations.md, "The audit log"). */
export async function listAudit({ ctx, input }: VerbArgs<AuditFilters>): Promise<AuditPage> {
  const limit = Math.min(Math.max(input.limit ?? 50, 1), 1000);
  if (input.action !== undefined && input.action !== '' && !isAuditAction(input.action)) {
    throw new AppError('invalid_fields', `Unknown action; one of ${AUDIT_ACTIONS.join(', ')}`, [
      { field: 'action', code: 'invalid', message: 'Choose an action from the list' },
    ]);
  }
  const since = input.since ? instant('since', input.since) : undefined;
  const until = input.until ? instant('until', input.until) : undefined;
  const after = input.after ? decodeCursor(input.after) : undefined;
  const { workspaceId } = input;
  const rows = await ctx.store.db
    .selectFrom('audit_log')
    .selectAll()
    .$if(workspaceId !== null, (q) =>
      q.where((eb) =>
        eb.or([
          eb('workspace_id', '=', workspaceId!),
          // Sign-ins and passwords set through a link belong to no workspace; an owner sees those of the people who
          // are members now.
          eb.and([
            eb('workspace_id', 'is', null),
            eb('action', 'in', MEMBERS_OWN_ACTIONS),
            eb(
              'actor_user_id',
              'in',
              eb.selectFrom('memberships').select('user_id').where('workspace_id', '=', workspaceId!),
            ),
          ]),
        ]),
      ),
    )
    .$if(Boolean(input.action), (q) => q.where('action', '=', input.action!))
    .$if(Boolean(input.actorUserId), (q) => q.where('actor_user_id', '=', input.actorUserId!))
    .$if(since !== undefined, (q) => q.where('at', '>=', since!))
    .$if(until !== undefined, (q) => q.where('at', '<=', until!))
    .$if(after !== undefined, (q) =>
      q.where((eb) => eb.or([eb('at', '<', after!.at), eb.and([eb('at', '=', after!.at), eb('id', '<', after!.id)])])),
    )
    .orderBy('at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit + 1)
    .execute();
  const page = rows.slice(0, limit);
  return {
    records: page.map((row) => ({
      id: row.id,
      at: row.at,
      workspaceId: row.workspace_id,
      actor: {
        kind: row.actor_kind as AuditRecordView['actor']['kind'],
        userId: row.actor_user_id,
        label: row.actor_label,
      },
      action: row.action as AuditAction,
      targetIds: JSON.parse(row.target_ids) as string[],
      details: JSON.parse(row.details) as Record<string, number | boolean>,
    })),
    next: rows.length > limit ? encodeCursor(page.at(-1)!) : null,
  };
}
