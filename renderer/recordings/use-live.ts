import { useCallback, useEffect, useRef, useState } from 'react';
import { messageOf } from './api.js';

/** The spec's client cadence: every 2 s while something is live, every 60 s otherwise. */
export const RECORDINGS_ACTIVE_POLL_MS = 2_000;
export const RECORDINGS_POLL_MS = 60_000;

/**
 * The answer of a load already on its way, shared: a page that mounts twice in a row (or polls
 * while its last poll is still out) asks the server once, not twice.
 */
const inFlight = new WeakMap<() => Promise<unknown>, Promise<unknown>>();
function once<T>(load: () => Promise<T>): Promise<T> {
  let p = inFlight.get(load) as Promise<T> | undefined;
  if (!p) {
    p = load().finally(() => inFlight.delete(load));
    inFlight.set(load, p);
  }
  return p;
}

export interface LivePoll<T> {
  data: T | null;
  error: string | null;
  /** When the last successful answer arrived (epoch ms). */
  fetchedAt: number | null;
  /** The delay scheduled before the next poll. */
  pollMs: number;
  /** Polls now (after a change this page made) and reschedules. */
  refresh: () => Promise<void>;
}

/**
 * Polls `load` with the spec's cadence: `RECORDINGS_ACTIVE_POLL_MS` while `isActive(data)` (a row
 * has progress, or a sync is running), `RECORDINGS_POLL_MS` otherwise. One timer at a time; an
 * answer overtaken by a newer poll is dropped. `firstOnRefresh`: the first poll waits for the first
 * `refresh()` instead of the mount (a page on the progress stream reads once the stream is up).
 */
export function useLivePoll<T>(load: () => Promise<T>, isActive: (data: T) => boolean, { firstOnRefresh = false } = {}): LivePoll<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [fetchedAt, setFetchedAt] = useState<number | null>(null);
  const [pollMs, setPollMs] = useState(RECORDINGS_POLL_MS);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const generation = useRef(0);
  const active = useRef(false);
  const alive = useRef(true);
  const loadRef = useRef(load);
  const activeRef = useRef(isActive);
  loadRef.current = load;
  activeRef.current = isActive;

  const poll = useCallback(async () => {
    clearTimeout(timer.current);
    const mine = ++generation.current;
    try {
      const next = await once(loadRef.current);
      if (!alive.current || mine !== generation.current) return;
      active.current = activeRef.current(next);
      setData(next);
      setError(null);
      setFetchedAt(Date.now());
    } catch (err) {
      if (!alive.current || mine !== generation.current) return;
      setError(messageOf(err));
    }
    const ms = active.current ? RECORDINGS_ACTIVE_POLL_MS : RECORDINGS_POLL_MS;
    setPollMs(ms);
    timer.current = setTimeout(() => void poll(), ms);
  }, []);

  useEffect(() => {
    alive.current = true;
    if (!firstOnRefresh) void poll();
    return () => {
      alive.current = false;
      clearTimeout(timer.current);
    };
  }, [poll, firstOnRefresh]);

  return { data, error, fetchedAt, pollMs, refresh: poll };
}
