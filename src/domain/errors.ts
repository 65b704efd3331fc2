/**
 * The closed set of error codes: what went wrong, with no transport in it. Domain code throws
 * `AppError(code, detail, fieldErrors?, data?)`; each surface says it its own way: `http/error-statuses.ts` maps a
 * code to an HTTP status and title once (the API's problem+json and the pages use it), and the CLI prints the
 * detail and exits 1. Adding a code here forces a status and a title there (the table is typed by this list).
 */
export const ERROR_CODES = [
  'malformed_token',
  'unreadable_body',
  'missing_contact',
  'invalid_fields',
  'invalid_request',
  'invalid_rooms',
  'too_many_rooms',
  'bot_check_failed',
  'invalid_idempotency_key',
  'client_aborted',
  'invalid_arguments',
  'missing_scan_key',
  'invalid_scan_key',
  'invalid_metrics_token',
  'invalid_credentials',
  'sign_in_required',
  'csrf_failed',
  'owner_only',
  'email_not_proven',
  'intake_unavailable',
  'route_not_found',
  'workspace_not_found',
  'pipeline_not_found',
  'source_not_found',
  'scan_not_found',
  'room_not_found',
  'quarantine_item_not_found',
  'lead_not_found',
  'note_not_found',
  'form_field_not_found',
  'stage_not_found',
  'user_not_found',
  'member_not_found',
  'invitation_not_found',
  'price_list_item_not_found',
  'quote_not_found',
  'quote_line_not_found',
  'quote_section_not_found',
  'invoice_not_found',
  'invoice_line_not_found',
  'payment_not_found',
  'method_not_allowed',
  'idempotency_in_flight',
  'already_restored',
  'name_taken',
  'not_empty',
  'stage_not_empty',
  'last_stage',
  'last_section',
  'stage_name_taken',
  'already_member',
  'last_owner',
  'email_taken',
  'email_not_configured',
  'quote_not_editable',
  'quote_final',
  'quote_updated',
  'quote_link_unusable',
  'quote_expired',
  'negative_total',
  'not_sent',
  'not_accepted',
  'invoice_not_editable',
  'invoice_not_payable',
  'payment_over_balance',
  'invoice_has_payments',
  'already_invoiced',
  'invoice_not_creditable',
  'setup_link_unusable',
  'email_link_unusable',
  'body_too_large',
  'unsupported_media_type',
  'unsupported_encoding',
  'request_timeout',
  'uri_too_long',
  'headers_too_large',
  'idempotency_key_reused',
  'rate_limited',
  'internal_error',
  'invalid_configuration',
  'database_not_found',
  'email_not_sent',
  'service_unavailable',
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];

export function isErrorCode(value: string): value is ErrorCode {
  return (ERROR_CODES as readonly string[]).includes(value);
}

export interface FieldError {
  field: string;
  code: 'too_long' | 'invalid_type' | 'too_many' | 'required' | 'invalid';
  message: string;
  max?: number;
}

/** What a refusal carries besides its words, for each surface to say in its own way (a Retry-After header, say). */
export interface ErrorData {
  /** When trying again may succeed. */
  retryAfterSeconds?: number;
  /** What would have been accepted instead (content encodings, methods). */
  accepted?: string[];
}

export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly fieldErrors?: FieldError[],
    readonly data: ErrorData = {},
  ) {
    super(detail);
    this.name = 'AppError';
  }
}

export function isAppError(error: unknown): error is AppError {
  return error instanceof AppError;
}

/**
 * Runs every field check of a form and refuses once with all their field errors together, so a person fixes every
 * field in one go instead of meeting the rules one by one. A refusal other than `invalid_fields` passes through.
 */
export function checkAllFields(checks: ReadonlyArray<() => unknown>): void {
  const found: AppError[] = [];
  for (const check of checks) {
    try {
      check();
    } catch (error) {
      if (!isAppError(error) || error.code !== 'invalid_fields') throw error;
      found.push(error);
    }
  }
  if (found.length === 1) throw found[0]!;
  if (found.length > 1) {
    throw new AppError(
      'invalid_fields',
      found.map((error) => error.detail).join('; '),
      found.flatMap((error) => error.fieldErrors ?? []),
    );
  }
}
