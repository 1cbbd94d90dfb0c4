import type { PowerSample } from '../tariff/ledger.js';
import { localMinute } from '../tariff/local-time.js';

/**
 * The household's usual load: the mean home power per local weekday and hour over the history the
 * bridge holds. An hour with no samples falls back to that hour on any weekday, then to the mean of
 * everything; with no history at all there is no profile (null).
 */
export class UsualLoad {
  private readonly sum = new Float64Array(7 * 24);
  private readonly count = new Uint32Array(7 * 24);
  private lastKey = '';
  private lastSlot = 0;

  constructor(private readonly timeZone: string) {}

  private slotOf(t: number): number {
    const hourKey = `${Math.floor(t / 3_600_000)}`;
    if (hourKey !== this.lastKey) {
      const m = localMinute(t, this.timeZone);
      this.lastKey = hourKey;
      this.lastSlot = m.weekday * 24 + Math.floor(m.minute / 60);
    }
    return this.lastSlot;
  }

  add(s: PowerSample): void {
    if (s.home === null || !Number.isFinite(s.home)) return;
    const slot = this.slotOf(s.t);
    this.sum[slot]! += s.home;
    this.count[slot]!++;
  }

  get samples(): number {
    return this.count.reduce((a, b) => a + b, 0);
  }

  /** Usual home load (kW) at instant `t`, or null without any history. */
  kwAt(t: number): number | null {
    const m = localMinute(t, this.timeZone);
    const hour = Math.floor(m.minute / 60);
    const slot = m.weekday * 24 + hour;
    if (this.count[slot]! > 0) return this.sum[slot]! / this.count[slot]! / 1000;
    let s = 0;
    let n = 0;
    for (let d = 0; d < 7; d++) {
      s += this.sum[d * 24 + hour]!;
      n += this.count[d * 24 + hour]!;
    }
    if (n > 0) return s / n / 1000;
    const all = this.samples;
    return all > 0 ? this.sum.reduce((a, b) => a + b, 0) / all / 1000 : null;
  }
}
