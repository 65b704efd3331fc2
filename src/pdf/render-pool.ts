import os from 'node:os';
import { Worker } from 'node:worker_threads';
import type { DocumentModel } from '../domain/document-model.js';
import type { DocumentRenderer } from '../domain/document-renderer.js';
import type { RenderAnswer, RenderRequest } from './render-worker.js';

export interface RenderPoolOptions {
  /** Threads rendering at once; by default one less than the machine's cores, at least 1, at most 4. */
  threads?: number;
  /** Documents waiting for a thread, at most; one more is refused at once ("the queue is full"). */
  maxQueue?: number;
  /** A document taking longer is abandoned: its thread is ended and a new one started for the next. */
  timeoutMs?: number;
}

export const DEFAULT_QUEUE = 64;
export const DEFAULT_TIMEOUT_MS = 30_000;

interface Task {
  id: number;
  model: DocumentModel;
  resolve(bytes: Uint8Array): void;
  reject(error: Error): void;
}

interface Thread {
  worker: Worker;
  task: Task | null;
  timer: NodeJS.Timeout | null;
}

/** Starts a render thread from the compiled .js beside this file, or from the TypeScript source through tsx (tests). */
function startWorker(): Worker {
  const here = new URL(import.meta.url);
  const ts = here.pathname.endsWith('.ts');
  const entry = new URL(`./render-worker.${ts ? 'ts' : 'js'}`, here);
  if (!ts) return new Worker(entry);
  const boot =
    `import('tsx/esm/api').then(({ register }) => { register(); return ` + `import(${JSON.stringify(entry.href)}); })`;
  return new Worker(boot, { eval: true });
}

/**
 * The PDF renderer of a process (docs/documents.md, "The renderer"): worker threads started on first use, one
 * bounded queue in front of them, a time limit per document. Layout is CPU work of tens to thousands of
 * milliseconds; on the main thread it would stop every request meanwhile, here the server keeps answering. An idle
 * thread does not keep the process alive (a CLI command ends when its work does).
 */
export function renderPool(options: RenderPoolOptions = {}): DocumentRenderer {
  const size = options.threads ?? Math.min(4, Math.max(1, os.availableParallelism() - 1));
  const maxQueue = options.maxQueue ?? DEFAULT_QUEUE;
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const threads: Thread[] = [];
  const queue: Task[] = [];
  let nextId = 1;
  let closed = false;

  const settle = (thread: Thread) => {
    if (thread.timer) clearTimeout(thread.timer);
    thread.timer = null;
    thread.task = null;
    thread.worker.unref();
    pump();
  };

  const spawn = (): Thread => {
    const thread: Thread = { worker: startWorker(), task: null, timer: null };
    thread.worker.unref();
    thread.worker.on('message', (answer: RenderAnswer) => {
      const task = thread.task;
      if (!task || task.id !== answer.id) return;
      settle(thread);
      if (answer.ok) task.resolve(new Uint8Array(answer.bytes));
      else task.reject(new Error(`The layout failed: ${answer.error}`));
    });
    const lost = (reason: string) => {
      const index = threads.indexOf(thread);
      if (index >= 0) threads.splice(index, 1);
      const task = thread.task;
      thread.task = null;
      if (thread.timer) clearTimeout(thread.timer);
      task?.reject(new Error(reason));
      pump();
    };
    thread.worker.on('error', (error) => lost(`The render thread failed: ${error.message}`.slice(0, 300)));
    thread.worker.on('exit', (code) => {
      if (threads.includes(thread)) lost(`The render thread stopped (exit code ${code})`);
    });
    threads.push(thread);
    return thread;
  };

  const pump = () => {
    while (queue.length > 0 && !closed) {
      const thread = threads.find((t) => t.task === null) ?? (threads.length < size ? spawn() : undefined);
      if (!thread) return;
      const task = queue.shift()!;
      thread.task = task;
      // A thread at work keeps the process alive until its document is done.
      thread.worker.ref();
      thread.timer = setTimeout(() => {
        const index = threads.indexOf(thread);
        if (index >= 0) threads.splice(index, 1);
        thread.task = null;
        void thread.worker.terminate();
        task.reject(new Error(`The document took longer than ${Math.round(timeoutMs / 1000)} s to render`));
        pump();
      }, timeoutMs);
      thread.worker.postMessage({ id: task.id, model: task.model } satisfies RenderRequest);
    }
  };

  return {
    render(model) {
      if (closed) return Promise.reject(new Error('The renderer is stopping'));
      if (queue.length >= maxQueue) {
        return Promise.reject(
          new Error(`The renderer's queue is full (${maxQueue} documents waiting); try again later`),
        );
      }
      return new Promise<Uint8Array>((resolve, reject) => {
        queue.push({ id: nextId++, model, resolve, reject });
        pump();
      });
    },
    async close() {
      closed = true;
      for (const task of queue.splice(0)) task.reject(new Error('The renderer is stopping'));
      const all = threads.splice(0);
      for (const thread of all) {
        if (thread.timer) clearTimeout(thread.timer);
        thread.task?.reject(new Error('The renderer is stopping'));
      }
      await Promise.all(all.map((t) => t.worker.terminate()));
    },
  };
}
