import { sql, type Kysely, type Selectable, type Transaction } from 'kysely';
import type { InvoiceTable, LeadTable, QuarantineTable, Schema } from '../../storage/schema.js';
import { emailKey, phoneKey } from '../../storage/contact-keys.js';
import { AppError } from '../errors.js';
import { checkText } from '../text-input.js';
import { sourceScope } from '../idempotency/idempotency-key.js';

/** Whose data: one email (compared case-insensitively) or one phone number (compared by its digits). */
export type PersonMatch = { email: string } | { phone: string };

export function personMatch(input: { email?: string | undefined; phone?: string | undefined }): PersonMatch {
  const email = input.email === undefined ? undefined : checkText(input.email, 'email', 'The email').trim();
  const phone = input.phone === undefined ? undefined : checkText(input.phone, 'phone', 'The phone number').trim();
  if (email && phone) throw new AppError('invalid_arguments', "Give the person's email or their phone, not both");
  if (email) return { email };
  if (phone) {
    if (digits(phone).length < 4) throw new AppError('invalid_arguments', 'A phone number needs at least 4 digits');
    return { phone };
  }
  throw new AppError('invalid_arguments', "Give the person's email or phone");
}

/** The contact a match is for, as given (an email or a phone number). */
export function matchedContact(match: PersonMatch): string {
  return 'email' in match ? match.email : match.phone;
}

function digits(text: string): string {
  return text.replace(/\D/g, '');
}

export interface PersonRows {
  leads: LeadTable[];
  quarantine: QuarantineTable[];
  /** Idempotency records answered with one of these leads or catches (scope and key). */
  idempotency: Array<{ scope: string; key: string; created_at: string }>;
}

/**
 * A workspace's leads whose email is `email` in any case, oldest first. `email_key` (the address trimmed, in lower
 * case) narrows the read to a range of the duplicate check's index; `lower(email)` keeps the match exact.
 */
export function leadsByEmail(db: Kysely<Schema> | Transaction<Schema>, workspaceId: string, email: string) {
  return db
    .selectFrom('leads')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('email_key', '=', emailKey(email))
    .where(sql<string>`lower(email)`, '=', sql<string>`lower(${email})`)
    .orderBy('received_at')
    .orderBy('id');
}

/**
 * Every row of a workspace that holds the person's contact: leads by their email or phone field, quarantine
 * entries by the email or phone they were submitted with, and the idempotency records those were stored under.
 * Export and erase both call this, so export lists exactly what erase removes.
 */
export async function findPersonRows(
  db: Kysely<Schema> | Transaction<Schema>,
  input: { workspaceId: string; match: PersonMatch },
): Promise<PersonRows> {
  const { workspaceId, match } = input;
  let leads: LeadTable[];
  if ('email' in match) {
    leads = await leadsByEmail(db, workspaceId, match.email).execute();
  } else {
    const wanted = digits(match.phone);
    // Equal digits have equal phone keys, so a number long enough to have one reads only its index range.
    const key = phoneKey(match.phone);
    const withPhone = await db
      .selectFrom('leads')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('phone', 'is not', null)
      .$if(key !== null, (q) => q.where('phone_key', '=', key))
      .orderBy('received_at')
      .orderBy('id')
      .execute();
    leads = withPhone.filter((row) => digits(row.phone ?? '') === wanted);
  }

  // Quarantine keeps the submitted fields as JSON text: read them, as the inbox does.
  const caught = await db
    .selectFrom('quarantine')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .orderBy('received_at')
    .orderBy('id')
    .execute();
  const quarantine = caught.filter((row) => {
    const fields = JSON.parse(row.fields) as Record<string, unknown>;
    if ('email' in match) {
      return typeof fields.email === 'string' && fields.email.trim().toLowerCase() === match.email.toLowerCase();
    }
    return (
      typeof fields.phone === 'string' && digits(fields.phone) === digits(match.phone) && digits(fields.phone) !== ''
    );
  });

  const refs = [...leads, ...quarantine]
    .filter((row) => row.idempotency_key !== null)
    .map((row) => ({ scope: sourceScope(row.source_id), key: row.idempotency_key! }));
  const idempotency =
    refs.length === 0
      ? []
      : await db
          .selectFrom('idempotency_keys')
          .select(['scope', 'key', 'created_at'])
          .where((eb) => eb.or(refs.map((ref) => eb.and([eb('scope', '=', ref.scope), eb('key', '=', ref.key)]))))
          .orderBy('created_at')
          .execute();
  return { leads, quarantine, idempotency };
}

/**
 * The person's invoices and credit notes, oldest first: those of their leads, and (found by email, in any case) those
 * addressed to them. Export lists them; erasure deletes the drafts and keeps the issued ones as the books.
 */
export async function findPersonInvoices(
  db: Kysely<Schema> | Transaction<Schema>,
  input: { workspaceId: string; match: PersonMatch; leadIds: string[] },
): Promise<Array<Selectable<InvoiceTable>>> {
  const { workspaceId, match, leadIds } = input;
  const byEmail = 'email' in match ? match.email.toLowerCase() : undefined;
  if (leadIds.length === 0 && byEmail === undefined) return [];
  return db
    .selectFrom('invoices')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where((eb) =>
      eb.or([
        ...(leadIds.length > 0 ? [eb('lead_id', 'in', leadIds)] : []),
        ...(byEmail !== undefined ? [eb(eb.fn('lower', ['customer_email']), '=', byEmail)] : []),
      ]),
    )
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}
