/**
 * The import preview's history reads (SQLite counts on a copy, a legacy JSON parsed whole) on a
 * thread of their own, so a large or crafted file never holds up the service's event loop; the
 * caller stops it when its time budget runs out. See preview-thread.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { PreviewJob, PreviewThreadAnswer } from './preview-thread.js';
import { previewHistoryFile } from './sigen-preview-file.js';

const { jobs, cutoff } = workerData as { jobs: PreviewJob[]; cutoff: number };
let answer: PreviewThreadAnswer;
try {
  answer = { ok: true, files: jobs.map(({ job, field }) => previewHistoryFile(job, cutoff, field)) };
} catch (err) {
  const e = err as { status?: number; field?: string; message?: string };
  answer = e.status === 400 && e.field ? { ok: false, field: e.field, message: String(e.message) } : { ok: false, message: 'a history file could not be read' };
}
parentPort!.postMessage(answer);
