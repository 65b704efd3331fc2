import type { FastifyRequest } from 'fastify';

/**
 * Headers of every admin response: our origin only, no inline script, never framed (the hosted form, which
 * owners embed, has its own policy), nothing cached (pages show keys and personal data).
 */
export const ADMIN_HEADERS: Record<string, string> = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; form-action " +
    "'self'; frame-ancestors 'none'; base-uri 'none'; object-src 'none'",
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'same-origin',
  'cache-control': 'no-store',
};

/**
 * The second CSRF line beside the token: a POST must come from our own pages. Browsers send Origin on POST and
 * Sec-Fetch-Site on every request; when present, they must say "same origin" (PUBLIC_BASE_URL's origin or the
 * origin the request was addressed to). A client that sends neither (curl) still needs the session's token.
 */
export function fromOurOrigin(request: FastifyRequest, publicBaseUrl: string): boolean {
  const site = request.headers['sec-fetch-site'];
  if (site !== undefined && site !== 'same-origin') return false;
  const origin = request.headers.origin;
  if (origin === undefined) return true;
  const ours = new Set([new URL(publicBaseUrl).origin, `${request.protocol}://${request.host}`]);
  return ours.has(origin);
}
