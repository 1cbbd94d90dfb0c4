import { useEffect, useState } from 'react';
import { serverNow, useServerClock } from '../kit/server-clock.js';
import { subscribeLive, type Live } from './live-stream.js';

export type { Live } from './live-stream.js';

/**
 * Live data for the dashboard: the page's one event stream (live-stream.ts) pushes the raw state
 * and that poll's snapshot (names, estimates, tariff) on connect and after every poll; nothing is
 * fetched per event.
 */
export function useLive(): Live {
  const [live, setLive] = useState<Live>({ snapshot: null, state: null, streamOpen: false, error: null });
  useEffect(() => subscribeLive(setLive), []);
  return live;
}

/** Re-renders every `ms` so "… ago" labels stay current. */
export function useNow(ms = 1000): number {
  const [now, setNow] = useState(serverNow());
  useServerClock();
  useEffect(() => {
    const t = setInterval(() => setNow(serverNow()), ms);
    return () => clearInterval(t);
  }, [ms]);
  return now;
}
