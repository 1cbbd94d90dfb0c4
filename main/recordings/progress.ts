import type { Clock, Timer } from '../core/clock.js';

export type ProgressPhase = 'downloading' | 'scanning' | 'marking' | 'cutting' | 'verifying';

/** One live operation on a recording, keyed by box id; in memory only. */
export interface ProgressEntry {
  phase: ProgressPhase;
  percent: number | null;
  etaSeconds: number | null;
  etaLabel: string | null;
  detail: string | null;
  startedAt: number;
  updatedAt: number;
}

/** An entry not updated for longer than this is treated as absent and deleted when read. */
export const PROGRESS_STALE_MS = 30_000;

export interface ProgressUpdate {
  phase: ProgressPhase;
  percent?: number | null;
  etaSeconds?: number | null;
  etaLabel?: string | null;
  detail?: string | null;
}

export interface ProgressRegistry {
  /** Sets or updates the entry; `startedAt` is kept while the phase stays the same. */
  set(boxId: string, update: ProgressUpdate): ProgressEntry;
  /** The live entry or null; a stale one is deleted and reported as null. */
  get(boxId: string): ProgressEntry | null;
  /** Removes the entry (operation finished). */
  clear(boxId: string): void;
  /** Live entries (stale ones are dropped on the way). */
  snapshot(): Map<string, ProgressEntry>;
  size(): number;
}

export function createProgressRegistry(clock: Clock): ProgressRegistry {
  const entries = new Map<string, ProgressEntry>();
  const isStale = (e: ProgressEntry, now: number) => now - e.updatedAt > PROGRESS_STALE_MS;

  const get = (boxId: string): ProgressEntry | null => {
    const e = entries.get(boxId);
    if (!e) return null;
    if (isStale(e, clock.now())) {
      entries.delete(boxId);
      return null;
    }
    return e;
  };

  return {
    set(boxId, u) {
      const now = clock.now();
      const prev = entries.get(boxId);
      const percent = u.percent === undefined || u.percent === null ? null : Math.min(100, Math.max(0, u.percent));
      const entry: ProgressEntry = {
        phase: u.phase,
        percent,
        etaSeconds: u.etaSeconds ?? null,
        etaLabel: u.etaLabel ?? null,
        detail: u.detail ?? null,
        startedAt: prev && prev.phase === u.phase ? prev.startedAt : now,
        updatedAt: now,
      };
      entries.set(boxId, entry);
      return entry;
    },
    get,
    clear: (boxId) => void entries.delete(boxId),
    snapshot() {
      const out = new Map<string, ProgressEntry>();
      for (const id of [...entries.keys()]) {
        const e = get(id);
        if (e) out.set(id, e);
      }
      return out;
    },
    size: () => entries.size,
  };
}

/** `1h 02m`, `4m 05s`, `12s`: the ETA as the UI shows it. */
export function formatEta(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const sec = s % 60;
  if (h > 0) return `${h}h ${String(m).padStart(2, '0')}m`;
  if (m > 0) return `${m}m ${String(sec).padStart(2, '0')}s`;
  return `${sec}s`;
}

/** A transfer rate as `12.3 MB/s` (decimal megabytes, as download tools show them). */
export function formatRate(bytesPerSecond: number): string {
  if (bytesPerSecond >= 1e9) return `${(bytesPerSecond / 1e9).toFixed(2)} GB/s`;
  if (bytesPerSecond >= 1e6) return `${(bytesPerSecond / 1e6).toFixed(1)} MB/s`;
  if (bytesPerSecond >= 1e3) return `${(bytesPerSecond / 1e3).toFixed(0)} kB/s`;
  return `${Math.round(bytesPerSecond)} B/s`;
}

/** The live rate is measured over this much recent time, not since the start. */
export const RATE_WINDOW_MS = 5_000;
/** A transfer with no new bytes for this long shows `stalled`. */
export const STALLED_AFTER_MS = 10_000;

/**
 * Bytes-on-disk samples of one transfer: the rate over the last `windowMs` (a transfer that slows
 * down shows it within seconds) and whether it has stalled (no new bytes for `stalledAfterMs`).
 */
export function createRateMeter(windowMs = RATE_WINDOW_MS, stalledAfterMs = STALLED_AFTER_MS) {
  const samples: Array<{ t: number; bytes: number }> = [];
  let lastChange: { t: number; bytes: number } | null = null;
  return {
    add(t: number, bytes: number): void {
      if (!lastChange || bytes !== lastChange.bytes) lastChange = { t, bytes };
      samples.push({ t, bytes });
      // Keep one sample at or before the window's start, so the window is always spanned.
      while (samples.length > 2 && samples[1]!.t <= t - windowMs) samples.shift();
    },
    /** Bytes per second over the window, or null before two samples. */
    rate(): number | null {
      if (samples.length < 2) return null;
      const a = samples[0]!;
      const b = samples[samples.length - 1]!;
      return b.t > a.t ? Math.max(0, b.bytes - a.bytes) / ((b.t - a.t) / 1000) : null;
    },
    /** Milliseconds without new bytes when that is at least `stalledAfterMs`, else null. */
    stalledFor(t: number): number | null {
      if (!lastChange) return null;
      const idle = t - lastChange.t;
      return idle >= stalledAfterMs ? idle : null;
    },
  };
}
export type RateMeter = ReturnType<typeof createRateMeter>;

/** The progress entry of a download at `now` with `bytes` on disk of `expected`. */
export function downloadProgress(meter: RateMeter, now: number, bytes: number, expected: number): ProgressUpdate {
  meter.add(now, bytes);
  const percent = expected > 0 ? (bytes / expected) * 100 : null;
  const stalled = meter.stalledFor(now);
  if (stalled !== null) {
    return { phase: 'downloading', percent, detail: `stalled: no data for ${Math.round(stalled / 1000)} s`, etaSeconds: null, etaLabel: null };
  }
  const rate = meter.rate();
  const eta = rate && rate > 0 && expected > 0 ? Math.max(0, expected - bytes) / rate : null;
  return {
    phase: 'downloading',
    percent,
    detail: rate !== null && rate > 0 ? formatRate(rate) : null,
    etaSeconds: eta === null ? null : Math.round(eta),
    etaLabel: eta === null ? null : formatEta(eta),
  };
}

/** A scan is expected to take this fraction of the recording's duration (drives its percent). */
export const SCAN_REALTIME_FACTOR = 0.5;
/** A scan's percent never reaches 100 while scanning; it holds here on overrun. */
export const SCAN_PERCENT_CAP = 99;

/** The scan ticker's percent: elapsed over `duration x 0.5`, clamped to [0, 99]. */
export function scanPercent(elapsedMs: number, durationSeconds: number): number {
  const expectedScanMs = durationSeconds * SCAN_REALTIME_FACTOR * 1000;
  if (!(expectedScanMs > 0)) return SCAN_PERCENT_CAP;
  return Math.min(SCAN_PERCENT_CAP, Math.max(0, (elapsedMs / expectedScanMs) * 100));
}

/**
 * The scan ticker: sets the recording's `scanning` entry now and then every second, with the percent
 * from the 0.5 realtime factor, or, when the duration is unknown, no percent and an elapsed caption.
 * Returns the function that stops it.
 */
export function startScanTicker(progress: ProgressRegistry, clock: Clock, boxId: string, durationSeconds: number | null): () => void {
  const started = clock.now();
  const tick = () => {
    const elapsed = clock.now() - started;
    if (durationSeconds === null) progress.set(boxId, { phase: 'scanning', percent: null, detail: `${formatEta(elapsed / 1000)} elapsed` });
    else progress.set(boxId, { phase: 'scanning', percent: scanPercent(elapsed, durationSeconds) });
  };
  tick();
  const timer: Timer = clock.setInterval(tick, 1000);
  timer.unref?.();
  return () => clock.clear(timer);
}
