import { runWorkerOnce, type WorkerBudget } from '../../core/worker.js';
import type { ImportJob } from '../history/index.js';
import type { HistoryFileSummary } from './sigen-preview-file.js';

/** One history file for the preview thread, with the input field a refusal names. */
export interface PreviewJob {
  job: ImportJob;
  field: string;
}

/** How long the preview may read history files, and the heap it may use doing so. */
export const PREVIEW_BUDGET: WorkerBudget = { ms: 30_000, heapMb: 1024 };

/**
 * Summarises the history files on a thread of its own (preview-worker.ts) within a time budget
 * and a heap limit: past either the thread is stopped and the preview answers 422 with a plain
 * reason; a file it may not read is the worker's 400 naming its field.
 */
export function previewHistoryOffThread(jobs: PreviewJob[], cutoff: number, budget: WorkerBudget = PREVIEW_BUDGET): Promise<HistoryFileSummary[]> {
  if (jobs.length === 0) return Promise.resolve([]);
  return runWorkerOnce<HistoryFileSummary[]>('preview-worker', import.meta.url, { jobs, cutoff }, budget, 'Reading the history files');
}
