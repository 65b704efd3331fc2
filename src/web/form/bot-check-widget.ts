import type { BotCheckProvider } from '../../config.js';
import type { BotCheckSettings } from '../../domain/sources/source.js';

export interface BotCheckWidget {
  /** The provider's loader script, the only third-party asset a form page may load. */
  scriptUrl: string;
  /** The class the provider's script looks for to render its widget. */
  className: string;
  /** The form field the widget fills with its single-use token; mapped to `botCheckToken`. */
  responseField: string;
  /** Origins the provider needs, per CSP directive, and nothing else. */
  csp: { script: string[]; frame: string[]; style: string[]; connect: string[] };
}

/** From each provider's CSP documentation. */
export const BOT_CHECK_WIDGETS: Record<BotCheckProvider, BotCheckWidget> = {
  turnstile: {
    scriptUrl: 'https://challenges.cloudflare.com/turnstile/v0/api.js',
    className: 'cf-turnstile',
    responseField: 'cf-turnstile-response',
    csp: {
      script: ['https://challenges.cloudflare.com'],
      frame: ['https://challenges.cloudflare.com'],
      style: [],
      connect: [],
    },
  },
  hcaptcha: {
    scriptUrl: 'https://js.hcaptcha.com/1/api.js',
    className: 'h-captcha',
    responseField: 'h-captcha-response',
    csp: {
      script: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
      frame: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
      style: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
      connect: ['https://hcaptcha.com', 'https://*.hcaptcha.com'],
    },
  },
  recaptcha: {
    scriptUrl: 'https://www.google.com/recaptcha/api.js',
    className: 'g-recaptcha',
    responseField: 'g-recaptcha-response',
    csp: {
      script: ['https://www.google.com/recaptcha/', 'https://www.gstatic.com/recaptcha/'],
      frame: ['https://www.google.com/recaptcha/', 'https://recaptcha.google.com/recaptcha/'],
      style: [],
      connect: [],
    },
  },
};

/**
 * Every provider's response field name. hCaptcha also fills `g-recaptcha-response` for compatibility, so all of
 * them are dropped from a submission; none is ever stored as an extra field.
 */
export const BOT_CHECK_RESPONSE_FIELDS = Object.values(BOT_CHECK_WIDGETS).map((w) => w.responseField);

/** The `data-bot-check` value of a reCAPTCHA v3 form: no widget, the script asks for a token on each submit. */
export const RECAPTCHA_V3 = 'recaptcha-v3';

/**
 * What the hosted form does for a source's bot check:
 * - widget: the provider's widget (Turnstile, hCaptcha, reCAPTCHA v2) fills its own field;
 * - recaptcha-v3: no widget; the provider's script is loaded with `?render=<siteKey>` and the form's script asks
 *   it for a fresh token before each submit (v3 tokens are single use and expire after two minutes);
 * - unconfigured: no site key, so nothing can produce a token in the page; the form says so instead of showing a
 *   broken widget, and loads nothing from the provider.
 */
export type FormBotCheck =
  | { kind: 'widget'; provider: BotCheckProvider; siteKey: string; widget: BotCheckWidget }
  | { kind: 'recaptcha-v3'; provider: 'recaptcha'; siteKey: string; scriptUrl: string }
  | { kind: 'unconfigured'; provider: BotCheckProvider };

export function formBotCheck(settings: BotCheckSettings | null): FormBotCheck | null {
  if (!settings) return null;
  const { provider, siteKey } = settings;
  if (!siteKey) return { kind: 'unconfigured', provider };
  const widget = BOT_CHECK_WIDGETS[provider];
  // LeadSource.botCheck.minScore is set for reCAPTCHA v3 only (configureBotCheck refuses it elsewhere).
  if (provider === 'recaptcha' && settings.minScore !== null) {
    return {
      kind: 'recaptcha-v3',
      provider,
      siteKey,
      scriptUrl: `${widget.scriptUrl}?render=${encodeURIComponent(siteKey)}`,
    };
  }
  return { kind: 'widget', provider, siteKey, widget };
}

/**
 * The provider whose origins the page's CSP allows: only when the page loads its script. v3 uses the same
 * Google origins as v2 (its script and its invisible anchor frame), so both share BOT_CHECK_WIDGETS.recaptcha.csp.
 */
export function cspProviderOf(botCheck: FormBotCheck | null): BotCheckProvider | null {
  return botCheck && botCheck.kind !== 'unconfigured' ? botCheck.provider : null;
}
