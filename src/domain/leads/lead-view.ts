import type { LeadTable } from '../../storage/schema.js';
import type { LeadFields } from '../lead-fields.js';
import type { MarketingSource } from '../marketing-source.js';

/** A lead as the inbox shows it: its fields as intake stored them, plus where and when it arrived. */
export interface LeadView extends LeadFields {
  id: string;
  sourceId: string;
  pipelineId: string;
  /** The stage's key (stable); `stageName` is what a person reads. */
  stage: string;
  botCheck: string;
  receivedAt: string;
  /** The marketing parameters of `pageUrl`, under their own names (marketing-source.ts); each null when absent. */
  marketing: MarketingSource;
}

export interface InboxLead extends LeadView {
  stageName: string;
  sourceName: string;
  /** Not yet opened by anyone in the workspace. */
  isNew: boolean;
  /** The assigned member's email; null when nobody is assigned. */
  assigneeEmail: string | null;
  /** `YYYY-MM-DD`; null when none. */
  followUpOn: string | null;
  /** An earlier lead of the workspace has the same email or phone (duplicates.ts). */
  possibleDuplicate: boolean;
}

/** How a page names a lead: its name, else its email or phone, else "Lead". */
export function leadName(lead: { name: string | null; email: string | null; phone: string | null }): string {
  return lead.name ?? lead.email ?? lead.phone ?? 'Lead';
}

export function toLeadView(row: LeadTable): LeadView {
  return {
    id: row.id,
    sourceId: row.source_id,
    pipelineId: row.pipeline_id,
    stage: row.stage,
    name: row.name,
    phone: row.phone,
    email: row.email,
    address: row.address,
    notes: row.notes,
    pageUrl: row.page_url ?? null,
    extra: JSON.parse(row.extra) as Record<string, string>,
    botCheck: row.bot_check,
    receivedAt: row.received_at,
    marketing: {
      utm_source: row.utm_source ?? null,
      utm_medium: row.utm_medium ?? null,
      utm_campaign: row.utm_campaign ?? null,
      gclid: row.gclid ?? null,
      fbclid: row.fbclid ?? null,
    },
  };
}
