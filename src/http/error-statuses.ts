import type { FastifyRequest } from 'fastify';
import type { AppError, ErrorCode } from '../domain/errors.js';

/**
 * The HTTP side of every error code, in one table: the status and the problem's title. The API's problem+json, the
 * admin pages and the hosted form all answer with these; the domain never names a status.
 */
export const HTTP_ERRORS = {
  // request shape
  malformed_token: { status: 400, title: 'Malformed intake token' },
  unreadable_body: { status: 400, title: 'Unreadable request body' },
  missing_contact: { status: 400, title: 'Missing contact details' },
  invalid_fields: { status: 400, title: 'Invalid fields' },
  invalid_request: { status: 400, title: 'Invalid request' },
  invalid_rooms: { status: 400, title: 'Invalid rooms' },
  too_many_rooms: { status: 400, title: 'Too many rooms' },
  bot_check_failed: { status: 400, title: 'Bot check failed' },
  invalid_idempotency_key: { status: 400, title: 'Invalid Idempotency-Key' },
  client_aborted: { status: 400, title: 'Request aborted by the client' },
  invalid_arguments: { status: 400, title: 'Invalid command-line arguments' },
  // authentication
  missing_scan_key: { status: 401, title: 'Missing scan key' },
  invalid_scan_key: { status: 401, title: 'Invalid scan key' },
  invalid_metrics_token: { status: 401, title: 'Missing or wrong metrics token' },
  invalid_credentials: { status: 401, title: 'Wrong email or password' },
  sign_in_required: { status: 401, title: 'Sign in required' },
  // admin web app
  csrf_failed: { status: 403, title: 'Request refused (CSRF check)' },
  owner_only: { status: 403, title: 'Only an owner of the workspace can do this' },
  email_not_proven: { status: 403, title: 'Email address not proven yet' },
  // lookups
  intake_unavailable: { status: 404, title: 'Intake link unavailable' },
  route_not_found: { status: 404, title: 'Not found' },
  workspace_not_found: { status: 404, title: 'Workspace not found' },
  pipeline_not_found: { status: 404, title: 'Pipeline not found' },
  source_not_found: { status: 404, title: 'Lead source not found' },
  scan_not_found: { status: 404, title: 'Scan not found' },
  room_not_found: { status: 404, title: 'Room not found' },
  quarantine_item_not_found: { status: 404, title: 'Quarantined submission not found' },
  lead_not_found: { status: 404, title: 'Lead not found' },
  note_not_found: { status: 404, title: 'Note not found' },
  form_field_not_found: { status: 404, title: 'Form field not found' },
  stage_not_found: { status: 404, title: 'Stage not found' },
  user_not_found: { status: 404, title: 'User not found' },
  member_not_found: { status: 404, title: 'Member not found' },
  invitation_not_found: { status: 404, title: 'Invitation not found' },
  price_list_item_not_found: { status: 404, title: 'Price-list item not found' },
  quote_not_found: { status: 404, title: 'Quote not found' },
  quote_line_not_found: { status: 404, title: 'Quote line not found' },
  quote_section_not_found: { status: 404, title: 'Quote section not found' },
  invoice_not_found: { status: 404, title: 'Invoice not found' },
  invoice_line_not_found: { status: 404, title: 'Invoice line not found' },
  payment_not_found: { status: 404, title: 'Payment not found' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  // conflicts
  idempotency_in_flight: { status: 409, title: 'Request with this Idempotency-Key is in flight' },
  already_restored: { status: 409, title: 'Already restored' },
  name_taken: { status: 409, title: 'Name already taken' },
  not_empty: { status: 409, title: 'Still holds leads or scans' },
  stage_not_empty: { status: 409, title: 'Stage still holds leads' },
  last_stage: { status: 409, title: 'A pipeline keeps at least one stage' },
  last_section: { status: 409, title: 'A quote keeps at least one section' },
  stage_name_taken: { status: 409, title: 'Stage name already used' },
  already_member: { status: 409, title: 'Already a member' },
  last_owner: { status: 409, title: 'The last owner stays' },
  email_taken: { status: 409, title: 'Email already in use' },
  email_not_configured: { status: 409, title: 'Email is not set up on this server' },
  quote_not_editable: { status: 409, title: 'The quote cannot be changed in its state' },
  quote_final: { status: 409, title: 'The quote was already answered' },
  quote_updated: { status: 409, title: 'This quote was updated' },
  quote_link_unusable: { status: 410, title: 'This quote is no longer available' },
  quote_expired: { status: 410, title: 'This quote has expired' },
  negative_total: { status: 422, title: 'The total is below zero' },
  not_sent: { status: 409, title: 'Not sent yet' },
  not_accepted: { status: 409, title: 'Not accepted' },
  invoice_not_editable: { status: 409, title: 'The invoice cannot be changed in its state' },
  invoice_not_payable: { status: 409, title: 'The invoice takes no payment in its state' },
  payment_over_balance: { status: 422, title: 'The payment is more than the balance' },
  invoice_has_payments: { status: 409, title: 'The invoice has payments' },
  already_invoiced: { status: 409, title: 'Already invoiced' },
  invoice_not_creditable: { status: 409, title: 'The invoice cannot be credited' },
  setup_link_unusable: { status: 410, title: 'Setup link used or expired' },
  email_link_unusable: { status: 410, title: 'Confirmation link used or expired' },
  body_too_large: { status: 413, title: 'Request body too large' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  unsupported_encoding: { status: 415, title: 'Unsupported content encoding' },
  request_timeout: { status: 408, title: 'Request timeout' },
  uri_too_long: { status: 414, title: 'URI too long' },
  headers_too_large: { status: 431, title: 'Request header fields too large' },
  idempotency_key_reused: { status: 422, title: 'Idempotency-Key reused with a different payload' },
  rate_limited: { status: 429, title: 'Too many requests' },
  // server side
  internal_error: { status: 500, title: 'Internal server error' },
  invalid_configuration: { status: 500, title: 'Invalid configuration' },
  database_not_found: { status: 500, title: 'No database at that location' },
  email_not_sent: { status: 502, title: 'The mail server did not take the email' },
  service_unavailable: { status: 503, title: 'Service unavailable' },
} as const satisfies Record<ErrorCode, { status: number; title: string }>;

export function httpStatusOf(error: AppError): number {
  return HTTP_ERRORS[error.code].status;
}

export function httpTitleOf(code: ErrorCode): string {
  return HTTP_ERRORS[code].title;
}

/** The headers a refusal's data asks for: Retry-After when trying again later may succeed. */
export function httpHeadersOf(error: AppError): Record<string, string> {
  const headers: Record<string, string> = {};
  if (error.data.retryAfterSeconds !== undefined) headers['retry-after'] = String(error.data.retryAfterSeconds);
  if (error.data.accepted && error.code === 'unsupported_encoding')
    headers['accept-encoding'] = error.data.accepted.join(', ');
  if (error.data.accepted && error.code === 'method_not_allowed') headers.allow = error.data.accepted.join(', ');
  return headers;
}

/**
 * The one logging rule of every error handler (API, admin pages, hosted form, quote page): a failure of ours (5xx)
 * is logged as an error with its stack; a refused request is information, with its code only. `what` names the
 * surface: 'request' logs "request failed" / "request refused".
 */
export function logRequestError(request: FastifyRequest, error: unknown, appError: AppError, what: string): void {
  if (httpStatusOf(appError) >= 500) request.log.error({ err: error, code: appError.code }, `${what} failed`);
  else request.log.info({ code: appError.code }, `${what} refused`);
}
