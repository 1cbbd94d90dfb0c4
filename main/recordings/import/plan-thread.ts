import { runWorkerOnce, type WorkerBudget } from '../../core/worker.js';
import type { FetcharrImportOptions, FetcharrPlan } from './fetcharr-plan.js';

/** How long reading a fetcharr folder may take, and the heap it may use. */
export const PLAN_BUDGET: WorkerBudget = { ms: 30_000, heapMb: 512 };

/**
 * `planFetcharrImport` on a thread of its own (plan-worker.ts) within a time budget and a heap
 * limit: past either the thread is stopped and the request answers 422 `import_budget`; the
 * planner's own refusals (400s naming the field) come back as they are.
 */
export function planFetcharrOffThread(opts: FetcharrImportOptions, budget: WorkerBudget = PLAN_BUDGET): Promise<FetcharrPlan> {
  return runWorkerOnce<FetcharrPlan>('plan-worker', import.meta.url, opts, budget, 'Reading the fetcharr folder');
}
