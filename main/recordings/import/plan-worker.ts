/**
 * Reads a fetcharr folder and plans its import (SQLite reads of its state.db, file checks under the
 * media root) on a thread of its own, so the service keeps answering meanwhile; the caller stops it
 * when its budget runs out. See plan-thread.ts.
 */
import { workerData } from 'node:worker_threads';
import { answerOnce } from '../../core/worker.js';
import { planFetcharrImport, type FetcharrImportOptions } from './fetcharr-plan.js';

answerOnce(() => planFetcharrImport(workerData as FetcharrImportOptions));
