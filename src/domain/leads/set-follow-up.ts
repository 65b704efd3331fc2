import { recordAudit } from '../audit/record-audit.js';
import { nowIso, type WorkspaceVerbArgs } from '../context.js';
import { AppError } from '../errors.js';
import type { MovedBy } from '../stages/stage-history.js';
import { findLeadRow } from './find-lead.js';
import { recordLeadEvent } from './lead-work.js';

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/** A calendar day `YYYY-MM-DD` that exists (no 2026-02-30), or an invalid_fields error on `field`. */
export function checkDay(value: string, field = 'followUp'): string {
  const text = value.trim();
  const match = DAY.exec(text);
  const date = match ? new Date(Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3]))) : null;
  if (!date || date.toISOString().slice(0, 10) !== text) {
    throw new AppError('invalid_fields', `"${text.slice(0, 40)}" is not a date (2026-03-31)`, [
      { field, code: 'invalid', message: 'Give a date such as 2026-03-31' },
    ]);
  }
  return text;
}

/**
 * Sets a lead's follow-up day (a calendar day in the workspace's time zone, no time) or clears it (`day: null`),
 * and records the change in the lead's history, in one transaction. Setting the day it already has writes nothing.
 */
export async function setFollowUp({
  ctx,
  input,
}: WorkspaceVerbArgs<{ leadId: string; day: string | null; by: MovedBy }>): Promise<{
  leadId: string;
  followUpOn: string | null;
  changed: boolean;
}> {
  const day = input.day === null ? null : checkDay(input.day);
  return ctx.store.writer.write(async (trx) => {
    const lead = await findLeadRow(trx, { workspaceId: ctx.workspaceId, id: input.leadId });
    if ((lead.follow_up_on ?? null) === day) return { leadId: lead.id, followUpOn: day, changed: false };
    await trx.updateTable('leads').set({ follow_up_on: day }).where('id', '=', lead.id).execute();
    await recordLeadEvent(trx, lead.id, { kind: 'follow_up', value: day, at: nowIso(ctx) }, input.by);
    await recordAudit(trx, ctx, {
      action: 'lead.follow_up_set',
      workspaceId: lead.workspace_id,
      targetIds: [lead.id],
      details: { cleared: day === null },
    });
    return { leadId: lead.id, followUpOn: day, changed: true };
  });
}
