import { recordAuditAlone } from '../audit/record-audit.js';
import type { VerbArgs } from '../context.js';
import { toLeadView, type LeadView } from '../leads/list-leads.js';
import { notesOfLead, type LeadNote } from '../leads/lead-work.js';
import { toQuarantineView, type QuarantineView } from '../quarantine/list-quarantine.js';
import { findPersonRows, personMatch, type PersonMatch } from './person-data.js';

interface RequestMeta {
  clientIp: string | null;
  userAgent: string | null;
  origin: string | null;
  referer: string | null;
}

export interface PersonExport {
  workspaceId: string;
  match: PersonMatch;
  leads: Array<LeadView & RequestMeta & { idempotencyKey: string | null; internalNotes: LeadNote[] }>;
  quarantine: Array<QuarantineView & RequestMeta>;
  idempotencyRecords: Array<{ scope: string; key: string; createdAt: string }>;
}

/** A person's request to see their data (docs/operations.md): everything stored about them, request details included. */
export async function exportPerson({
  ctx,
  input,
}: VerbArgs<{ workspaceId: string; email?: string | undefined; phone?: string | undefined; lookupOnly?: boolean }>): Promise<PersonExport> {
  const match = personMatch(input);
  const rows = await findPersonRows(ctx.store.db, { workspaceId: input.workspaceId, match });
  // The export handed out is recorded with its counts (never whom); the People screen's lookup before it is not.
  if (!input.lookupOnly) {
    await recordAuditAlone(ctx, {
      action: 'person.exported',
      workspaceId: input.workspaceId,
      details: { leads: rows.leads.length, quarantine: rows.quarantine.length },
    });
  }
  const meta = (row: { client_ip: string | null; user_agent: string | null; origin: string | null; referer: string | null }) => ({
    clientIp: row.client_ip,
    userAgent: row.user_agent,
    origin: row.origin,
    referer: row.referer,
  });
  return {
    workspaceId: input.workspaceId,
    match,
    // The team's notes about the person are data about them too (the erasure deletes them with the lead).
    leads: await Promise.all(
      rows.leads.map(async (row) => ({
        ...toLeadView(row),
        ...meta(row),
        idempotencyKey: row.idempotency_key,
        internalNotes: await notesOfLead(ctx.store.db, row.id),
      })),
    ),
    quarantine: rows.quarantine.map((row) => ({ ...toQuarantineView(row), ...meta(row) })),
    idempotencyRecords: rows.idempotency.map((r) => ({ scope: r.scope, key: r.key, createdAt: r.created_at })),
  };
}
