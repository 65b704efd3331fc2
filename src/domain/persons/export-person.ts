import { recordAuditAlone } from '../audit/record-audit.js';
import type { VerbArgs } from '../context.js';
import type { MarkedLeadState } from '../quarantine/mark-as-spam.js';
import { toQuarantineView, type QuarantineView } from '../quarantine/list-quarantine.js';
import { readLeadRecords, requestMeta, toExportedLead, type ExportedLead, type RequestMeta } from './exported-lead.js';
import { findPersonRows, personMatch, type PersonMatch } from './person-data.js';

export interface PersonExport {
  workspaceId: string;
  match: PersonMatch;
  leads: ExportedLead[];
  /** `markedLead`: for a lead marked as spam, the lead as it was kept (Restore brings it back); null for a catch. */
  quarantine: Array<QuarantineView & RequestMeta & { markedLead: ExportedLead | null }>;
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
  return {
    workspaceId: input.workspaceId,
    match,
    // The team's notes and history about the person are data about them too (the erasure deletes them with the lead).
    leads: await Promise.all(rows.leads.map(async (row) => toExportedLead(await readLeadRecords(ctx.store.db, row)))),
    quarantine: rows.quarantine.map((row) => ({
      ...toQuarantineView(row),
      ...requestMeta(row),
      markedLead: row.lead_state ? toExportedLead(JSON.parse(row.lead_state) as MarkedLeadState) : null,
    })),
    idempotencyRecords: rows.idempotency.map((r) => ({ scope: r.scope, key: r.key, createdAt: r.created_at })),
  };
}
