import crypto from 'node:crypto';
import type { Transaction } from 'kysely';
import type { Schema } from '../../storage/schema.js';
import { recordAudit } from '../audit/record-audit.js';
import type { DomainContext } from '../context.js';
import { quarantineCutoff } from '../intake/quarantine-retention.js';
import { removeLeads } from '../workspaces/remove-contents.js';
import { claimDailyJob, finishDailyJob, renewJobClaim } from './job-claim.js';

/** Rows deleted per transaction: small enough that the intake writer never waits long for the database. */
export const RETENTION_BATCH = 500;
/** The audit log keeps a year of records. */
export const AUDIT_KEEP_DAYS = 365;
const JOB = 'retention';
const LEASE_MS = 10 * 60_000;
const DAY_MS = 24 * 60 * 60_000;

export interface RetentionCounts {
  leads: number;
  scans: number;
  quarantine: number;
  /** Issued invoices and credit notes past the books' keeping period. */
  invoices: number;
}

export interface RetentionRun {
  /** False when another instance has the job today (or has done it already). */
  ran: boolean;
  workspaces: Array<{ workspaceId: string } & RetentionCounts>;
  auditPruned: number;
  /** SQLite: rows of the search index's change log it had applied (storage/search-index.ts, `pruneSearchChanges`). */
  searchChangesPruned: number;
}

/** The instant `months` calendar months (UTC) before `now`: rows received before it are past retention. */
export function monthsBefore(now: Date, months: number): string {
  const cutoff = new Date(now.getTime());
  cutoff.setUTCMonth(cutoff.getUTCMonth() - months);
  return cutoff.toISOString();
}

/** Lets the event loop (intake requests) run between two batches. */
const yieldToRequests = () => new Promise<void>((resolve) => setImmediate(resolve));

type BatchDelete = (trx: Transaction<Schema>, ids: string[]) => Promise<void>;

interface Purge {
  /** The ids of up to `limit` rows past retention, oldest first. */
  next: (trx: Transaction<Schema>, limit: number) => Promise<string[]>;
  remove: BatchDelete;
}

/**
 * Deletes in batches of RETENTION_BATCH rows, one transaction each. `last` runs inside the transaction of the final
 * batch (the one that finds fewer rows than a batch, possibly none), so the run's audit record commits with it.
 */
async function purgeInBatches(
  ctx: DomainContext,
  purge: Purge,
  onBatch: () => Promise<void>,
  last?: (trx: Transaction<Schema>, total: number) => Promise<void>,
): Promise<number> {
  let total = 0;
  for (;;) {
    const deleted = await ctx.store.writer.write(async (trx) => {
      const ids = await purge.next(trx, RETENTION_BATCH);
      if (ids.length > 0) await purge.remove(trx, ids);
      if (ids.length < RETENTION_BATCH && last) await last(trx, total + ids.length);
      return ids.length;
    });
    total += deleted;
    if (deleted < RETENTION_BATCH) return total;
    await onBatch();
    await yieldToRequests();
  }
}

function leadsPurge(workspaceId: string, cutoff: string): Purge {
  return {
    next: async (trx, limit) =>
      (
        await trx
          .selectFrom('leads')
          .select('id')
          .where('workspace_id', '=', workspaceId)
          .where('received_at', '<', cutoff)
          .orderBy('received_at')
          .limit(limit)
          .execute()
      ).map((r) => r.id),
    // As erasure does: a catch restored into a deleted lead no longer points at it; removeLeads takes the history,
    // and triggers take the unread marks and the search index entries (docs/architecture.md, "Inbox search").
    remove: async (trx, ids) => {
      await trx
        .updateTable('quarantine')
        .set({ restored_lead_id: null })
        .where('restored_lead_id', 'in', ids)
        .execute();
      await removeLeads(trx, 'id', ids);
    },
  };
}

function scansPurge(workspaceId: string, cutoff: string): Purge {
  return {
    next: async (trx, limit) =>
      (
        await trx
          .selectFrom('scans')
          .select('id')
          .where('workspace_id', '=', workspaceId)
          .where('received_at', '<', cutoff)
          .orderBy('received_at')
          .limit(limit)
          .execute()
      ).map((r) => r.id),
    // As the Scans screen's Delete: the rooms, then the scans (their "new" marks and measurements follow).
    remove: async (trx, ids) => {
      await trx.deleteFrom('scan_rooms').where('scan_id', 'in', ids).execute();
      await trx.deleteFrom('scans').where('id', 'in', ids).execute();
    },
  };
}

function quarantinePurge(workspaceId: string, cutoff: string): Purge {
  return {
    next: async (trx, limit) =>
      (
        await trx
          .selectFrom('quarantine')
          .select('id')
          .where('workspace_id', '=', workspaceId)
          .where('received_at', '<', cutoff)
          .orderBy('received_at')
          .limit(limit)
          .execute()
      ).map((r) => r.id),
    remove: async (trx, ids) => {
      await trx.deleteFrom('quarantine').where('id', 'in', ids).execute();
    },
  };
}

/**
 * Issued invoices and credit notes (drafts have no issue date) issued before `cutoffDay`: past the books' keeping
 * period, they go with their lines, payments and PDFs (docs/invoices.md, "Personal data"). Read by the index
 * `invoices_workspace_issued`, oldest first.
 */
function invoicesPurge(workspaceId: string, cutoffDay: string): Purge {
  return {
    next: async (trx, limit) =>
      (
        await trx
          .selectFrom('invoices')
          .select('id')
          .where('workspace_id', '=', workspaceId)
          .where('issue_date', '<', cutoffDay)
          .orderBy('issue_date')
          .limit(limit)
          .execute()
      ).map((r) => r.id),
    remove: async (trx, ids) => {
      await trx.deleteFrom('invoices').where('id', 'in', ids).execute();
    },
  };
}

const nothing: Purge = { next: async () => [], remove: async () => {} };

/**
 * The daily retention run (docs/operations.md, "Retention"): on the one instance that claims it today, for each
 * workspace, deletes leads and scans older than its chosen age (none when off), and quarantine entries past their
 * 30-day rule (already never listed; the hot write only prunes a source that gets a new catch), and issued invoices
 * past the books' keeping period (never one younger: the books are kept whatever the leads' retention), in batches, and
 * records the counts in the audit log; then drops audit records older than a year, and (SQLite) the search index's
 * change-log rows it has applied. The daily job acts as the system (no `ctx.actor`); `leadscan retention run` as
 * the CLI.
 */
export async function runRetention(ctx: DomainContext, options: { owner?: string } = {}): Promise<RetentionRun> {
  const owner = options.owner ?? crypto.randomUUID();
  if (!(await claimDailyJob(ctx, JOB, owner, LEASE_MS)))
    return { ran: false, workspaces: [], auditPruned: 0, searchChangesPruned: 0 };
  const renew = () => renewJobClaim(ctx, JOB, owner, LEASE_MS);
  const now = ctx.clock.now();
  const workspaces = await ctx.store.db
    .selectFrom('workspaces')
    .select(['id', 'lead_retention_months', 'scan_retention_months', 'books_years'])
    .orderBy('id')
    .execute();
  const done: RetentionRun['workspaces'] = [];
  for (const ws of workspaces) {
    const leadMonths = ws.lead_retention_months ?? null;
    const scanMonths = ws.scan_retention_months ?? null;
    const leads = await purgeInBatches(
      ctx,
      leadMonths ? leadsPurge(ws.id, monthsBefore(now, leadMonths)) : nothing,
      renew,
    );
    const scans = await purgeInBatches(
      ctx,
      scanMonths ? scansPurge(ws.id, monthsBefore(now, scanMonths)) : nothing,
      renew,
    );
    // The books are kept for their keeping period (Settings, 10 years by default), whatever the leads' retention.
    const booksYears = Number(ws.books_years ?? 10);
    const invoices = await purgeInBatches(
      ctx,
      invoicesPurge(ws.id, monthsBefore(now, booksYears * 12).slice(0, 10)),
      renew,
    );
    const quarantine = await purgeInBatches(
      ctx,
      quarantinePurge(ws.id, quarantineCutoff(now)),
      renew,
      async (trx, total) => {
        if (leadMonths === null && scanMonths === null && leads + scans + total + invoices === 0) return;
        await recordAudit(trx, ctx, {
          action: 'retention.ran',
          workspaceId: ws.id,
          details: {
            leads,
            scans,
            quarantine: total,
            leadMonths: leadMonths ?? 0,
            scanMonths: scanMonths ?? 0,
            ...(invoices > 0 ? { invoices, booksYears } : {}),
          },
        });
      },
    );
    done.push({ workspaceId: ws.id, leads, scans, quarantine, invoices });
  }
  const auditCutoff = new Date(now.getTime() - AUDIT_KEEP_DAYS * DAY_MS).toISOString();
  const auditPruned = await purgeInBatches(
    ctx,
    {
      next: async (trx, limit) =>
        (
          await trx
            .selectFrom('audit_log')
            .select('id')
            .where('at', '<', auditCutoff)
            .orderBy('at')
            .limit(limit)
            .execute()
        ).map((r) => r.id),
      remove: async (trx, ids) => {
        await trx.deleteFrom('audit_log').where('id', 'in', ids).execute();
      },
    },
    renew,
  );
  const searchChangesPruned = await ctx.store.ops.pruneSearchLog(ctx.store.db, (run) => ctx.store.writer.write(run));
  await finishDailyJob(ctx, JOB, owner);
  return { ran: true, workspaces: done, auditPruned, searchChangesPruned };
}
