import type { BotCheckProvider } from '../../config.js';
import { BOT_CHECK_WIDGETS } from './bot-check-widget.js';
import { splitSite } from '../../domain/sources/spam-rules.js';

/**
 * Who may put the form in a frame: with allowed sites, this server and those sites (either scheme; a site's own
 * port, or any port when it names none, as the intake judges them); without, nobody is named and the form stays
 * embeddable anywhere.
 */
export function frameAncestors(allowedSites: readonly string[]): string | null {
  if (allowedSites.length === 0) return null;
  const sources = allowedSites.flatMap((site) => {
    const { host, port } = splitSite(site);
    return ['http', 'https'].map((scheme) => `${scheme}://${host}:${port ?? '*'}`);
  });
  return `frame-ancestors 'self' ${sources.join(' ')}`;
}

/**
 * The Content-Security-Policy of every hosted-form page: our own origin only, plus exactly the bot-check
 * provider's origins when the source has one. No inline script or style, so an injected value cannot run.
 * frame-ancestors names the source's allowed sites when it has some (a browser then refuses to show the form in a
 * frame on any other site); without, it is not set: owners embed the hosted form in an iframe on their own site.
 */
export function formPageCsp(provider: BotCheckProvider | null, allowedSites: readonly string[] = []): string {
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
    ...[frameAncestors(allowedSites)].filter((d) => d !== null),
  ];
  return parts.join('; ');
}

/** Headers every hosted-form page carries. */
export function formPageHeaders(
  provider: BotCheckProvider | null,
  allowedSites: readonly string[] = [],
): Record<string, string> {
  return {
    'content-security-policy': formPageCsp(provider, allowedSites),
    'x-content-type-options': 'nosniff',
    // The token is in the path: other origins (a bot-check provider) see our origin, never the path.
    'referrer-policy': 'strict-origin-when-cross-origin',
    // A page reflects whether the link is active and may hold a person's typed values: never cache it.
    'cache-control': 'no-store',
  };
}
