import type { Clock, Timer } from '../../core/clock.js';

/** At most one republish per this many ms, however often Home Assistant announces itself. */
export const REPUBLISH_GAP_MS = 5000;

/**
 * Home Assistant's birth message ("online" on `<discovery prefix>/status`) asks every device to
 * send its discovery configs and state again. A storm of them (a restart loop, a misbehaving
 * client on the broker) costs one republish at once and at most one more per `gapMs`: an
 * announcement within the gap after the last republish is answered once, when the gap is over.
 */
export function createAnnouncementDebounce(opts: { clock: Clock; republish(): void; gapMs?: number }) {
  const gap = opts.gapMs ?? REPUBLISH_GAP_MS;
  let last = -Infinity;
  let timer: Timer | null = null;
  const run = () => {
    timer = null;
    last = opts.clock.now();
    opts.republish();
  };
  return {
    /** Home Assistant announced itself. */
    announced() {
      if (timer) return;
      const wait = last + gap - opts.clock.now();
      if (wait <= 0) run();
      else {
        timer = opts.clock.setTimeout(run, wait);
        timer.unref?.();
      }
    },
    cancel() {
      if (timer) opts.clock.clear(timer);
      timer = null;
    },
  };
}
