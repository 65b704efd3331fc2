import { AppError } from '../errors.js';
import type { VerbArgs } from '../context.js';
import { findSourceByToken } from '../sources/find-source.js';
import { findActiveSourceCached } from './source-cache.js';
import { isWellFormedToken, type IntakeToken } from '../intake-token.js';
import type { LeadSource } from '../sources/source.js';

/**
 * The intake token in a URL, checked once where it is read (docs/api.md): a token that is not a canonical UUID is
 * refused before the rate limit and any database lookup.
 */
export function parseIntakeToken(raw: string): IntakeToken {
  if (!isWellFormedToken(raw)) {
    throw new AppError(
      'malformed_token',
      'The intake token in the URL is not a UUID (8-4-4-4-12 hex digits); copy the intake URL again from Leadscan',
    );
  }
  return raw.toLowerCase() as IntakeToken;
}

/**
 * The lead source an intake token opens. Unknown and deactivated tokens get the very same error, so the answer
 * does not tell a prober which tokens exist.
 */
export async function openIntake({
  ctx,
  input,
}: VerbArgs<{ token: IntakeToken; cached?: boolean }>): Promise<LeadSource> {
  // `cached`: the intake post, whose insert re-checks the source in SQL (see source-cache.ts).
  const source = input.cached
    ? await findActiveSourceCached(ctx, input.token)
    : await findSourceByToken({ ctx, input: { token: input.token } });
  if (!source || !source.active) {
    throw new AppError(
      'intake_unavailable',
      'This intake link does not exist or has been closed; ask the site owner for the current form',
    );
  }
  return source;
}
