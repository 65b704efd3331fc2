import type { Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';
import type { Actor, DomainContext } from '../context.js';
import { newId } from '../ids.js';
import { SYSTEM_ACTOR } from './actor.js';
import type { AuditAction } from './audit-actions.js';

/**
 * What a record may say beyond its ids: counts and flags only. The type has no room for text, so a lead's fields,
 * an email, a key or a password cannot be put into the audit log by mistake.
 */
export type AuditDetails = Record<string, number | boolean>;

export interface AuditEntry {
  action: AuditAction;
  /** Null for server-wide actions (a person created or removed on the CLI). */
  workspaceId: string | null;
  /** Ids of what was acted on (a source, a lead, a member's user id…), never names or emails. */
  targetIds?: string[];
  details?: AuditDetails;
}

/**
 * The one way to write an audit record: call it with the `trx` of the change it records, so the change and its
 * record commit together or not at all (docs/operations.md, "The audit log"). One line per audited verb:
 *
 *     await recordAudit(trx, ctx, { action: 'source.created', workspaceId, targetIds: [sourceId] });
 *
 * The actor is `ctx.actor` (the signed-in person on pages, `cli` on the CLI, the system in jobs), the time `ctx.clock`.
 */
export async function recordAudit(
  trx: Transaction<Schema>,
  ctx: Pick<DomainContext, 'clock' | 'actor'>,
  entry: AuditEntry,
): Promise<void> {
  const actor: Actor = ctx.actor ?? SYSTEM_ACTOR;
  await trx
    .insertInto('audit_log')
    .values({
      id: newId('aud'),
      at: ctx.clock.now().toISOString(),
      workspace_id: entry.workspaceId,
      actor_kind: actor.kind,
      actor_user_id: actor.kind === 'user' ? actor.userId : null,
      actor_label: actor.kind === 'user' ? actor.displayName : actor.kind === 'cli' ? actor.osUser : 'system',
      action: entry.action,
      target_ids: JSON.stringify(entry.targetIds ?? []),
      details: JSON.stringify(entry.details ?? {}),
    })
    .execute();
}

/** For an audited read (a key shown, an export downloaded): the record is the whole write. */
export async function recordAuditAlone(ctx: DomainContext, entry: AuditEntry): Promise<void> {
  await ctx.store.writer.write((trx) => recordAudit(trx, ctx, entry));
}
