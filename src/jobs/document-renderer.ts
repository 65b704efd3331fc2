import type { DomainContext } from '../domain/context.js';
import { renderDueDocuments } from '../domain/documents/document-jobs.js';
import { periodicJob } from './periodic-job.js';

export interface DocumentRendererJob {
  /** One pass now, after the one under way (tests). */
  runOnce(): Promise<void>;
  /** Waits for the pass under way, then stops. */
  stop(): Promise<void>;
}

/** How often every instance looks for documents to render: a sent quote's PDF is made within about a second. */
const LOOK_EVERY_MS = 500;
/** Documents claimed per pass: as many as the renderer's threads and queue take in a moment. */
const PER_PASS = 8;

/**
 * Renders sent documents into PDFs, off the request path (docs/documents.md, "The render job"): the send froze the
 * model and queued the row in its transaction; each pass claims due rows (two instances never render one twice) and
 * the renderer's worker threads do the layout, so this process keeps answering meanwhile.
 */
export function startDocumentRenderer(
  ctx: DomainContext,
  onError: (error: unknown) => void,
  options: { everyMs?: number } = {},
): DocumentRendererJob {
  const pass = async (stopping: AbortSignal) => {
    // A full batch means more may be due: look again at once rather than a tick later.
    for (let round = 0; round < 10 && !stopping.aborted; round += 1) {
      const rendered = await renderDueDocuments(ctx, { limit: PER_PASS });
      if (rendered.length < PER_PASS) return;
    }
  };
  const job = periodicJob(pass, { everyMs: options.everyMs ?? LOOK_EVERY_MS, onError });
  return {
    async runOnce() {
      await job.runNow();
    },
    stop: job.stop,
  };
}
