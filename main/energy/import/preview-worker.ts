/**
 * The import preview's history reads (SQLite counts on a copy, a legacy JSON parsed whole) on a
 * thread of their own, so a large or crafted file never holds up the service's event loop; the
 * caller stops it when its time budget runs out. See preview-thread.ts.
 */
import { workerData } from 'node:worker_threads';
import { answerOnce } from '../../core/worker.js';
import type { PreviewJob } from './preview-thread.js';
import { previewHistoryFile } from './sigen-preview-file.js';

const { jobs, cutoff } = workerData as { jobs: PreviewJob[]; cutoff: number };
answerOnce(() => jobs.map(({ job, field }) => previewHistoryFile(job, cutoff, field)));
