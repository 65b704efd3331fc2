import { AppError } from '../errors.js';
import type { DomainContext } from '../context.js';
import { isWellFormedToken, toLeadSource, type LeadSource } from './source.js';

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

/** For management commands: a bad or unknown token is an error naming it. */
export async function requireSourceByToken({
  ctx,
  input,
}: {
  ctx: DomainContext;
  input: { token: string };
}): Promise<LeadSource> {
  if (!isWellFormedToken(input.token)) {
    throw new AppError('malformed_token', `"${input.token}" is not a lead source token (a UUID such as 0b6e…-…)`);
  }
  const source = await findSourceByToken({ ctx, input });
  if (!source) throw new AppError('source_not_found', `No lead source has the token ${input.token}`);
  return source;
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
