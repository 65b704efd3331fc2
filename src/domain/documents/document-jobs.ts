import crypto from 'node:crypto';
import type { Transaction } from 'kysely';
import type { DocumentTable, Schema } from '../../storage/schema.js';
import { recordAudit } from '../audit/record-audit.js';
import type { AuditAction } from '../audit/audit-actions.js';
import { nowIso, type DomainContext, type WorkspaceContext } from '../context.js';
import type { DocumentModel } from '../document-model.js';
import { newId } from '../ids.js';

/**
 * The render job of a sent document (docs/documents.md, "The render job"): a `documents` row written in the send's
 * (or the accept's) own transaction with its frozen model, rendered off the request by the server's document job on
 * any instance, stored with its SHA-256 and size. A claim (a conditional UPDATE, like the outbox's) gives each row
 * to one renderer at a time; a claim that lapses (a process that died mid-render) lets another take it. Three tries,
 * then the row is `failed` with the reason, until a person asks for it again (**Make PDF again**).
 */

export type DocumentPurpose = 'sent' | 'accepted';
export type DocumentState = 'pending' | 'rendering' | 'done' | 'failed';

export const MAX_ATTEMPTS = 3;
/** A render that has not settled by then is taken as lost (its process died) and may be claimed again. */
const CLAIM_MS = 2 * 60_000;
/** Retries wait 5 s, then 10 s. */
const RETRY_MS = 5_000;
/** An accepted copy waiting for its sent PDF looks again this soon (no try is counted). */
const DEPENDENCY_WAIT_MS = 1_000;

export interface NewDocument {
  workspaceId: string;
  quoteId: string | null;
  /** The invoice or credit note whose PDF it is (docs/invoices.md); absent for a quote's. */
  invoiceId?: string | null;
  purpose: DocumentPurpose;
  model: DocumentModel;
  /** What a related document is framed by (the accepted copy of a quote), frozen with this one. */
  frame?: unknown;
  dependsOn?: string | null;
}

/** Freezes a document's model and queues its render, inside the caller's transaction; answers its id. */
export async function enqueueDocument(trx: Transaction<Schema>, ctx: DomainContext, doc: NewDocument): Promise<string> {
  const id = newId('doc');
  const at = nowIso(ctx);
  await trx
    .insertInto('documents')
    .values({
      id,
      workspace_id: doc.workspaceId,
      quote_id: doc.quoteId,
      invoice_id: doc.invoiceId ?? null,
      purpose: doc.purpose,
      file_name: doc.model.fileName,
      model: JSON.stringify(doc.model),
      frame: doc.frame === undefined ? null : JSON.stringify(doc.frame),
      depends_on: doc.dependsOn ?? null,
      state: 'pending',
      attempts: 0,
      next_attempt_at: at,
      claim: null,
      claimed_until: null,
      last_error: null,
      pdf: null,
      sha256: null,
      size: null,
      created_at: at,
      rendered_at: null,
    })
    .execute();
  return id;
}

interface Claimed {
  row: Omit<DocumentTable, 'pdf'>;
  claim: string;
}

const COLUMNS = [
  'id',
  'workspace_id',
  'quote_id',
  'purpose',
  'file_name',
  'model',
  'frame',
  'depends_on',
  'state',
  'attempts',
  'next_attempt_at',
  'claim',
  'claimed_until',
  'last_error',
  'sha256',
  'size',
  'created_at',
  'rendered_at',
] as const;

/**
 * Claims up to `limit` due documents (pending and due, or rendering under a lapsed claim); `only` claims that one,
 * pending whether due or not (a retry's pause is the job's, not a person's waiting at the CLI).
 */
async function claimDue(ctx: DomainContext, limit: number, only?: string): Promise<Claimed[]> {
  const now = only === undefined ? nowIso(ctx) : '9999-12-31T00:00:00.000Z';
  const lapsed = nowIso(ctx);
  const claim = newId('doc');
  const until = new Date(ctx.clock.now().getTime() + CLAIM_MS).toISOString();
  const rows = await ctx.store.writer.write(async (trx) => {
    let due = trx
      .selectFrom('documents')
      .select('id')
      .where((eb) =>
        eb.or([
          eb.and([eb('state', '=', 'pending'), eb('next_attempt_at', '<=', now)]),
          eb.and([eb('state', '=', 'rendering'), eb('claimed_until', '<=', lapsed)]),
        ]),
      )
      .orderBy('next_attempt_at')
      .limit(limit);
    if (only !== undefined) due = due.where('id', '=', only);
    const ids = (await due.execute()).map((r) => r.id);
    if (ids.length === 0) return [];
    // The guard: of two instances that both saw a row due, the UPDATE of the second finds it claimed.
    await trx
      .updateTable('documents')
      .set({ state: 'rendering', claim, claimed_until: until })
      .where('id', 'in', ids)
      .where((eb) =>
        eb.or([
          eb.and([eb('state', '=', 'pending'), eb('next_attempt_at', '<=', now)]),
          eb.and([eb('state', '=', 'rendering'), eb('claimed_until', '<=', lapsed)]),
        ]),
      )
      .execute();
    return trx.selectFrom('documents').select(COLUMNS).where('claim', '=', claim).execute();
  });
  return rows.map((row) => ({ row, claim }));
}

type Outcome =
  { state: 'done'; pdf: Uint8Array; model: DocumentModel } | { state: 'retry'; error: string } | { state: 'wait' };

async function settle(ctx: DomainContext, doc: Claimed, outcome: Outcome): Promise<DocumentState> {
  const now = ctx.clock.now();
  const attempts = Number(doc.row.attempts) + (outcome.state === 'wait' ? 0 : 1);
  const set =
    outcome.state === 'done'
      ? {
          state: 'done' as const,
          pdf: Buffer.from(outcome.pdf),
          sha256: crypto.createHash('sha256').update(outcome.pdf).digest('hex'),
          size: outcome.pdf.byteLength,
          model: JSON.stringify(outcome.model),
          rendered_at: now.toISOString(),
          last_error: null,
        }
      : outcome.state === 'wait'
        ? { state: 'pending' as const, next_attempt_at: new Date(now.getTime() + DEPENDENCY_WAIT_MS).toISOString() }
        : attempts >= MAX_ATTEMPTS
          ? { state: 'failed' as const, last_error: outcome.error }
          : {
              state: 'pending' as const,
              last_error: outcome.error,
              next_attempt_at: new Date(now.getTime() + RETRY_MS * attempts).toISOString(),
            };
  await ctx.store.writer.write((trx) =>
    trx
      .updateTable('documents')
      .set({ ...set, attempts, claim: null, claimed_until: null })
      .where('id', '=', doc.row.id)
      .where('claim', '=', doc.claim)
      .execute(),
  );
  return set.state;
}

/** The model as it is rendered: an accepted copy gets the sent PDF's SHA-256 once that one has settled. */
async function modelToRender(ctx: DomainContext, doc: Claimed): Promise<DocumentModel | 'wait'> {
  const model = JSON.parse(doc.row.model) as DocumentModel;
  if (!doc.row.depends_on || !model.acceptance) return model;
  const before = await ctx.store.db
    .selectFrom('documents')
    .select(['state', 'sha256'])
    .where('id', '=', doc.row.depends_on)
    .executeTakeFirst();
  if (before && (before.state === 'pending' || before.state === 'rendering')) return 'wait';
  return { ...model, acceptance: { ...model.acceptance, sentPdfSha256: before?.sha256 ?? null } };
}

export interface Rendered {
  id: string;
  state: DocumentState;
  error?: string;
}

async function renderClaimed(ctx: DomainContext, doc: Claimed): Promise<Rendered> {
  let outcome: Outcome;
  try {
    const model = await modelToRender(ctx, doc);
    if (model === 'wait') outcome = { state: 'wait' };
    else if (!ctx.pdf) outcome = { state: 'retry', error: 'This process has no PDF renderer' };
    else outcome = { state: 'done', pdf: await ctx.pdf.render(model), model };
  } catch (error) {
    outcome = { state: 'retry', error: (error instanceof Error ? error.message : String(error)).slice(0, 300) };
  }
  const state = await settle(ctx, doc, outcome);
  return { id: doc.row.id, state, ...(outcome.state === 'retry' ? { error: outcome.error } : {}) };
}

/**
 * One pass of the document job: claims the due documents and renders them at once (the renderer's pool runs as many
 * as it has threads and queues the rest). A failure is the document's, recorded on its row; the pass goes on.
 */
export async function renderDueDocuments(ctx: DomainContext, options: { limit: number }): Promise<Rendered[]> {
  const claimed = await claimDue(ctx, options.limit);
  // Those that wait for another (an accepted copy for its sent PDF) after the others, so one pass makes both.
  const first = await Promise.all(claimed.filter((d) => !d.row.depends_on).map((doc) => renderClaimed(ctx, doc)));
  const then = await Promise.all(claimed.filter((d) => d.row.depends_on).map((doc) => renderClaimed(ctx, doc)));
  return [...first, ...then];
}

/**
 * Renders one pending document now (the CLI's `quotes pdf` when no server has rendered it yet), counting a try like
 * the job; answers undefined when another renderer holds it or it is not pending.
 */
export async function renderDocumentNow(ctx: DomainContext, id: string): Promise<Rendered | undefined> {
  const [doc] = await claimDue(ctx, 1, id);
  return doc ? renderClaimed(ctx, doc) : undefined;
}

/** A failed document's render asked for again (**Make PDF again**): three new tries, from now. */
export async function retryDocuments(trx: Transaction<Schema>, ctx: DomainContext, ids: string[]): Promise<number> {
  if (ids.length === 0) return 0;
  const result = await trx
    .updateTable('documents')
    .set({ state: 'pending', attempts: 0, next_attempt_at: nowIso(ctx), last_error: null })
    .where('id', 'in', ids)
    .where('state', '=', 'failed')
    .executeTakeFirst();
  return Number(result.numUpdatedRows);
}

/**
 * **Make PDF again** on a quote's or an invoice's page: the failed documents of one of them get three new tries, and
 * the audit log says so (`action`, with how many). Answers how many were queued again.
 */
export async function retryFailedDocumentsOf(
  ctx: WorkspaceContext,
  of: { column: 'quote_id' | 'invoice_id'; id: string; action: AuditAction },
): Promise<number> {
  return ctx.store.writer.write(async (trx) => {
    const failed = await trx
      .selectFrom('documents')
      .select('id')
      .where(of.column, '=', of.id)
      .where('state', '=', 'failed')
      .execute();
    const queued = await retryDocuments(
      trx,
      ctx,
      failed.map((d) => d.id),
    );
    if (queued > 0)
      await recordAudit(trx, ctx, {
        action: of.action,
        workspaceId: ctx.workspaceId,
        targetIds: [of.id],
        details: { documents: queued },
      });
    return queued;
  });
}

/**
 * A document rendered here and now for a person waiting at the CLI, when no server has rendered it yet or its tries
 * failed: its three tries at once (the job would pause between them), from the same frozen model, so the bytes are
 * the ones the server would make.
 */
export async function renderForPerson(ctx: DomainContext, doc: { id: string; state: DocumentState }): Promise<void> {
  if (doc.state === 'done') return;
  if (doc.state === 'failed') await ctx.store.writer.write((trx) => retryDocuments(trx, ctx, [doc.id]));
  for (let i = 0; i < MAX_ATTEMPTS; i += 1) {
    const rendered = await renderDocumentNow(ctx, doc.id);
    if (!rendered || rendered.state !== 'pending') return;
  }
}
