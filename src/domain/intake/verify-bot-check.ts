import { AppError } from '../errors.js';
import type { VerbArgs } from '../context.js';
import type { LeadSource } from '../sources/source.js';

export type BotCheckOutcome = 'off' | 'passed' | 'unverified';

/**
 * Bot check for one intake submission (CONTRACT §2). Off when the source has none. Absent or refused token:
 * AppError('bot_check_failed'). Provider unreachable or slower than BOT_CHECK_TIMEOUT_MS: 'unverified' (the lead
 * is still stored). Called before the store step, never inside a write transaction.
 */
export async function verifyBotCheck({
  input,
}: VerbArgs<{ source: LeadSource; token: string | undefined; remoteIp: string | null }>): Promise<BotCheckOutcome> {
  if (!input.source.botCheck) return 'off';
  // Provider verification lands with the abuse-protection work (issue 6).
  throw new AppError('internal_error', 'Bot check verification is not available yet');
}
