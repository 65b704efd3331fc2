/** What intake answers are reported as: the contract between the routes that answer and the log that counts. */
import type { IntakeToken } from './intake-token.js';

export type IntakeOutcomeKind = 'accepted' | 'quarantined' | 'refused';

/**
 * One intake answer, as counted by /metrics and the intake log. `code` is the refusal's error code, the quarantine
 * reason, or '' for an accepted lead. The source is known by id once it is opened; before that (a refusal of the
 * token's shape or the rate limit) by the token in the URL, resolved when the log is flushed.
 */
export interface IntakeOutcome {
  sourceId?: string | undefined;
  token?: IntakeToken | undefined;
  outcome: IntakeOutcomeKind;
  code: string;
}

/** Where intake answers are reported; counting must cost the request nothing but a map update. */
export interface IntakeRecorder {
  record(outcome: IntakeOutcome): void;
}
