import type { DocumentModel } from './document-model.js';

/**
 * Where documents become PDF files (src/pdf/: a pool of worker threads running the layout). Carried on the
 * DomainContext as `ctx.pdf`, like `ctx.mail`; made by the runtime. `render` resolves with the PDF's bytes, the same
 * bytes for the same model; it rejects with an Error whose message is safe to show and keep (the queue is full, the
 * document took longer than its time limit, the layout failed).
 */
export interface DocumentRenderer {
  render(model: DocumentModel): Promise<Uint8Array>;
  /** Ends the worker threads; renders asked for after it reject. */
  close(): Promise<void>;
}
