import type { Kysely } from 'kysely';
import type { Schema } from '../../storage/schema.js';

/** The lead a scan is attached to, as the Scans screens name it. */
export interface ScanLead {
  id: string;
  name: string | null;
  email: string | null;
  phone: string | null;
}

/** Leads by id, for the scans that name them (one query for a page of scans). */
export async function leadsById(
  db: Kysely<Schema>,
  ids: Array<string | null | undefined>,
): Promise<Map<string, ScanLead>> {
  const wanted = [...new Set(ids.filter((id): id is string => Boolean(id)))];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .selectFrom('leads')
    .select(['id', 'name', 'email', 'phone'])
    .where('id', 'in', wanted)
    .execute();
  return new Map(rows.map((r) => [r.id, r]));
}

/** Who a lead is, in one short line: name, else email, else phone. */
export function leadLabel(lead: ScanLead): string {
  return lead.name ?? lead.email ?? lead.phone ?? lead.id;
}
