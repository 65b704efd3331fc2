import type { Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';
import { nowIso, type DomainContext, type VerbArgs } from '../context.js';
import { AppError, checkAllFields, isAppError } from '../errors.js';
import { assertNameFree, checkName } from '../unique-name.js';
import { checkNewPassword, hashPassword } from './password.js';
import { recordAudit } from '../audit/record-audit.js';
import { checkDisplayName } from '../display-name.js';
import { checkEmail, emailKey, FIRST_OWNER_EMAIL } from '../email-address.js';
import { currentFingerprint } from './credentials-fingerprint.js';
import { usableLinkOwner, useOneTimeLink } from './one-time-link.js';
import { hashToken, looksLikeToken, mintToken } from './secret-token.js';

export const SETUP_LINK_TTL_MS = 24 * 60 * 60 * 1000;

export interface SetupLink {
  setupUrl: string;
  expiresAt: string;
}

export function setupUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/setup/${token}`;
}

/**
 * Who saw a link besides the person: `operator` for the CLI on the server and the first-start banner (the person
 * who runs the server is trusted by every workspace on it), `email` for a link sent to the account's own address
 * (an invitation or a password reset by email: nobody else saw it), or the workspace whose owner was shown it on the
 * Members screen. The first two prove the email; see `setPasswordWithLink`.
 */
export type LinkWitness = 'operator' | 'email' | { workspaceId: string };

/**
 * A one-time link where a person sets their password, inside the caller's transaction. Only the token's hash is
 * stored; a new link replaces the person's unused ones, so only the latest link printed works, and it is tied to the
 * account's password and email as they are now (`issued_for`): a change of either ends it. Callers issue one
 * only to the person or the operator, or for an account the inviting workspace just created: never for an
 * existing account on someone else's request (that would hand the account over).
 */
export async function issueSetupLink(
  trx: Transaction<Schema>,
  ctx: DomainContext,
  userId: string,
  witness: LinkWitness,
  baseUrl: string = ctx.config.publicBaseUrl,
): Promise<SetupLink> {
  const token = mintToken();
  const now = ctx.clock.now();
  const expiresAt = new Date(now.getTime() + SETUP_LINK_TTL_MS).toISOString();
  await trx.deleteFrom('setup_links').where('user_id', '=', userId).where('used_at', 'is', null).execute();
  const issuedFor = await currentFingerprint(trx, userId);
  await trx
    .insertInto('setup_links')
    .values({
      token_hash: hashToken(token),
      user_id: userId,
      created_at: now.toISOString(),
      expires_at: expiresAt,
      used_at: null,
      shown_in_workspace_id: typeof witness === 'string' ? null : witness.workspaceId,
      issued_for: issuedFor,
    })
    .execute();
  return { setupUrl: setupUrl(baseUrl, token), expiresAt };
}

const unusable = () =>
  new AppError(
    'setup_link_unusable',
    'This link was already used, a newer one replaced it, the password or email changed since, or it has expired. ' +
      'Ask an owner for a new one (leadscan user reset-password --email …)',
  );

export interface OpenedSetupLink {
  userId: string;
  email: string;
  /** The account is still the first start's admin@localhost: the page asks for the owner's real email and name. */
  firstOwner: boolean;
}

/**
 * Who a usable link is for (the set-password page shows the email); refused when used, expired, unknown, replaced,
 * or issued before the account's password or email last changed.
 */
export async function openSetupLink({ ctx, input }: VerbArgs<{ token: string }>): Promise<OpenedSetupLink> {
  if (!looksLikeToken(input.token)) throw unusable();
  const userId = await usableLinkOwner(ctx.store.db, 'setup_links', input.token, nowIso(ctx));
  if (userId === null) throw unusable();
  const { email } = await ctx.store.db
    .selectFrom('users')
    .select('email')
    .where('id', '=', userId)
    .executeTakeFirstOrThrow();
  return { userId, email, firstOwner: emailKey(email) === FIRST_OWNER_EMAIL };
}

/** What the first start's setup page asks besides the password; `businessName`, when given, names the workspace. */
export interface FirstOwnerProfile {
  email: string;
  displayName: string;
  businessName?: string;
}

/** The business's name as a workspace name (the same rules), refused beside the page's own field. */
function checkBusinessName(name: string): string {
  try {
    return checkName('workspace', name);
  } catch (error) {
    if (!isAppError(error)) throw error;
    throw new AppError('invalid_fields', error.detail, [
      {
        field: 'businessName',
        code: 'invalid',
        message: 'Give the name of your business (1 to 120 characters, one line)',
      },
    ]);
  }
}

/**
 * Set the password through a link: used once (the conditional UPDATE is the guard, so two tabs racing get one
 * winner), and every session of the person ends, since a reset usually means a lost or shared password. For the
 * first start's admin@localhost, `profile` replaces the placeholder email and name in the same write.
 */
export async function setPasswordWithLink({
  ctx,
  input,
}: VerbArgs<{
  token: string;
  password: string;
  repeat?: string;
  profile?: FirstOwnerProfile;
}>): Promise<OpenedSetupLink & { displayName: string }> {
  const link = await openSetupLink({ ctx, input });
  // Only the placeholder account takes a new email here: any other account changes it through a confirmation link.
  const given = link.firstOwner ? input.profile : undefined;
  // Every rule at once: the page shows each refused field beside it in one answer.
  checkAllFields([
    () => checkNewPassword(input.password),
    () => {
      if (input.repeat !== undefined && input.repeat !== input.password) {
        throw new AppError('invalid_fields', 'The two passwords differ', [
          { field: 'repeat', code: 'invalid', message: 'This is not the same as the password above' },
        ]);
      }
    },
    () => given && checkEmail(given.email),
    () => given && checkDisplayName(given.displayName),
    () => given?.businessName !== undefined && checkBusinessName(given.businessName),
  ]);
  const password = input.password;
  const profile = given
    ? { email: checkEmail(given.email), display_name: checkDisplayName(given.displayName) }
    : undefined;
  const businessName = given?.businessName !== undefined ? checkBusinessName(given.businessName) : undefined;
  const passwordHash = await hashPassword(password);
  const now = nowIso(ctx);
  let chosenName: string | undefined;
  await ctx.store.writer.write(async (trx) => {
    if (!(await useOneTimeLink(trx, ctx.store.ops, 'setup_links', input.token, now))) throw unusable();
    const { shown_in_workspace_id: shownIn } = await trx
      .selectFrom('setup_links')
      .select('shown_in_workspace_id')
      .where('token_hash', '=', hashToken(input.token))
      .executeTakeFirstOrThrow();
    // A link only the person (or the operator) saw proves the email is theirs; one an inviter saw proves nothing
    // beyond that workspace, since the inviter could have used it themselves.
    const proof = shownIn
      ? { email_proven_at: null, link_workspace_id: shownIn }
      : { email_proven_at: now, link_workspace_id: null };
    if (profile) {
      const taken = await trx
        .selectFrom('users')
        .select('id')
        .where('email_key', '=', emailKey(profile.email))
        .where('id', '!=', link.userId)
        .executeTakeFirst();
      if (taken) {
        throw new AppError('email_taken', `${profile.email} is already the email of another account`, [
          { field: 'email', code: 'invalid', message: 'Another account already uses this email' },
        ]);
      }
    }
    const before = await trx
      .selectFrom('users')
      .select(['password_hash', 'display_name'])
      .where('id', '=', link.userId)
      .executeTakeFirstOrThrow();
    chosenName = before.display_name;
    await trx
      .updateTable('users')
      .set({
        password_hash: passwordHash,
        password_changed_at: now,
        ...proof,
        ...(profile
          ? { email: profile.email, email_key: emailKey(profile.email), display_name: profile.display_name }
          : {}),
      })
      .where('id', '=', link.userId)
      .execute();
    // The first owner's workspace (the first start's "Default") takes the business's name: it heads the public form.
    if (businessName !== undefined) {
      const home = await trx
        .selectFrom('memberships')
        .select('workspace_id')
        .where('user_id', '=', link.userId)
        .where('role', '=', 'owner')
        .orderBy('created_at')
        .executeTakeFirst();
      if (home) {
        await assertNameFree(trx, 'workspaces', { name: businessName, exceptId: home.workspace_id });
        await trx.updateTable('workspaces').set({ name: businessName }).where('id', '=', home.workspace_id).execute();
        // The email given here is offered as the business's email (quotes, the sender confirmation's Reply-To),
        // when none is set yet; Settings changes it (docs/admin-app.md, "First sign-in").
        if (profile)
          await trx
            .updateTable('workspaces')
            .set({ business_email: profile.email })
            .where('id', '=', home.workspace_id)
            .where('business_email', 'is', null)
            .execute();
      }
    }
    // An invitation belongs to the address it was sent to: those waiting for admin@localhost are not the new one's.
    if (profile && emailKey(profile.email) !== emailKey(link.email))
      await trx.deleteFrom('invitations').where('user_id', '=', link.userId).execute();
    await trx.deleteFrom('sessions').where('user_id', '=', link.userId).execute();
    // Recorded as the person themself (nobody is signed in on the link's page): an account's first password, or a
    // reset link used (emailed by Forgot password, printed by the CLI, or shown to an owner on the Members screen).
    const actor = {
      kind: 'user' as const,
      userId: link.userId,
      displayName: profile?.display_name ?? before.display_name,
    };
    await recordAudit(
      trx,
      { ...ctx, actor },
      {
        action: before.password_hash === null ? 'account.set_up' : 'account.password_set_by_link',
        workspaceId: shownIn ?? null,
        targetIds: [link.userId],
      },
    );
  });
  return profile
    ? { ...link, email: profile.email, displayName: profile.display_name }
    : { ...link, displayName: chosenName! };
}
