import { direction, type BatteryDirection } from './directions.js';

export interface Estimate {
  status: 'idle' | 'warming' | 'ready';
  direction?: 'charge' | 'discharge';
  target?: 'full' | 'reserve' | 'empty';
  /** null when the time to go is beyond 24 h (too uncertain to show). */
  minutesRemaining?: number | null;
  etaIso?: string | null;
  energyToGoKwh?: number;
}

const WARMUP_MS = 60_000;
const WARMUP_SAMPLES = 5;
const SMOOTHING_MS = 90_000;
const MAX_MINUTES = 24 * 60;

/**
 * Battery time-to-full / time-to-reserve. `warming` until the current direction has held for at
 * least 60 s and 5 samples; the rate is battery power averaged over the last ~90 s.
 */
export class BatteryEstimator {
  private dir: BatteryDirection = 'idle';
  private since = 0;
  private count = 0;
  private window: Array<{ t: number; w: number }> = [];

  feed(t: number, batteryW: number | null): void {
    const d = batteryW === null ? 'idle' : direction(batteryW, 'charge', 'discharge');
    if (d !== this.dir) {
      this.dir = d;
      this.since = t;
      this.count = 0;
      this.window = [];
    }
    if (d === 'idle' || batteryW === null) return;
    this.count++;
    this.window.push({ t, w: batteryW });
    while (this.window.length && this.window[0]!.t < t - SMOOTHING_MS) this.window.shift();
  }

  /** Forget the trend (the gateway dropped). */
  reset(): void {
    this.dir = 'idle';
    this.count = 0;
    this.window = [];
  }

  estimate(now: number, soc: number | null, capacityKwh: number | null, reserveSoc: number | null): Estimate {
    if (this.dir === 'idle') return { status: 'idle' };
    if (now - this.since < WARMUP_MS || this.count < WARMUP_SAMPLES || soc === null || !capacityKwh) return { status: 'warming' };
    const rateW = this.window.reduce((a, s) => a + s.w, 0) / this.window.length;
    const charging = this.dir === 'charge';
    const reserve = reserveSoc ?? 0;
    const target: Estimate['target'] = charging ? 'full' : reserve > 0 ? 'reserve' : 'empty';
    const toGoPct = charging ? 100 - soc : soc - reserve;
    const energyToGoKwh = Math.max(0, (capacityKwh * toGoPct) / 100);
    const minutes = Math.abs(rateW) > 0 ? (energyToGoKwh / (Math.abs(rateW) / 1000)) * 60 : Infinity;
    const shown = minutes <= MAX_MINUTES;
    return {
      status: 'ready',
      direction: charging ? 'charge' : 'discharge',
      target,
      minutesRemaining: shown ? Math.round(minutes) : null,
      etaIso: shown ? new Date(now + minutes * 60_000).toISOString() : null,
      energyToGoKwh: Math.round(energyToGoKwh * 10_000) / 10_000,
    };
  }
}
