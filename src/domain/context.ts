import type { Config } from '../config.js';
import type { Database } from '../storage/database.js';
import type { CsrfTokens } from './csrf.js';
import type { SecretBox } from './secret-box.js';
import type { FormStamps } from './form-stamp-key.js';
import type { IntakeRecorder } from './intake-recorder.js';
import type { Mailer } from './mailer.js';
import type { DocumentRenderer } from './document-renderer.js';

/**
 * Who a verb acts for, carried on the DomainContext (`ctx.actor`, made in audit/actor.ts): the admin pages derive a
 * context per request with the signed-in person, the CLI one with the OS user, and the jobs leave it unset (the
 * system).
 */
export type Actor =
  { kind: 'user'; userId: string; displayName: string } | { kind: 'cli'; osUser: string } | { kind: 'system' };

export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** What every domain verb gets: storage, secrets, time and settings. No HTTP in here. */
export interface DomainContext {
  store: Database;
  secrets: SecretBox;
  /** Synchronizer tokens of the admin web app, keyed from APP_SECRET like the secret box. */
  csrf: CsrfTokens;
  /** Signs the hosted form's render time, keyed from APP_SECRET (docs/security.md). */
  formStamps: FormStamps;
  clock: Clock;
  config: Config;
  /** Counts intake answers for /metrics and the intake log (set by the app; absent in the CLI). */
  intake?: IntakeRecorder;
  /** Outgoing email; absent when SMTP_URL is unset (then nothing is mailed and links are shown instead). */
  mail?: Mailer;
  /** Turns document models into PDF files off the main thread (src/pdf/, docs/documents.md); made by the runtime. */
  pdf?: DocumentRenderer;
  /**
   * Who the verbs act for, written into the audit log: set per request by the admin pages (the signed-in person)
   * and by the CLI (`cli` + the OS user); unset in jobs, which act as the system.
   */
  actor?: Actor;
}

export interface VerbArgs<I> {
  ctx: DomainContext;
  input: I;
}

/**
 * A DomainContext inside one workspace (docs/architecture.md, "The workspace is in the context"). A verb that acts
 * inside a workspace takes this instead of a `workspaceId` input, so a read of another workspace's rows cannot be
 * written by a caller that forgot to pass one. It is made once, at the edge that resolved the workspace: the admin
 * gate (the URL's workspace, after the membership check), the CLI's resolver, the intake token's source and the
 * upload key's workspace.
 */
export interface WorkspaceContext extends DomainContext {
  readonly workspaceId: string;
}

export interface WorkspaceVerbArgs<I> {
  ctx: WorkspaceContext;
  input: I;
}

/** The context of a verb inside `workspaceId`; only the edges that resolved (and checked) the workspace call this. */
export function inWorkspace(ctx: DomainContext, workspaceId: string): WorkspaceContext {
  return { ...ctx, workspaceId };
}

export function nowIso(ctx: DomainContext): string {
  return ctx.clock.now().toISOString();
}
