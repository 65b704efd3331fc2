import type { BotCheckProvider } from '../../config.js';
import { BOT_CHECK_WIDGETS } from './bot-check-widget.js';

/**
 * The Content-Security-Policy of every hosted-form page: our own origin only, plus exactly the bot-check
 * provider's origins when the source has one. No inline script or style, so an injected value cannot run.
 * frame-ancestors is deliberately not set: owners embed the hosted form in an iframe on their own site, and
 * framing a public contact form gains an attacker nothing (the intake endpoint is open to any origin anyway).
 */
export function formPageCsp(provider: BotCheckProvider | null): string {
  const extra = provider ? BOT_CHECK_WIDGETS[provider].csp : { script: [], frame: [], style: [], connect: [] };
  const directive = (name: string, sources: string[]) => `${name} ${sources.join(' ')}`;
  const parts = [
    "default-src 'none'",
    directive('script-src', ["'self'", ...extra.script]),
    directive('style-src', ["'self'", ...extra.style]),
    directive('connect-src', ["'self'", ...extra.connect]),
    "img-src 'self'",
    ...(extra.frame.length ? [directive('frame-src', extra.frame)] : []),
    "form-action 'self'",
    "base-uri 'none'",
  ];
  return parts.join('; ');
}

/** Headers every hosted-form page carries. */
export function formPageHeaders(provider: BotCheckProvider | null): Record<string, string> {
  return {
    'content-security-policy': formPageCsp(provider),
    'x-content-type-options': 'nosniff',
    // The token is in the path: other origins (a bot-check provider) see our origin, never the path.
    'referrer-policy': 'strict-origin-when-cross-origin',
    // A page reflects whether the link is active and may hold a person's typed values: never cache it.
    'cache-control': 'no-store',
  };
}
