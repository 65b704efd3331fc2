import { userActor } from '../audit/actor.js';
import { recordAudit } from '../audit/record-audit.js';
import { nowIso, type DomainContext, type VerbArgs } from '../context.js';
import { hashToken, looksLikeToken, mintToken } from './secret-token.js';

export const SESSION_COOKIE = 'leadscan_session';
export const SESSION_IDLE_MS = 14 * 24 * 60 * 60 * 1000;
export const SESSION_ABSOLUTE_MS = 30 * 24 * 60 * 60 * 1000;
/** last_seen_at is written at most this often per session: a page view is not a database write. */
const TOUCH_EVERY_MS = 60 * 1000;

export interface SignedInUser {
  userId: string;
  email: string;
  displayName: string;
  /** The session's hash: identifies "this session" (to keep it on a password change) without the id itself. */
  sessionHash: string;
}

/** A new database session; the returned id goes into the cookie and nowhere else. */
export async function createSession({
  ctx,
  input,
}: VerbArgs<{ userId: string; signIn?: { displayName: string } }>): Promise<{ sessionId: string }> {
  const sessionId = mintToken();
  const now = ctx.clock.now();
  await ctx.store.writer.write(async (trx) => {
    await trx
      .insertInto('sessions')
      .values({
        id_hash: hashToken(sessionId),
        user_id: input.userId,
        created_at: now.toISOString(),
        last_seen_at: now.toISOString(),
        expires_at: new Date(now.getTime() + SESSION_ABSOLUTE_MS).toISOString(),
      })
      .execute();
    // A sign-in is recorded with its session: the person is the actor (no page context exists yet).
    if (input.signIn) {
      const actor = userActor({ userId: input.userId, displayName: input.signIn.displayName });
      await recordAudit(
        trx,
        { ...ctx, actor },
        { action: 'sign_in.succeeded', workspaceId: null, targetIds: [input.userId] },
      );
    }
  });
  return { sessionId };
}

/**
 * The person behind a cookie, read from the database on every request (no cache), so a sign-out or password
 * change on one instance ends the session on all of them. Idle for 14 days or older than 30: gone.
 */
export async function resolveSession({ ctx, input }: VerbArgs<{ sessionId: string }>): Promise<SignedInUser | null> {
  if (!looksLikeToken(input.sessionId)) return null;
  const idHash = hashToken(input.sessionId);
  const row = await ctx.store.db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .select(['sessions.user_id', 'sessions.last_seen_at', 'sessions.expires_at', 'users.email', 'users.display_name'])
    .where('sessions.id_hash', '=', idHash)
    .executeTakeFirst();
  if (!row) return null;
  const now = ctx.clock.now();
  const idleEnd = new Date(Date.parse(row.last_seen_at) + SESSION_IDLE_MS);
  if (row.expires_at <= now.toISOString() || idleEnd <= now) {
    await endSession({ ctx, input: { sessionId: input.sessionId } });
    return null;
  }
  if (now.getTime() - Date.parse(row.last_seen_at) >= TOUCH_EVERY_MS) {
    await ctx.store.writer.write((trx) =>
      trx.updateTable('sessions').set({ last_seen_at: now.toISOString() }).where('id_hash', '=', idHash).execute(),
    );
  }
  return { userId: row.user_id, email: row.email, displayName: row.display_name, sessionHash: idHash };
}

/** Sign-out: the session row goes, so the cookie is worthless everywhere at once. */
export async function endSession({ ctx, input }: VerbArgs<{ sessionId: string }>): Promise<void> {
  if (!looksLikeToken(input.sessionId)) return;
  await ctx.store.writer.write((trx) =>
    trx.deleteFrom('sessions').where('id_hash', '=', hashToken(input.sessionId)).execute(),
  );
}

/** Expired rows are dropped when someone signs in, so the table does not grow without bound. */
export async function pruneSessions(ctx: DomainContext): Promise<void> {
  const now = ctx.clock.now();
  const idleCutoff = new Date(now.getTime() - SESSION_IDLE_MS).toISOString();
  await ctx.store.writer.write((trx) =>
    trx
      .deleteFrom('sessions')
      .where((eb) => eb.or([eb('expires_at', '<=', nowIso(ctx)), eb('last_seen_at', '<=', idleCutoff)]))
      .execute(),
  );
}
