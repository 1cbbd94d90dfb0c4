/** Time as a dependency: services read the time and schedule through this, so tests can drive it. */
export interface Clock {
  now(): number;
  setTimeout(fn: () => void, ms: number): Timer;
  setInterval(fn: () => void, ms: number): Timer;
  clear(timer: Timer): void;
  /** How fast this clock runs against real time; absent (1) for the system clock. */
  readonly speed?: number;
}

export interface Timer {
  unref?(): unknown;
}

export const systemClock: Clock = {
  now: () => Date.now(),
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  setInterval: (fn, ms) => setInterval(fn, ms),
  clear: (t) => {
    clearTimeout(t as NodeJS.Timeout);
    clearInterval(t as NodeJS.Timeout);
  },
};

/**
 * The demo's clock: it reads `start` at the moment it is made and then runs `speed` times faster
 * than real time; its timers are scaled too (a 60 s interval fires every 2 s at 30x), so a service
 * on it lives consistently in demo time (its intervals, ages and estimates all in demo time).
 */
export function createDemoClock(opts: { start: number; speed: number; realNow?: () => number }): Clock {
  const real = opts.realNow ?? (() => Date.now());
  const speed = opts.speed > 0 ? opts.speed : 1;
  const realStart = real();
  const scaled = (ms: number) => Math.max(0, ms / speed);
  return {
    speed,
    now: () => Math.round(opts.start + (real() - realStart) * speed),
    setTimeout: (fn, ms) => setTimeout(fn, scaled(ms)),
    setInterval: (fn, ms) => setInterval(fn, Math.max(1, scaled(ms))),
    clear: systemClock.clear,
  };
}

/**
 * `clock` read at real speed: the same instants from the moment it is made, advancing one real
 * millisecond per millisecond, with timers in real milliseconds. A service on a fast clock (the
 * demo's) shows and schedules in its time but measures durations in this one: download stall
 * timers, transfer rates, the staleness of live progress. The system clock and a test's manual
 * clock (speed 1) come back as they are, so a test driving the manual clock drives these too.
 */
export function realElapsed(clock: Clock): Clock {
  const speed = clock.speed ?? 1;
  if (speed === 1) return clock;
  const t0 = clock.now();
  return {
    now: () => Math.round(t0 + (clock.now() - t0) / speed),
    setTimeout: (fn, ms) => clock.setTimeout(fn, ms * speed),
    setInterval: (fn, ms) => clock.setInterval(fn, ms * speed),
    clear: (t) => clock.clear(t),
  };
}

/**
 * A manual clock for tests: time moves only when `advance` is called; due timers fire in order.
 */
export function createManualClock(start = Date.UTC(2026, 0, 1)): Clock & {
  advance(ms: number): void;
  set(t: number): void;
  pending(): number;
} {
  let now = start;
  let seq = 0;
  const timers = new Map<number, { at: number; fn: () => void; every?: number }>();
  const fire = (until: number) => {
    for (;;) {
      let nextId = -1;
      let nextAt = Infinity;
      for (const [id, t] of timers) {
        if (t.at <= until && t.at < nextAt) {
          nextAt = t.at;
          nextId = id;
        }
      }
      if (nextId < 0) break;
      const t = timers.get(nextId)!;
      now = Math.max(now, t.at);
      if (t.every) t.at += t.every;
      else timers.delete(nextId);
      t.fn();
    }
    now = until;
  };
  return {
    now: () => now,
    setTimeout(fn, ms) {
      const id = ++seq;
      timers.set(id, { at: now + Math.max(0, ms), fn });
      return { id } as Timer;
    },
    setInterval(fn, ms) {
      const id = ++seq;
      timers.set(id, { at: now + Math.max(1, ms), fn, every: Math.max(1, ms) });
      return { id } as Timer;
    },
    clear(timer) {
      const id = (timer as { id?: number } | undefined)?.id;
      if (id !== undefined) timers.delete(id);
    },
    advance(ms) {
      fire(now + ms);
    },
    set(t) {
      fire(t);
    },
    pending: () => timers.size,
  };
}
