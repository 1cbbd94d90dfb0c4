import { localMinute, minuteOf, nextDate, startOfLocalDay, WEEKDAY_KEYS } from '../tariff/local-time.js';
import type { TariffConfig } from '../tariff/windows.js';

/** A peak window as instants: `[startsAt, endsAt)`, with its wall-clock labels. */
export interface PeakWindow {
  name: string;
  start: string;
  end: string;
  startsAt: number;
  endsAt: number;
}

export interface OutlookInput {
  now: number;
  timeZone: string;
  /** State of charge (%), reserve (%) and usable capacity (kWh). */
  soc: number;
  reserveSoc: number;
  capacityKwh: number;
  /** Expected solar power (kW) and usual home load (kW) at an instant. */
  solarKw: (t: number) => number;
  loadKw: (t: number) => number;
  /** Today's peak windows still to come or under way. */
  windows: readonly PeakWindow[];
  /** Told of each step the battery is expected to discharge in: `[from, to)` and the kWh it gives. */
  onDischarge?: (from: number, to: number, kwh: number) => void;
}

export interface WindowOutlook extends PeakWindow {
  covers: boolean;
  /** When the battery reaches the reserve inside the window (epoch ms), null when it covers it. */
  reserveAt: number | null;
  /** Minutes between reaching the reserve and the window's end. */
  shortMinutes: number | null;
  /** "covers 15:00–21:00" / "reaches the reserve at 19:40, 1 h 20 min before the window ends". */
  message: string;
}

export interface BatteryOutlook {
  /** When the battery is expected to be full (today, epoch ms); null if not today. */
  fullAt: number | null;
  /** When it is expected to reach the reserve (before the horizon), null if not. */
  reserveAt: number | null;
  /** End of the look-ahead: the end of today or of the last peak window, if later. */
  until: number;
  windows: WindowOutlook[];
}

const STEP_MS = 60_000;

/** `h h m min`, for people. */
export function duration(minutes: number): string {
  const m = Math.max(0, Math.round(minutes));
  const h = Math.floor(m / 60);
  const r = m % 60;
  return h && r ? `${h} h ${r} min` : h ? `${h} h` : `${r} min`;
}

const hhmm = (t: number, tz: string) => {
  const m = localMinute(t, tz).minute;
  return `${String(Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`;
};

/** The instant wall-clock minute `minute` begins on local `date` (a minute skipped by DST maps to the jump). */
export function instantOf(date: string, minute: number, tz: string): number {
  const start = startOfLocalDay(date, tz);
  let t = start + minute * 60_000;
  const seen = localMinute(t, tz);
  if (seen.date === date) t += (minute - seen.minute) * 60_000;
  return t;
}

/**
 * Peak windows of local `date`: the tariff's time-of-use windows that start that day and import
 * dearer than the fallback rate (a window ending at or before its start ends the next day).
 */
export function peakWindowsOn(t: TariffConfig, date: string, weekday: number, tz: string): PeakWindow[] {
  const out: PeakWindow[] = [];
  for (const w of t.windows) {
    if (w.importRate <= t.importRate || !w.days.includes(WEEKDAY_KEYS[weekday]!)) continue;
    const s = minuteOf(w.start);
    const e = minuteOf(w.end);
    const startsAt = instantOf(date, s, tz);
    const endsAt = e > s ? instantOf(date, e, tz) : instantOf(nextDate(date), e, tz);
    out.push({ name: w.name, start: w.start, end: w.end, startsAt, endsAt });
  }
  return out.sort((a, b) => a.startsAt - b.startsAt);
}

/**
 * Simulates the battery minute by minute from now: expected solar minus usual load charges it up to
 * full or discharges it down to the reserve (the rest goes to or comes from the grid). Losses in the
 * battery and inverter are not modelled (docs/savings.md, limits).
 */
export function batteryOutlook(input: OutlookInput): BatteryOutlook {
  const { now, timeZone: tz, capacityKwh: cap } = input;
  const reserve = (Math.min(100, Math.max(0, input.reserveSoc)) / 100) * cap;
  let e = (Math.min(100, Math.max(0, input.soc)) / 100) * cap;
  const today = localMinute(now, tz).date;
  const until = Math.max(startOfLocalDay(nextDate(today), tz), ...input.windows.map((w) => w.endsAt));
  let fullAt: number | null = e >= cap - 1e-9 ? now : null;
  let reserveAt: number | null = null;
  const windowReserve = new Map<PeakWindow, number>();
  // Load and solar change by the hour at most: evaluate once per quarter hour.
  let block = NaN;
  let netKw = 0;
  for (let t = now; t < until; ) {
    const next = Math.min(until, (Math.floor(t / STEP_MS) + 1) * STEP_MS);
    const b = Math.floor(t / 900_000);
    if (b !== block) {
      block = b;
      netKw = input.solarKw(t) - input.loadKw(t);
    }
    const h = (next - t) / 3_600_000;
    if (netKw > 0) {
      const room = cap - e;
      if (fullAt === null && netKw * h >= room - 1e-9) fullAt = t + (room / netKw) * 3_600_000;
      e = Math.min(cap, e + netKw * h);
    } else if (netKw < 0) {
      const avail = e - reserve;
      if (-netKw * h >= avail - 1e-9) {
        const at = t + (Math.max(0, avail) / -netKw) * 3_600_000;
        if (reserveAt === null) reserveAt = at;
        for (const w of input.windows) if (!windowReserve.has(w) && at < w.endsAt && next > w.startsAt) windowReserve.set(w, Math.max(at, w.startsAt));
      }
      const after = Math.max(reserve, e + netKw * h);
      if (after < e) input.onDischarge?.(t, next, e - after);
      e = after;
    }
    t = next;
  }
  const windows = input.windows.map((w): WindowOutlook => {
    const at = windowReserve.get(w) ?? null;
    if (at === null) return { ...w, covers: true, reserveAt: null, shortMinutes: null, message: `covers ${w.start}–${w.end}` };
    const shortMinutes = Math.round((w.endsAt - at) / 60_000);
    return { ...w, covers: false, reserveAt: at, shortMinutes, message: `reaches the reserve at ${hhmm(at, tz)}, ${duration(shortMinutes)} before the window ends` };
  });
  return { fullAt: fullAt !== null && fullAt < until ? fullAt : null, reserveAt, until, windows };
}
