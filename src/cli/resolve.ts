import { inWorkspace, type DomainContext, type WorkspaceContext } from '../domain/context.js';
import { workspaceOfLead } from '../domain/leads/find-lead.js';
import { findPipeline } from '../domain/pipelines/find-pipeline.js';
import { requireSource } from '../domain/sources/find-source.js';
import { workspaceOfQuarantined } from '../domain/quarantine/restore-quarantined.js';
import { findQuoteByRef, workspaceOfQuote } from '../domain/quotes/get-quote.js';
import { findInvoiceByRef, workspaceOfInvoice } from '../domain/invoices/get-invoice.js';
import { workspaceOfPriceListItem } from '../domain/price-list/list-price-list.js';
import { workspaceOfScan } from '../domain/scans/scan-in-workspace.js';
import { findWorkspace } from '../domain/workspaces/find-workspace.js';

/**
 * The CLI takes workspaces, pipelines and sources as a person types them (an id or a name; a source's id or its
 * intake token) and turns them into ids here, once, before calling a verb: the verbs take ids. Not found is the
 * lookup's own error (`workspace_not_found`, `pipeline_not_found`, `source_not_found`, `malformed_token`).
 */
export async function workspaceIdOf(ctx: DomainContext, ref: string): Promise<string> {
  return (await findWorkspace({ ctx, input: { ref } })).id;
}

/** The context of a workspace's verbs, from the workspace as typed (`--workspace`). */
export async function workspaceContextOf(ctx: DomainContext, ref: string): Promise<WorkspaceContext> {
  return inWorkspace(ctx, await workspaceIdOf(ctx, ref));
}

/**
 * The operator's CLI names any lead, scan or quarantined submission by id: its verb runs inside the row's own
 * workspace (a missing id is the lookup's own "not found").
 */
export async function leadContextOf(ctx: DomainContext, leadId: string): Promise<WorkspaceContext> {
  return inWorkspace(ctx, await workspaceOfLead(ctx, leadId));
}

export async function scanContextOf(ctx: DomainContext, scanId: string): Promise<WorkspaceContext> {
  return inWorkspace(ctx, await workspaceOfScan(ctx, scanId));
}

/**
 * A quote as typed (id or number, `Q-0007 rev 1`) with the context of its workspace, for the commands that act on
 * one quote: its verbs then run inside that workspace, like the admin pages'.
 */
export async function quoteContextOf(
  ctx: DomainContext,
  ref: string,
): Promise<{ ctx: WorkspaceContext; quoteId: string }> {
  const scoped = inWorkspace(ctx, await workspaceOfQuote(ctx, ref));
  return { ctx: scoped, quoteId: (await findQuoteByRef(scoped, ref)).id };
}

/** An invoice or credit note as typed (id or number) with the context of its workspace. */
export async function invoiceContextOf(
  ctx: DomainContext,
  ref: string,
): Promise<{ ctx: WorkspaceContext; invoiceId: string }> {
  const scoped = inWorkspace(ctx, await workspaceOfInvoice(ctx, ref));
  return { ctx: scoped, invoiceId: (await findInvoiceByRef(scoped, ref)).id };
}

export async function priceListItemContextOf(ctx: DomainContext, itemId: string): Promise<WorkspaceContext> {
  return inWorkspace(ctx, await workspaceOfPriceListItem(ctx, itemId));
}

export async function quarantinedContextOf(ctx: DomainContext, id: string): Promise<WorkspaceContext> {
  return inWorkspace(ctx, await workspaceOfQuarantined(ctx, id));
}

/** The context of a workspace and the id of one of its pipelines, for the commands that take both. */
export async function pipelineContextOf(
  ctx: DomainContext,
  refs: { workspace: string; pipeline: string },
): Promise<{ ctx: WorkspaceContext; pipelineId: string }> {
  const scoped = await workspaceContextOf(ctx, refs.workspace);
  const pipeline = await findPipeline({ ctx: scoped, input: { ref: refs.pipeline } });
  return { ctx: scoped, pipelineId: pipeline.id };
}

/** A source as typed (id or intake token), with the context of its workspace for the verbs that act on it. */
export async function sourceContextOf(
  ctx: DomainContext,
  ref: string,
): Promise<{ ctx: WorkspaceContext; sourceId: string }> {
  const source = await requireSource({ ctx, input: { ref } });
  return { ctx: inWorkspace(ctx, source.workspaceId), sourceId: source.id };
}

export async function sourceIdOf(ctx: DomainContext, ref: string): Promise<string> {
  return (await requireSource({ ctx, input: { ref } })).id;
}
