import type { BotCheckProvider } from '../config.js';

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
    csp: { script: ['https://challenges.cloudflare.com'], frame: ['https://challenges.cloudflare.com'], style: [], connect: [] },
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
