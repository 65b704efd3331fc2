import type { FastifyPluginAsync } from 'fastify';
import { AppError, isErrorCode, type ErrorCode } from '../../domain/errors.js';
import { HTTP_ERRORS } from '../error-statuses.js';

const HELP: Partial<Record<ErrorCode, string>> = {
  malformed_token: 'The intake URL must end in the lead source token, a UUID such as 0b6e2c1a-…; copy the URL again.',
  unreadable_body:
    'Send JSON, form-encoded, multipart/form-data, or text/plain holding a JSON object, in UTF-8 (scan uploads: JSON).',
  missing_contact: 'Give at least one of name, phone or email.',
  invalid_fields: 'One or more fields are too long or of the wrong type; see `errors`.',
  intake_unavailable: 'The intake link is unknown or was deactivated by its owner.',
  missing_scan_key: 'Send the workspace upload key in the x-scan-key header.',
  invalid_scan_key:
    'The upload key is wrong or was regenerated. Sign in to the web app (/login; it opens on your workspace) and ' +
    'copy the current key from the Scans screen (Show or Copy); `npx leadscan key show --workspace W` prints it too.',
  csrf_failed: 'The form was not sent from this site, or its session changed. Reload the page and send it again.',
  quote_updated: 'The quote was revised after the page was opened: reload it, read the new version, then answer it.',
  quote_expired: 'The quote is past its valid-until date; ask the sender for a new one.',
  quote_link_unusable: 'The sender withdrew this quote; ask them for a new one.',
  quote_final: 'The quote was already accepted or declined; that answer stands. Copy it to start a new quote.',
  quote_not_editable: 'A sent quote is never changed: revise it to make a new draft revision, and send that.',
  owner_only:
    'Only an owner of the workspace can do this; ask an owner (Members screen) to do it or to make you owner.',
  invalid_credentials: 'The email or password is wrong. After 10 failures in 15 minutes, sign-in waits (429).',
  setup_link_unusable:
    'Setup links work once and for 24 hours. `npx leadscan user reset-password --email E` prints a new one.',
  email_not_proven:
    "This account's password was set through a link someone else was shown, so it cannot join another workspace " +
    'yet. Ask whoever runs the server for `npx leadscan user reset-password --email E`; setting the password ' +
    'through that link proves the address.',
  last_owner: 'A workspace always keeps an owner: make someone else owner before removing or demoting the last one.',
  body_too_large:
    'The body is over the limit: 64 KiB for a lead, SCAN_MAX_BYTES (32 MiB by default) for a scan upload.',
  rate_limited: 'Too many requests; wait for the number of seconds in Retry-After.',
  unsupported_encoding:
    'The body is compressed with a Content-Encoding that is not read here. Send it uncompressed, or as gzip, ' +
    'deflate or br (Accept-Encoding lists them).',
  client_aborted: 'The connection closed before the whole request arrived; nothing was stored. Send the request again.',
  request_timeout:
    'The request did not arrive in time (headers within 20 s, the whole request within 10 min by default); send it ' +
    'again.',
  uri_too_long: 'The URL is longer than this server reads (8 KiB); the intake and scan URLs need no query string.',
  headers_too_large:
    'The request headers are larger than this server reads (16 KiB in all); send fewer or shorter headers.',
};

function escape(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** Problem `type` URIs resolve to a page that explains the code. */
export const problemDocsRoutes: FastifyPluginAsync = async (app) => {
  app.get<{ Params: { code: string } }>('/problems/:code', { schema: { hide: true } }, async (request, reply) => {
    const code = request.params.code;
    if (!isErrorCode(code)) {
      throw new AppError('route_not_found', `There is no error code "${request.params.code}"`);
    }
    const { status, title } = HTTP_ERRORS[code];
    const help = HELP[code] ?? title;
    return reply
      .type('text/html; charset=utf-8')
      .send(
        `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${escape(code)}</title></head>` +
          `<body><h1><code>${escape(code)}</code></h1><p>HTTP ${status} ` +
          `· ${escape(title)}</p><p>${escape(help)}</p></body></html>`,
      );
  });
};
