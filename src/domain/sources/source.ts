import type { BotCheckProvider } from '../../config.js';
import type { LeadSourceTable } from '../../storage/schema.js';
import { compileSpamRules, parseSpamRules, type CompiledSpamRules } from './spam-rules.js';

export interface BotCheckSettings {
  provider: BotCheckProvider;
  siteKey: string | null;
  /** reCAPTCHA v3 score threshold; null means the provider's pass/fail only. */
  minScore: number | null;
}

export interface LeadSource {
  id: string;
  workspaceId: string;
  pipelineId: string;
  name: string;
  token: string;
  active: boolean;
  botCheck: BotCheckSettings | null;
  /** The source's spam rules, ready for intake; null when it has none (domain/sources/spam-rules.ts). */
  spamRules: CompiledSpamRules | null;
  /**
   * Whether a lead from this source is answered with a confirmation to its email (docs/notifications.md, "Confirmation
   * to the sender"); off by default.
   */
  confirmSender: boolean;
}

export interface LeadSourceView {
  id: string;
  token: string;
  intakeUrl: string;
  formUrl: string;
  active: boolean;
}

export function toLeadSource(row: LeadSourceTable): LeadSource {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    pipelineId: row.pipeline_id,
    name: row.name,
    token: row.token,
    active: Boolean(row.active),
    botCheck: row.bot_check_provider
      ? {
          provider: row.bot_check_provider as BotCheckProvider,
          siteKey: row.bot_check_site_key,
          minScore: row.bot_check_min_score,
        }
      : null,
    spamRules: compileSpamRules(parseSpamRules(row.spam_rules)),
    confirmSender: row.confirm_sender === 1,
  };
}

export function intakeUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/api/intake/${token}`;
}

export function formUrl(baseUrl: string, token: string): string {
  return `${baseUrl}/f/${token}`;
}

export function toSourceView(baseUrl: string, source: LeadSource): LeadSourceView {
  return {
    id: source.id,
    token: source.token,
    intakeUrl: intakeUrl(baseUrl, source.token),
    formUrl: formUrl(baseUrl, source.token),
    active: source.active,
  };
}
