import { useEffect, useState } from 'react';
import { api } from '../api.js';

/** What GET /api/clock says: the bridge's time and speed (the demo's day runs faster than real time). */
export interface ClockView {
  now: number;
  speed: number;
  demo: boolean;
  /** The bridge's time zone (its setting). */
  timeZone?: string;
}

let synced: { view: ClockView; at: number } | null = null;
let pending: Promise<void> | null = null;
const listeners = new Set<() => void>();

/**
 * The bridge's "now": every timestamp it serves is on its clock, so ranges and ages are measured
 * from here, not from this device's clock (the same thing outside the demo, give or take drift).
 */
export function serverNow(): number {
  if (!synced) return Date.now();
  return Math.round(synced.view.now + (Date.now() - synced.at) * synced.view.speed);
}

export function syncServerClock(): Promise<void> {
  pending ??= api
    .get<ClockView>('/api/clock')
    .then((view) => {
      synced = { view, at: Date.now() };
      for (const l of listeners) l();
    })
    .catch(() => undefined)
    .finally(() => {
      pending = null;
    });
  return pending;
}

/** The bridge's clock (null until read), re-read every few minutes so a long-open page stays in step. */
export function useServerClock(): ClockView | null {
  const [view, setView] = useState<ClockView | null>(synced?.view ?? null);
  useEffect(() => {
    const update = () => setView(synced?.view ?? null);
    listeners.add(update);
    // The clock may have been read between the first render and now (another component asked).
    update();
    if (!synced) void syncServerClock();
    // Re-read every 5 minutes, and every few seconds until a first read succeeds.
    const t = setInterval(() => {
      if (!synced || Date.now() - synced.at > 5 * 60_000) void syncServerClock();
    }, 3000);
    return () => {
      listeners.delete(update);
      clearInterval(t);
    };
  }, []);
  return view;
}
