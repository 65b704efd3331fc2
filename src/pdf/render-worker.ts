import { parentPort } from 'node:worker_threads';
import type { DocumentModel } from '../domain/document-model.js';
import { layoutDocument } from './layout.js';

/** A render thread of the pool (render-pool.ts): one document at a time, its bytes moved back, not copied. */
export interface RenderRequest {
  id: number;
  model: DocumentModel;
}

export type RenderAnswer = { id: number; ok: true; bytes: ArrayBuffer } | { id: number; ok: false; error: string };

const port = parentPort;
port?.on('message', (request: RenderRequest) => {
  layoutDocument(request.model).then(
    (pdf) => {
      const bytes = pdf.buffer.slice(pdf.byteOffset, pdf.byteOffset + pdf.byteLength) as ArrayBuffer;
      port.postMessage({ id: request.id, ok: true, bytes } satisfies RenderAnswer, [bytes]);
    },
    (error: unknown) => {
      const message = error instanceof Error ? error.message : String(error);
      port.postMessage({ id: request.id, ok: false, error: message.slice(0, 300) } satisfies RenderAnswer);
    },
  );
});
