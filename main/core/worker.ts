import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { Worker, parentPort, type ResourceLimits, type Transferable } from 'node:worker_threads';
import { AppError } from './errors.js';

/**
 * Starts a worker module that sits next to `base`: the built .js directly; in development and tests
 * (.ts sources) through a tiny bootstrap that registers tsx in the worker first. `resourceLimits`:
 * the worker's own V8 heap limits; `transferList`: what `workerData` hands over (a MessagePort).
 */
export function startWorker(name: string, base: string, workerData: unknown, resourceLimits?: ResourceLimits, transferList?: Transferable[]): Worker {
  if (!base.endsWith('.ts')) return new Worker(new URL(`./${name}.js`, base), { workerData, resourceLimits, transferList });
  const url = new URL(`./${name}.ts`, base).href;
  // Resolved here, from this file, so the worker finds tsx whatever the working directory.
  // (its ESM build: the package's `import` entry next to the CommonJS one require.resolve finds).
  const tsx = pathToFileURL(createRequire(base).resolve('tsx/esm/api').replace(/\.cjs$/, '.mjs')).href;
  const boot = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(url)}); })`;
  return new Worker(boot, { eval: true, workerData, resourceLimits, transferList });
}

/** How long a one-shot worker may run and the old-generation heap it may use. */
export interface WorkerBudget {
  ms: number;
  heapMb: number;
}

/** What a one-shot worker posts: its value, or a refusal as the project's error (status, code, message, field). */
export type WorkerAnswer<T> = { ok: true; value: T } | { ok: false; status: number; code: string; message: string; field?: string };

/** Worker side: runs `compute` and posts its value, or its AppError (anything else as a plain 422). */
export function answerOnce<T>(compute: () => T): void {
  let answer: WorkerAnswer<T>;
  try {
    answer = { ok: true, value: compute() };
  } catch (err) {
    answer = err instanceof AppError ? { ok: false, status: err.status, code: err.code, message: err.message, field: err.field } : { ok: false, status: 422, code: 'import_unreadable', message: 'the files could not be read' };
  }
  parentPort!.postMessage(answer);
}

/**
 * Runs a one-shot worker (`answerOnce` on its side) within `budget`: past the time or out of its
 * heap it is stopped and the promise rejects with 422 `import_budget` saying so (`what` names the
 * work, "reading the history files"); its own refusal comes back as the same AppError.
 */
export function runWorkerOnce<T>(name: string, base: string, workerData: unknown, budget: WorkerBudget, what: string): Promise<T> {
  const w = startWorker(name, base, workerData, { maxOldGenerationSizeMb: budget.heapMb, maxYoungGenerationSizeMb: 16 });
  const tooMuch = (why: string) => new AppError(422, 'import_budget', `${what} ${why}: stopped. Import from the command line (npm run import) instead.`);
  return new Promise<T>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void w.terminate();
      fn();
    };
    const timer = setTimeout(() => settle(() => reject(tooMuch(`took longer than ${Math.round(budget.ms / 1000)} s`))), budget.ms);
    w.on('message', (m: WorkerAnswer<T>) => settle(() => (m.ok ? resolve(m.value) : reject(new AppError(m.status, m.code, m.message, { field: m.field })))));
    w.on('error', (err: Error & { code?: string }) =>
      settle(() => reject(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? tooMuch('needed more memory than it may use') : new AppError(422, 'import_unreadable', `${what} failed`))),
    );
    w.on('exit', () => settle(() => reject(new AppError(422, 'import_unreadable', `${what} failed`))));
  });
}
