import { AppError } from '../errors.js';
import type { VerbArgs } from '../context.js';
import { findSourceByToken } from '../sources/find-source.js';
import { findActiveSourceCached } from './source-cache.js';
import { isWellFormedToken, type LeadSource } from '../sources/source.js';

/**
 * The lead source an intake token opens (docs/api.md). A token that is not a canonical UUID is refused before any
 * database lookup. Unknown and deactivated tokens get the very same error, so the answer does not tell a prober
 * which tokens exist.
 */
export async function openIntake({ ctx, input }: VerbArgs<{ token: string; cached?: boolean }>): Promise<LeadSource> {
  if (!isWellFormedToken(input.token)) {
    throw new AppError(
      'malformed_token',
      'The intake token in the URL is not a UUID (8-4-4-4-12 hex digits); copy the intake URL again from Leadscan',
    );
  }
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
