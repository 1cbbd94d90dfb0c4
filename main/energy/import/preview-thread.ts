import { AppError, invalid } from '../../core/errors.js';
import { startWorker } from '../../core/worker.js';
import type { ImportJob } from '../history/index.js';
import type { HistoryFileSummary } from './sigen-preview-file.js';

/** One history file for the preview thread, with the input field a refusal names. */
export interface PreviewJob {
  job: ImportJob;
  field: string;
}

export type PreviewThreadAnswer = { ok: true; files: HistoryFileSummary[] } | { ok: false; field?: string; message: string };

/** How long the preview may read history files, and the heap it may use doing so. */
export const PREVIEW_BUDGET = { ms: 30_000, heapMb: 1024 } as const;

/**
 * Summarises the history files on a thread of its own (preview-worker.ts) within a time budget
 * and a heap limit: past either the thread is stopped and the preview answers 422 with a plain
 * reason; a file it may not read is the worker's 400 naming its field.
 */
export function previewHistoryOffThread(jobs: PreviewJob[], cutoff: number, budget: { ms: number; heapMb: number } = PREVIEW_BUDGET): Promise<HistoryFileSummary[]> {
  if (jobs.length === 0) return Promise.resolve([]);
  const w = startWorker('preview-worker', import.meta.url, { jobs, cutoff }, { maxOldGenerationSizeMb: budget.heapMb, maxYoungGenerationSizeMb: 16 });
  return new Promise<HistoryFileSummary[]>((resolve, reject) => {
    let settled = false;
    const settle = (fn: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void w.terminate();
      fn();
    };
    const tooMuch = (what: string) => new AppError(422, 'import_budget', `The history files ${what}: the preview stopped reading them. Import them from the command line (npm run import) instead.`);
    const timer = setTimeout(() => settle(() => reject(tooMuch(`took longer than ${Math.round(budget.ms / 1000)} s to read`))), budget.ms);
    w.on('message', (m: PreviewThreadAnswer) =>
      settle(() => {
        if (m.ok) resolve(m.files);
        else reject(m.field ? invalid(m.field, m.message) : new AppError(422, 'import_unreadable', m.message));
      }),
    );
    w.on('error', (err: Error & { code?: string }) =>
      settle(() => reject(err.code === 'ERR_WORKER_OUT_OF_MEMORY' ? tooMuch('need more memory than a preview may use') : new AppError(422, 'import_unreadable', 'a history file could not be read'))),
    );
    w.on('exit', () => settle(() => reject(new AppError(422, 'import_unreadable', 'a history file could not be read'))));
  });
}
