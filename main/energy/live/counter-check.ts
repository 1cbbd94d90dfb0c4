import type { Logger } from '../../core/logger.js';
import type { Values } from '../gateway/block-reader.js';
import { LIFETIME_COUNTERS } from '../gateway/registers.js';

/**
 * How fast any lifetime counter may rise: 250 kW. The map has no register that bounds every
 * counter: grid import and home consumption follow the house's grid connection, not the plant's
 * rating, and PV arrays are often larger than the inverter. 250 kW is several times a large home
 * (a 3 × 63 A connection is about 43 kW; the vendor's residential inverters are at most 30 kW each)
 * and still catches what the firmware does wrong: a counter that reads 0 for a poll, or jumps by
 * hundreds of kWh between two polls seconds apart.
 */
export const MAX_COUNTER_POWER_W = 250_000;
/** One raw step of a ÷100 kWh register: a reading may lead by one step without any power behind it. */
const STEP_KWH = 0.01;
/**
 * A new level is taken as real (a replaced gateway) once readings have agreed with it, rising
 * plausibly, for this long; never a fall to 0. A counter first seen at 0 is published as 0 after
 * its zeros have held this long.
 */
export const REBASE_AFTER_MS = 10 * 60_000;

interface Level {
  value: number;
  at: number;
}

interface Track {
  /** The last good reading; null until the first one (see `accept`). */
  good: Level | null;
  /** Readings are being held back (an episode is running; logged once at its start). */
  held: boolean;
  /** The level the held-back readings agree on, and since when. */
  candidate: (Level & { since: number }) | null;
}

export interface CounterCheckOptions {
  maxPowerW?: number;
  rebaseAfterMs?: number;
}

/**
 * Checks each poll's lifetime energy counters before anything consumes them (one instance in the
 * poller, so MQTT, HomeKit, metrics, the snapshot and every other consumer get the checked value).
 * A reading that goes backwards, or rises more than `maxPowerW` could make since the last good
 * reading (plus one register step), is held back: the last good value stays and one warning is
 * logged per episode. A first reading of 0 is published as unknown (null) rather than taken as a
 * baseline, so a bad first read cannot be booked as a jump to the next good one; a counter that
 * really is 0 (no export, no battery) is published as 0 once its zeros have held for 10 minutes.
 */
export class CounterCheck {
  private readonly tracks = new Map<string, Track>();
  private readonly maxKwhPerMs: number;
  private readonly rebaseAfterMs: number;

  constructor(
    private readonly logger: Logger,
    opts: CounterCheckOptions = {},
  ) {
    this.maxKwhPerMs = (opts.maxPowerW ?? MAX_COUNTER_POWER_W) / 1000 / 3_600_000;
    this.rebaseAfterMs = opts.rebaseAfterMs ?? REBASE_AFTER_MS;
  }

  /** Forget every counter's last good value (another gateway). */
  reset(): void {
    this.tracks.clear();
  }

  /**
   * The plant values with each lifetime counter checked (a new object when any changed). A counter
   * absent from `plant` (not read this poll) or null (unsupported) passes as it is.
   */
  check(plant: Values, at: number): Values {
    let out = plant;
    for (const key of LIFETIME_COUNTERS) {
      const v = plant[key];
      if (typeof v !== 'number' || !Number.isFinite(v)) continue;
      const checked = this.accept(key, v, at);
      if (checked !== v) {
        if (out === plant) out = { ...plant };
        out[key] = checked;
      }
    }
    return out;
  }

  private plausible(from: Level, v: number, at: number): boolean {
    const rise = v - from.value;
    return rise >= 0 && rise <= this.maxKwhPerMs * Math.max(0, at - from.at) + STEP_KWH + 1e-9;
  }

  private accept(key: string, v: number, at: number): number | null {
    let t = this.tracks.get(key);
    if (!t) this.tracks.set(key, (t = { good: null, held: false, candidate: null }));
    if (!t.good) {
      if (v > 0) {
        t.good = { value: v, at };
        t.candidate = null;
        return v;
      }
      // A first 0 may be a bad read: unknown until zeros have held long enough (a zero-export home).
      if (!t.candidate) t.candidate = { value: 0, at, since: at };
      else if (at - t.candidate.since >= this.rebaseAfterMs) {
        t.good = { value: 0, at };
        t.candidate = null;
        return 0;
      }
      return null;
    }
    if (this.plausible(t.good, v, at)) {
      t.good = { value: v, at };
      t.held = false;
      t.candidate = null;
      return v;
    }
    if (!t.held) {
      t.held = true;
      this.logger.warn({ counter: key, lastGood: t.good.value, read: v }, 'lifetime energy counter read backwards or rose faster than the plant can; kept its last good value');
    }
    const c = t.candidate;
    if (v > 0 && c && this.plausible(c, v, at)) {
      c.value = v;
      c.at = at;
      if (at - c.since >= this.rebaseAfterMs) {
        this.logger.warn({ counter: key, from: t.good.value, to: v, heldMs: at - c.since }, 'lifetime energy counter took a new level: its readings agreed on it long enough');
        t.good = { value: v, at };
        t.held = false;
        t.candidate = null;
        return v;
      }
    } else t.candidate = v > 0 ? { value: v, at, since: at } : null;
    return t.good.value;
  }
}
