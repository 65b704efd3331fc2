import { recordAudit } from '../audit/record-audit.js';
import type { BotCheckProvider } from '../../config.js';
import { AppError } from '../errors.js';
import { checkText } from '../text-input.js';
import { nowIso, type VerbArgs } from '../context.js';
import { getSource } from './find-source.js';

export const BOT_CHECK_PROVIDERS: readonly BotCheckProvider[] = ['turnstile', 'hcaptcha', 'recaptcha'];

export type BotCheckInput =
  { off: true } | { off?: false; provider: string; secret: string; siteKey?: string; minScore?: number };

export interface BotCheckView {
  id: string;
  token: string;
  botCheck: { provider: BotCheckProvider; siteKey: string | null; minScore: number | null } | 'off';
}

/**
 * Said to the operator (on stderr, beside the result) when a bot check is turned on without a site key: the
 * hosted form then cannot show the widget and tells visitors it is not set up, while a form of the owner's own
 * that posts botCheckToken keeps working.
 */
export const NO_SITE_KEY_NOTE =
  'note: without --site-key the hosted form cannot show the widget; posts from your own form with botCheckToken ' +
  'still work';

/** Whether the hosted form of this configuration lacks the site key its widget needs. */
export function lacksSiteKey(view: BotCheckView): boolean {
  return view.botCheck !== 'off' && view.botCheck.siteKey === null;
}

export async function configureBotCheck({
  ctx,
  input,
}: VerbArgs<{ sourceId: string; settings: BotCheckInput }>): Promise<BotCheckView> {
  const source = await getSource({ ctx, input });
  const { settings } = input;
  if (settings.off) {
    await ctx.store.writer.write(async (trx) => {
      await trx
        .updateTable('lead_sources')
        .set({
          bot_check_provider: null,
          bot_check_secret_enc: null,
          bot_check_site_key: null,
          bot_check_min_score: null,
          updated_at: nowIso(ctx),
        })
        .where('id', '=', source.id)
        .execute();
      await recordAudit(trx, ctx, {
        action: 'source.bot_check_changed',
        workspaceId: source.workspaceId,
        targetIds: [source.id],
        details: { on: false },
      });
    });
    return { id: source.id, token: source.token, botCheck: 'off' };
  }
  const provider = settings.provider as BotCheckProvider;
  if (!BOT_CHECK_PROVIDERS.includes(provider)) {
    throw new AppError('invalid_request', `Bot-check provider must be one of ${BOT_CHECK_PROVIDERS.join(', ')}`);
  }
  if (!settings.secret?.trim()) throw new AppError('invalid_request', 'A bot check needs the provider secret');
  checkText(settings.secret, 'secret', 'The secret');
  if (settings.siteKey) checkText(settings.siteKey, 'siteKey', 'The site key');
  const minScore = settings.minScore ?? null;
  if (minScore !== null && (provider !== 'recaptcha' || !(minScore >= 0 && minScore <= 1))) {
    throw new AppError('invalid_request', 'A minimum score (0 to 1) applies to reCAPTCHA v3 only');
  }
  const siteKey = settings.siteKey?.trim() || null;
  await ctx.store.writer.write(async (trx) => {
    await trx
      .updateTable('lead_sources')
      .set({
        bot_check_provider: provider,
        bot_check_secret_enc: ctx.secrets.seal(settings.secret.trim()),
        bot_check_site_key: siteKey,
        bot_check_min_score: minScore,
        updated_at: nowIso(ctx),
      })
      .where('id', '=', source.id)
      .execute();
    await recordAudit(trx, ctx, {
      action: 'source.bot_check_changed',
      workspaceId: source.workspaceId,
      targetIds: [source.id],
      details: { on: true },
    });
  });
  return { id: source.id, token: source.token, botCheck: { provider, siteKey, minScore } };
}
