/**
 * Table shapes, shared by SQLite and PostgreSQL. Timestamps are ISO-8601 UTC text with milliseconds
 * (sortable, identical on both backends); flags are 0/1 integers; binary payloads are BLOB/BYTEA.
 */
export interface WorkspaceTable {
  id: string;
  name: string;
  created_at: string;
  /** Since 0012: an IANA zone name, e.g. `America/Toronto`. */
  time_zone?: string;
  /** Since 0012: `metric` or `imperial`; measurements are stored in metres either way. */
  units?: string;
  /** Since 0023: months leads are kept (3, 6, 12, 24, 36), null for off. */
  lead_retention_months?: number | null;
  /** Since 0023: months scans are kept, null for off. */
  scan_retention_months?: number | null;
  /** Since 0027: ISO 4217 code amounts are in. */
  currency?: string;
  /** Since 0027: BCP 47 tag numbers and dates are shown in. */
  locale?: string;
  /** Since 0027: JSON `[{ name, rate, onByDefault }]`, rate in thousandths of a percent; at most three. */
  taxes?: string;
  /** Since 0027: days a new quote is valid for. */
  quote_valid_days?: number;
  /** Since 0027: the terms a new quote starts with. */
  quote_terms?: string | null;
  business_address?: string | null;
  business_phone?: string | null;
  business_email?: string | null;
  /** Since 0027: JSON `[{ name, value }]`, e.g. GST/HST and QST registration numbers. */
  tax_numbers?: string;
  /** Since 0045: the deposit new quotes ask, in thousandths of a percent of the total; null for none or a fixed one. */
  deposit_percent?: number | null;
  /** Since 0045: the deposit new quotes ask, a fixed amount in the smallest unit; null for none or a percentage. */
  deposit_amount?: number | null;
  /**
   * Since 0046: the business's logo, PNG or JPEG bytes (docs/documents.md, "The logo and the paper"), its type and
   * pixel size.
   */
  logo?: Buffer | null;
  logo_type?: string | null;
  logo_width?: number | null;
  logo_height?: number | null;
  /** Since 0046: `A4` or `LETTER` as chosen in Settings; null for the locale's paper. */
  paper?: string | null;
  /** Since 0047: days without an answer before the sender is reminded; null is off. */
  follow_up_days?: number | null;
  /** Since 0047: JSON `[3, 7]`, days after a send the customer is reminded (at most two); `[]` is off. */
  customer_reminder_days?: string;
  /** Since 0047: JSON `[7, 14, 30]`, days after an invoice's due date (at most three); `[]` is off. */
  invoice_reminder_days?: string;
  /** Since 0048: what invoice numbers start with (`INV-`); credit notes are `CN-`. */
  invoice_prefix?: string;
  /** Since 0048: days from an invoice's issue to its due date (14). */
  payment_terms_days?: number;
  /** Since 0048: printed on every invoice ("Bank transfer to …"), at most 1,000 characters; null for none. */
  payment_instructions?: string | null;
  /** Since 0048: years issued invoices are kept (10). */
  books_years?: number;
}

export interface PipelineTable {
  id: string;
  workspace_id: string;
  name: string;
  created_at: string;
}

export interface LeadSourceTable {
  id: string;
  workspace_id: string;
  pipeline_id: string;
  name: string;
  token: string;
  active: number;
  bot_check_provider: string | null;
  /** The provider secret, AES-256-GCM encrypted like upload keys. */
  bot_check_secret_enc: string | null;
  bot_check_site_key: string | null;
  bot_check_min_score: number | null;
  /** Since 0021: JSON text of the source's spam rules (domain/sources/spam-rules.ts); null when it has none. */
  spam_rules?: string | null;
  /**
   * Since 0037: 1 when the source emails the sender a confirmation (docs/notifications.md, "Confirmation to the
   * sender"); 0 by default.
   */
  confirm_sender?: number;
  created_at: string;
  updated_at: string;
}

export interface UploadKeyTable {
  /** One row per workspace: the primary key is what makes "exactly one live key" hold. */
  workspace_id: string;
  key_hash: string;
  key_enc: string;
  created_at: string;
  last_connected_at: string | null;
  last_used_at: string | null;
}

export interface LeadTable {
  id: string;
  workspace_id: string;
  pipeline_id: string;
  source_id: string;
  stage: string;
  name: string | null;
  phone: string | null;
  email: string | null;
  address: string | null;
  notes: string | null;
  /** JSON object text of extra fields (string values). */
  extra: string;
  received_at: string;
  client_ip: string | null;
  user_agent: string | null;
  origin: string | null;
  referer: string | null;
  bot_check: string;
  idempotency_key: string | null;
  restored_from: string | null;
  /** Since 0019: the member the lead is assigned to; null when nobody is. */
  assignee_user_id?: string | null;
  /** Since 0019: the follow-up day, `YYYY-MM-DD` in the workspace's time zone; null when none. */
  follow_up_on?: string | null;
  /** Since 0021: the email as duplicates compare it (storage/contact-keys.ts); set by the lead INSERT. */
  email_key: string | null;
  /** Since 0021: the phone's last ten digits as duplicates compare it (storage/contact-keys.ts). */
  phone_key: string | null;
  /** Since 0020: the page the hosted form was embedded in (or a direct post's `pageUrl`); null when unknown. */
  page_url?: string | null;
  /** Since 0038: the marketing parameters of `page_url` (domain/marketing-source.ts), at most 200 characters each. */
  utm_source?: string | null;
  utm_medium?: string | null;
  utm_campaign?: string | null;
  gclid?: string | null;
  fbclid?: string | null;
}

/** Since 0019: an internal note on a lead. */
export interface LeadNoteTable {
  id: string;
  lead_id: string;
  /** Null when written from the CLI, or after the author's account was deleted. */
  author_user_id: string | null;
  /** The author's name or email as it was when written, or `cli`. */
  author_label: string;
  body: string;
  created_at: string;
}

/** Since 0019: an assignment or follow-up change, shown with the stage moves as the lead's history. */
export interface LeadEventTable {
  id: string;
  lead_id: string;
  /** `assigned` or `follow_up`. */
  kind: string;
  /** The assignee's label or the follow-up day; null for "nobody" and "cleared". */
  value: string | null;
  by_user_id: string | null;
  by_label: string;
  at: string;
}

export interface QuarantineTable {
  id: string;
  workspace_id: string;
  source_id: string;
  reason: string;
  /** JSON object text of every submitted text field, honeypot included. */
  fields: string;
  received_at: string;
  client_ip: string | null;
  user_agent: string | null;
  origin: string | null;
  referer: string | null;
  restored_lead_id: string | null;
  /** The Idempotency-Key the catch was answered under (migration 0002), so erasure reaches its record. */
  idempotency_key: string | null;
  /** Since 0021: what caught it: the blocked rule, the site's host, or who marked the lead as spam. */
  detail: string | null;
  /** Since 0021: JSON text of a lead marked as spam as it was (domain/quarantine/mark-as-spam.ts); else null. */
  lead_state: string | null;
}

export interface ScanTable {
  id: string;
  workspace_id: string;
  received_at: string;
  room_count: number;
  byte_size: number;
  user_agent: string | null;
  /** The request body, byte for byte. */
  raw: Buffer;
  idempotency_key: string | null;
  /** Since 0013: the lead (job) the scan is attached to; null when not attached. */
  lead_id?: string | null;
}

/** Since 0013: a scan nobody in the workspace has opened yet; kept by triggers on `scans`. */
export interface ScanUnreadTable {
  scan_id: string;
  workspace_id: string;
}

/** Since 0013: figures read from a scan's rooms (derived; the scan's bytes are the record). */
export interface ScanMeasurementTable {
  scan_id: string;
  /** The reader's version that computed the row; an older one is recomputed. */
  version: number;
  computed_at: string;
  /** Square metres over the rooms that gave a floor area; null when none did. */
  floor_area: number | null;
  rooms_recognized: number;
  /** JSON: the per-room figures and plan geometry, in metres. */
  rooms: string;
}

export interface ScanRoomTable {
  scan_id: string;
  idx: number;
  name: string;
  /** The room's own byte slice of the request body; empty when the range below is set. */
  raw: Buffer;
  /** Since 0005: the room is bytes [raw_start, raw_end) of its scan's raw body. */
  raw_start?: number | null;
  raw_end?: number | null;
  /** Since 0051: 1 once a person named the room; the measurer then leaves `name` alone. */
  renamed?: number;
}

export interface IdempotencyTable {
  /** `src:<id>` or `ws:<id>`. */
  scope: string;
  key: string;
  request_hash: string;
  /** `in_flight` until the request's result is known, then `done`. */
  state: string;
  /** null; a record from before domain results kept the HTTP status it answered (200). */
  response_status: number | null;
  /** The result as JSON, `{"kind":"lead",…}` or `{"kind":"scan",…}` (readKeyResult reads older records too). */
  response_body: string | null;
  created_at: string;
  expires_at: string;
}

/** Per-source intake counts (migration 0002): no personal data. */
export interface IntakeLogTable {
  /** UTC day, YYYY-MM-DD. */
  day: string;
  source_id: string;
  /** accepted | quarantined | refused */
  outcome: string;
  /** The refusal's error code; '' for accepted, the quarantine reason for quarantined. */
  code: string;
  count: number;
}

/** Service-wide facts, e.g. the first-start marker whose primary key makes bootstrap happen once. */
export interface AppMetaTable {
  key: string;
  value: string;
}

/** A pipeline's ordered stages; `key` is stable for the stage's life and is what `leads.stage` holds. */
export interface StageTable {
  pipeline_id: string;
  key: string;
  name: string;
  position: number;
  created_at: string;
}

/** One move of a lead between stages; the names are kept as they were, so history survives a rename. */
export interface StageHistoryTable {
  id: string;
  lead_id: string;
  from_stage: string;
  from_name: string;
  to_stage: string;
  to_name: string;
  by_user_id: string | null;
  by_label: string;
  moved_at: string;
}

/** A lead nobody in the workspace has opened yet ("new"); kept by triggers on `leads` (migration 0004). */
export interface LeadUnreadTable {
  lead_id: string;
  pipeline_id: string;
}

/** Unread leads per pipeline: the sum of its rows (migration 0024). */
export interface LeadUnreadCountTable {
  pipeline_id: string;
  slot: number;
  /** bigint: PostgreSQL returns it as a string. */
  unread: number | string;
}

export interface UserTable {
  id: string;
  email: string;
  /** Lower-cased email, unique: emails compare case-insensitively. */
  email_key: string;
  display_name: string;
  /** scrypt hash; null until the person sets a password through a setup link. */
  password_hash: string | null;
  created_at: string;
  password_changed_at: string | null;
  /** Since 0011: when the person proved the email is theirs (a link nobody else saw); null until then. */
  email_proven_at?: string | null;
  /** Since 0011: the workspace whose inviter saw the link the password was set through; null when proven. */
  link_workspace_id?: string | null;
}

export interface MembershipTable {
  workspace_id: string;
  user_id: string;
  /** `owner` or `member`. */
  role: string;
  created_at: string;
}

export interface SessionTable {
  /** SHA-256 of the cookie's session id; the id itself is never stored. */
  id_hash: string;
  user_id: string;
  created_at: string;
  last_seen_at: string;
  /** The absolute end (30 days after sign-in); idle sessions end earlier. */
  expires_at: string;
}

export interface SetupLinkTable {
  /** SHA-256 of the link's token. */
  token_hash: string;
  user_id: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  /** Since 0011: the workspace whose inviter was shown this link; null when only the person or the operator saw it. */
  shown_in_workspace_id?: string | null;
  /**
   * Since 0030: the fingerprint of the account's password hash and email when the link was issued (see
   * credentials-fingerprint.ts).
   */
  issued_for?: string | null;
}

/** Since 0011: an invitation into a workspace for an existing account, waiting for the person to accept it. */
export interface InvitationTable {
  id: string;
  workspace_id: string;
  user_id: string;
  /** `owner` or `member`. */
  role: string;
  /** Who invited, as shown to the invitee: a member's email, or `the server operator (CLI)`. */
  invited_by: string;
  created_at: string;
  expires_at: string;
}

/** A sign-in or password-check attempt, claimed before the check and deleted again when it succeeded. */
export interface SignInFailureTable {
  scope: string;
  failed_at: string;
  /** Since 0014: the claim this row belongs to (null on rows written before). */
  attempt?: string | null;
}

/** The hosted form's own texts; null means the default (the source's name, a neutral thank-you). */
export interface LeadSourceTextsTable {
  source_id: string;
  heading: string | null;
  introduction: string | null;
  thank_you: string | null;
  updated_at: string;
  /** Since 0020: the source's own form fields, JSON (domain/forms/form-definition.ts); null for none. */
  form_fields?: string | null;
  /** Since 0020: the hosted form's accent colour, `#rrggbb`; null for the default. */
  accent?: string | null;
  /**
   * Since 0040: the built-in fields' labels, shown, required, and the one order of all fields, JSON; null for the
   * default.
   */
  form_layout?: string | null;
}

/** Since 0016: a person's email choices in one workspace; no row means the role's default. */
export interface NotificationChoicesTable {
  workspace_id: string;
  user_id: string;
  /** `each` | `daily` | `never`. */
  leads: string;
  /** `each` | `never`. */
  scans: string;
  digest_day: string | null;
  digest_through: string | null;
  updated_at: string;
}

/** Since 0016: how far the notifier has read a workspace's leads or scans (`kind`), by their received time. */
export interface NoticeCursorTable {
  workspace_id: string;
  kind: string;
  seen_through: string;
}

/** Since 0016: a lead or scan the notifier has seen (kept two days, for the overlap of its reads). */
export interface NoticedTable {
  kind: string;
  subject_id: string;
  noticed_at: string;
}

/** Since 0016: a lead or scan a person is still to be told about. */
export interface NotificationPendingTable {
  workspace_id: string;
  user_id: string;
  kind: string;
  subject_id: string;
  noticed_at: string;
}

/** Since 0016: an email to send (or sent, failed or dropped), durable before any attempt. */
/** Since 0017: a person's email change waiting for the link sent to the new address. */
export interface EmailChangeTable {
  /** SHA-256 of the confirmation link's token. */
  token_hash: string;
  user_id: string;
  new_email: string;
  created_at: string;
  expires_at: string;
  used_at: string | null;
  /** Since 0030: the fingerprint of the account's password hash and email when the change was asked for. */
  issued_for?: string | null;
}

export interface OutboxTable {
  id: string;
  workspace_id: string | null;
  user_id: string | null;
  purpose: string;
  to_address: string;
  /** Sealed JSON (SecretBox): ids of leads and scans, or a person's link. */
  payload: string;
  state: string;
  attempts: number;
  created_at: string;
  next_attempt_at: string;
  claim: string | null;
  claimed_until: string | null;
  sent_at: string | null;
  last_error: string | null;
}

/** Since 0037: a confirmation queued to an address (as a keyed hash) on a UTC day, per workspace. */
export interface ConfirmationSendTable {
  workspace_id: string;
  address_hash: string;
  day: string;
}

/** Since 0037: confirmations queued per source and UTC day. */
export interface ConfirmationCountTable {
  workspace_id: string;
  source_id: string;
  day: string;
  sent: number;
}

/** Since 0022: one row per audited action; append-only (the daily job prunes rows older than 365 days). */
export interface AuditLogTable {
  id: string;
  at: string;
  workspace_id: string | null;
  /** `user`, `cli` or `system`. */
  actor_kind: string;
  actor_user_id: string | null;
  /** The display name at the time (user), the OS user name (cli), `system`. */
  actor_label: string;
  action: string;
  /** JSON array of ids. */
  target_ids: string;
  /** JSON object of counts and flags. */
  details: string;
}

/** Since 0023: a daily job's claim, so one instance runs it a day. */
export interface JobClaimTable {
  job: string;
  claimed_by: string | null;
  claimed_until: string | null;
  /** The UTC day (YYYY-MM-DD) of the last completed run. */
  done_on: string | null;
}

/**
 * PostgreSQL only (migration 0025): a lead's search document (search-text.ts). The lead INSERT writes it into
 * `lead_search_pending`; the search mover moves it into `lead_search`, which has the trigram index. A document is in
 * exactly one of the two; both go with their lead. SQLite has neither (its search index file holds the same).
 */
export interface LeadSearchTable {
  lead_id: string;
  search_text: string;
}

/** Since 0027: what a workspace sells (docs/quotes.md, "The price list"). */
export interface PriceListItemTable {
  id: string;
  workspace_id: string;
  name: string;
  unit: string;
  /** Smallest currency unit. */
  unit_price: number;
  /** JSON array of tax names. */
  taxes: string;
  measure: string | null;
  /** Thousandths of a percent. */
  waste: number;
  /** Hundredths (coats 2 is 200). */
  coats: number;
  /** Hundredths of the item's unit one pack covers; null when sold by the unit. */
  pack: number | null;
  /** Since 0045: what the customer reads after the item's name on a quote line; null for nothing. */
  customer_description?: string | null;
  created_at: string;
  updated_at: string;
}

/**
 * Since 0028: one revision of a quote. Revisions of one quote share `chain_id` and, once sent, `number`; the
 * customer's link (`token_hash`) is on the chain's rows and shows the latest sent revision.
 */
/** Since 0046: a sent document's PDF, its frozen model and its render job (docs/documents.md). */
export interface DocumentTable {
  id: string;
  workspace_id: string;
  quote_id: string | null;
  /** Since 0048: the invoice or credit note whose PDF this is. */
  invoice_id?: string | null;
  /** `sent` (the revision as sent) or `accepted` (its accepted copy). */
  purpose: string;
  file_name: string;
  /** JSON of the DocumentModel (src/domain/document-model.ts), frozen when the document was made. */
  model: string;
  /** JSON of what a related document (the accepted copy) is framed by, frozen with it. */
  frame: string | null;
  /** The document that must be rendered first (an accepted copy prints the sent PDF's SHA-256). */
  depends_on: string | null;
  /** pending | rendering | done | failed */
  state: string;
  attempts: number;
  next_attempt_at: string;
  claim: string | null;
  claimed_until: string | null;
  last_error: string | null;
  pdf: Buffer | null;
  sha256: string | null;
  size: number | null;
  created_at: string;
  rendered_at: string | null;
}

export interface QuoteTable {
  id: string;
  workspace_id: string;
  lead_id: string;
  chain_id: string;
  /** `Q-0007`, given at the chain's first send; null before. */
  number: string | null;
  revision: number;
  /** draft | sent | viewed | accepted | declined | withdrawn | replaced */
  status: string;
  customer_name: string | null;
  customer_email: string | null;
  customer_phone: string | null;
  customer_address: string | null;
  title: string | null;
  note: string | null;
  terms: string | null;
  /** `YYYY-MM-DD`, the last day it can be accepted (in the workspace's time zone). */
  valid_until: string;
  currency: string;
  /** JSON `[{ name, rate }]`: the taxes the quote applies, frozen from Settings at creation. */
  tax_rates: string;
  subtotal: number;
  total: number;
  /** SHA-256 hex of the customer link's token; set at send, shared by the chain's revisions. */
  token_hash: string | null;
  /** The token sealed by the secret box, so staff can show the customer's link again. */
  token_enc: string | null;
  created_by_user_id: string | null;
  created_at: string;
  updated_at: string;
  sent_at: string | null;
  sent_by_user_id: string | null;
  viewed_at: string | null;
  view_count: number;
  accepted_at: string | null;
  accepted_name: string | null;
  acceptance_hash: string | null;
  /** JSON array of the optional lines' ids the customer had ticked when accepting. */
  chosen_lines: string | null;
  declined_at: string | null;
  decline_reason: string | null;
  withdrawn_at: string | null;
  /**
   * JSON `{ units, rooms: [{ scanId, room, name, plan }] }`: the priced rooms' plans frozen at send; null for a draft.
   */
  plans: string | null;
  /** Since 0045: the deposit asked, thousandths of a percent of the total (taxes included); null for none or fixed. */
  deposit_percent?: number | null;
  /** Since 0045: the deposit asked, a fixed amount in the smallest unit; null for none or a percentage. */
  deposit_amount?: number | null;
  /** Since 0045: 1 when the customer's page says how each quantity was measured. */
  show_measurements?: number;
  /** Since 0045: the canonical JSON's version the acceptance hash was made with (1 or 2); null before an acceptance. */
  acceptance_version?: number | null;
  /**
   * Since 0045: JSON `{ lines: [ids], sections: [ids] }`, the optional lines ticked and alternatives chosen as sent,
   * kept at acceptance.
   */
  sent_choices?: string | null;
  /** Since 0050: the sender's message in the email Send queues; null for none. */
  send_message?: string | null;
}

export interface QuoteLineTable {
  id: string;
  quote_id: string;
  position: number;
  description: string;
  /** Hundredths. */
  quantity: number;
  unit: string;
  unit_price: number;
  amount: number;
  /** JSON array of tax names. */
  taxes: string;
  optional: number;
  chosen: number;
  /**
   * JSON `{ scanId, room, measure, measured, waste, coats, pack, note, rooms? }` for a measured line; null for a free
   * one.
   */
  source: string | null;
  /** Since 0045: the line's section (`quote_sections.id`); every line has one. */
  section_id?: string | null;
}

/**
 * Since 0045: a revision's sections (docs/quotes.md, "Sections and alternatives"). Sections sharing `choice` are
 * alternatives of one another: the customer takes one, the `recommended` one chosen at first.
 */
export interface QuoteSectionTable {
  id: string;
  quote_id: string;
  position: number;
  /** The heading; null for a section without one (a quote made before sections reads as one such section). */
  title: string | null;
  /** The choice group's key (`c1`, `c2`…) shared by the alternatives; null for a section that always counts. */
  choice: string | null;
  recommended: number;
  /** For an alternative: 1 when it is the one taken (the sender's recommendation, then the customer's choice). */
  chosen: number;
  /** Since 0056: 1 for a section made for a measured room; lines of no room never go in one by default. */
  room?: number;
}

/** Since 0028: the last quote number a workspace gave; incremented in the transaction of a first send. */
export interface QuoteCounterTable {
  workspace_id: string;
  last_number: number;
}

/** Since 0034: one row per `leadscan serve` process: what it runs with, as the CLI and `leadscan doctor` report it. */
export interface ServerInstanceTable {
  id: string;
  started_at: string;
  heartbeat_at: string;
  stopped_at: string | null;
  email_on: number;
  smtp_server: string | null;
  mail_from: string | null;
  trust_proxy: string;
  migrations: number;
  last_send_at: string | null;
  last_send_state: string | null;
  last_send_error: string | null;
}

/** Since 0047: every reminder queued, once per (kind, subject, ordinal) (docs/quotes.md, "Follow-ups"). */
export interface ReminderTable {
  id: string;
  workspace_id: string;
  /** `quote_sender` | `quote_customer` (and, with invoices, `invoice`). */
  kind: string;
  /** The quote revision (or invoice) reminded about. */
  subject_id: string;
  /** 1 for the first reminder of its kind, 2 for the second… */
  ordinal: number;
  quote_id: string | null;
  chain_id: string | null;
  outbox_id: string | null;
  /** SHA-256 of a customer reminder's stop link token. */
  stop_token_hash: string | null;
  stopped_at: string | null;
  created_at: string;
}

/** Since 0047: one row per sent quote (chain), what the report counts (docs/quotes.md, "What wins"). */
export interface QuoteOutcomeTable {
  chain_id: string;
  workspace_id: string;
  lead_id: string;
  /** The latest sent revision. */
  quote_id: string;
  source_id: string;
  utm_source: string | null;
  utm_campaign: string | null;
  currency: string;
  /** The latest sent revision's total, in the smallest unit. */
  value: number;
  first_sent_at: string;
  /** `YYYY-MM-DD` of the first send in the workspace's time zone. */
  first_sent_day: string;
  /** open | accepted | declined | withdrawn */
  outcome: string;
  answered_at: string | null;
  /** Calendar days from the first send's day to the answer's, in the workspace's time zone. */
  answer_days: number | null;
}

/** Since 0047: `quote_outcomes` counted by month and group, kept by triggers. `''` is no campaign; -1 no answer. */
export interface QuoteReportMonthTable {
  workspace_id: string;
  /** `YYYY-MM` of the first send. */
  month: string;
  source_id: string;
  utm_source: string;
  utm_campaign: string;
  currency: string;
  answer_days: number;
  sent: number;
  accepted: number;
  declined: number;
  value_sent: number;
  value_won: number;
}

/** Since 0048: an invoice or a credit note (docs/invoices.md). Money in the smallest unit. */
export interface InvoiceTable {
  id: string;
  workspace_id: string;
  /** invoice | deposit | final | credit_note */
  kind: string;
  /** draft | sent | viewed | partly_paid | paid | void (overdue is derived from `due_date`, never stored) */
  status: string;
  /** `INV-0003`, `CN-0001`, given at the send; null for a draft. */
  number: string | null;
  /** The accepted quote revision it was made from; null for a blank invoice (or once that quote is deleted). */
  quote_id: string | null;
  /** The quote's chain (its first revision's id), kept when the quote is deleted. */
  quote_chain_id: string | null;
  lead_id: string | null;
  /** For a credit note: the invoice it credits. */
  credit_of: string | null;
  customer_name: string | null;
  customer_email: string | null;
  customer_phone: string | null;
  customer_address: string | null;
  title: string | null;
  note: string | null;
  /** Since 0054: the sender's words in the email Send queues; null for none. */
  send_message?: string | null;
  currency: string;
  /** JSON `[{ name, rate }]`, rate in thousandths of a percent, frozen at creation. */
  tax_rates: string;
  /** BCP 47, frozen at the send; null for a draft (the workspace's applies). */
  locale: string | null;
  payment_terms_days: number;
  /** As Settings said at the send; null for a draft or none. */
  payment_instructions: string | null;
  /** `YYYY-MM-DD` in the workspace's time zone, set at the send. */
  issue_date: string | null;
  due_date: string | null;
  subtotal: number;
  total: number;
  /** The sum of its payments. */
  paid: number;
  /** The sum of its sent credit notes' totals. */
  credited: number;
  /** total − paid − credited (0 for a credit note); below zero is owed back to the customer. */
  balance: number;
  token_hash: string | null;
  token_enc: string | null;
  credit_reason: string | null;
  void_reason: string | null;
  created_by_user_id: string | null;
  created_at: string;
  updated_at: string;
  sent_at: string | null;
  sent_by_user_id: string | null;
  viewed_at: string | null;
  view_count: number;
  voided_at: string | null;
}

/** Since 0048: an invoice's (or credit note's) lines. */
export interface InvoiceLineTable {
  id: string;
  invoice_id: string;
  position: number;
  description: string;
  /** Hundredths. */
  quantity: number;
  unit: string;
  unit_price: number;
  amount: number;
  /** JSON array of tax names. */
  taxes: string;
  /** A final invoice's negative line: the earlier invoice of the chain it subtracts. */
  subtracts_invoice_id: string | null;
  /** A credit note's line: the invoice line it credits. */
  credits_line_id: string | null;
}

/** Since 0048: a payment recorded by hand. */
export interface InvoicePaymentTable {
  id: string;
  invoice_id: string;
  workspace_id: string;
  /** `YYYY-MM-DD`. */
  paid_on: string;
  amount: number;
  /** bank_transfer | card | cash | cheque | other */
  method: string;
  reference: string | null;
  recorded_by_user_id: string | null;
  created_at: string;
}

/** Since 0048: the last number of a series (`invoice`, `credit_note`) a workspace gave. */
export interface InvoiceCounterTable {
  workspace_id: string;
  series: string;
  last_number: number;
}

/** The open invoices' count and balance per workspace, currency and due day, kept by triggers (migration 0055). */
export interface InvoiceOpenTotalTable {
  workspace_id: string;
  currency: string;
  /** The due day, or '' for an open invoice without one. */
  due_date: string;
  open_count: number;
  balance: number;
}

export interface Schema {
  app_meta: AppMetaTable;
  workspaces: WorkspaceTable;
  pipelines: PipelineTable;
  lead_sources: LeadSourceTable;
  upload_keys: UploadKeyTable;
  leads: LeadTable;
  quarantine: QuarantineTable;
  scans: ScanTable;
  scan_rooms: ScanRoomTable;
  scan_unread: ScanUnreadTable;
  scan_measurements: ScanMeasurementTable;
  idempotency_keys: IdempotencyTable;
  intake_log: IntakeLogTable;
  stages: StageTable;
  stage_history: StageHistoryTable;
  lead_unread: LeadUnreadTable;
  lead_unread_counts: LeadUnreadCountTable;
  users: UserTable;
  memberships: MembershipTable;
  sessions: SessionTable;
  setup_links: SetupLinkTable;
  invitations: InvitationTable;
  sign_in_failures: SignInFailureTable;
  lead_source_texts: LeadSourceTextsTable;
  notification_choices: NotificationChoicesTable;
  notice_cursors: NoticeCursorTable;
  noticed: NoticedTable;
  notification_pending: NotificationPendingTable;
  outbox: OutboxTable;
  confirmation_sends: ConfirmationSendTable;
  confirmation_counts: ConfirmationCountTable;
  server_instances: ServerInstanceTable;
  email_changes: EmailChangeTable;
  lead_notes: LeadNoteTable;
  lead_events: LeadEventTable;
  audit_log: AuditLogTable;
  job_claims: JobClaimTable;
  lead_search: LeadSearchTable;
  lead_search_pending: LeadSearchTable;
  price_list_items: PriceListItemTable;
  quotes: QuoteTable;
  documents: DocumentTable;
  quote_lines: QuoteLineTable;
  quote_sections: QuoteSectionTable;
  quote_counters: QuoteCounterTable;
  reminders: ReminderTable;
  quote_outcomes: QuoteOutcomeTable;
  quote_report_months: QuoteReportMonthTable;
  invoices: InvoiceTable;
  invoice_lines: InvoiceLineTable;
  invoice_payments: InvoicePaymentTable;
  invoice_counters: InvoiceCounterTable;
  invoice_open_totals: InvoiceOpenTotalTable;
}
