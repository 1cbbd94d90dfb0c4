import { yieldToIo } from '../../core/lifecycle.js';
import type { Logger } from '../../core/logger.js';
import type { DurableStore } from './durable-store.js';

/**
 * Pages written per turn of the event loop: 600 rows of 1 s polls, about 1.5 ms. A poll waits for
 * a turn or two per Modbus request; four pages a turn made polls late by up to a dozen of them.
 */
export const FILL_PAGES_PER_TURN = 1;

/**
 * Writes the packed samples of the sealed pages that are due (sample-pages.ts) in the background
 * on the writer's connection, a page a turn of the event loop, so polls and requests go on
 * in between. `kick()` after anything that makes pages due: a start (a week of history after an
 * upgrade or an import), a poll that seals a page, a prune, an import's end. Paused while
 * `paused()` (an import worker writes: this connection would wait for its lock on this thread).
 */
export class SamplePageFill {
  private running: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly store: DurableStore,
    private readonly opts: { logger: Logger; paused?: () => boolean; pagesPerTurn?: number },
  ) {}

  /**
   * Starts filling; resolves once nothing is due, or it stops or pauses. A kick while it runs joins
   * that run: it looks for due pages again after every turn, and stops only when none is left.
   */
  kick(): Promise<void> {
    if (this.stopped) return Promise.resolve();
    if (this.running) return this.running;
    this.running = this.run().finally(() => (this.running = null));
    return this.running;
  }

  stop(): void {
    this.stopped = true;
  }

  private async run(): Promise<void> {
    const per = this.opts.pagesPerTurn ?? FILL_PAGES_PER_TURN;
    for (;;) {
      await yieldToIo();
      if (this.stopped || this.opts.paused?.()) return;
      let due: number;
      try {
        due = this.store.fillSamplePages(per);
      } catch (err) {
        // A full disk, say: the exports read those pages from `samples` meanwhile; the next kick tries again.
        this.opts.logger.warn({ err }, 'history pages not packed for the exports; they are read row by row meanwhile');
        return;
      }
      if (due < per) return;
    }
  }
}
