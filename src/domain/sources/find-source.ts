import { AppError } from '../errors.js';
import type { DomainContext } from '../context.js';
import { looksLikeId } from '../ids.js';
import { isWellFormedToken } from '../intake-token.js';
import { toLeadSource, type LeadSource } from './source.js';

/** The source that owns a token, active or not; null when no source has it. */
export async function findSourceByToken({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: { token: string };
}): Promise<LeadSource | null> {
  const row = await ctx.store.db
    .selectFrom('lead_sources')
    .selectAll()
    .where('token', '=', input.token.toLowerCase())
    .executeTakeFirst();
  return row ? toLeadSource(row) : null;
}

/**
 * A source by its id (`src_…`, as `leads list` shows) or its intake token (docs/cli.md), as the CLI's management
 * commands take it; anything else, or no such source, is an error naming it.
 */
export async function requireSource({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: { ref: string };
}): Promise<LeadSource> {
  const ref = input.ref.trim();
  if (looksLikeId('src', ref)) return getSource({ ctx, input: { sourceId: ref } });
  if (!isWellFormedToken(ref)) {
    throw new AppError(
      'malformed_token',
      `"${ref}" is neither a lead source id (src_…) nor an intake token (a UUID such as 0b6e…-…)`,
    );
  }
  const source = await findSourceByToken({ ctx, input: { token: ref } });
  if (!source) throw new AppError('source_not_found', `No lead source has the token ${ref}`);
  return source;
}

/** A source by its id, active or not; no such source is "not found". */
export async function getSource({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: { sourceId: string };
}): Promise<LeadSource> {
  const row = await ctx.store.db
    .selectFrom('lead_sources')
    .selectAll()
    .where('id', '=', input.sourceId)
    .executeTakeFirst();
  if (!row) throw new AppError('source_not_found', `No lead source has the id ${input.sourceId}`);
  return toLeadSource(row);
}

/** The bot-check provider secret, decrypted; only the intake path needs it. */
export async function readBotCheckSecret({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: { sourceId: string };
}): Promise<string | null> {
  const row = await ctx.store.db
    .selectFrom('lead_sources')
    .select('bot_check_secret_enc')
    .where('id', '=', input.sourceId)
    .executeTakeFirst();
  return row?.bot_check_secret_enc ? ctx.secrets.open(row.bot_check_secret_enc) : null;
}
