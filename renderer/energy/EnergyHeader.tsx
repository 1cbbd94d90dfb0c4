import { useEffect, useState } from 'react';
import { HeaderStatus } from '../app/HeaderStatus.js';
import { api, messageOf } from '../api.js';
import { serverNow, useServerClock } from '../kit/server-clock.js';
import { watchLive } from './live-stream.js';
import type { LiveState } from './types.js';

const EVERY_MS = 10_000;

const statusOf = (s: LiveState) => (s.connected ? { text: 'Reading the gateway', busy: true, title: 'The gateway answers its polls' } : { text: 'Gateway offline', busy: false, title: s.lastError ?? 'The gateway does not answer' });

/**
 * The energy header's end: whether the gateway is being read, and the bridge's clock in its time
 * zone (the demo's clock when it runs one). On a page that has the event stream (dashboard, wall
 * view) it follows that stream; elsewhere it asks `GET /api/state` every 10 s instead of opening a
 * stream of its own (the bridge serves only a few streams per device).
 */
export function EnergyHeader() {
  const clock = useServerClock();
  const [status, setStatus] = useState<{ text: string; busy: boolean; title?: string } | null>(null);
  useEffect(() => {
    let stopped = false;
    let polling: ReturnType<typeof setInterval> | undefined;
    const read = async () => {
      try {
        const s = await api.get<LiveState>('/api/state');
        if (!stopped && polling !== undefined) setStatus(statusOf(s));
      } catch (err) {
        if (!stopped && polling !== undefined) setStatus({ text: 'Bridge not reachable', busy: false, title: messageOf(err) });
      }
    };
    const unwatch = watchLive((live) => {
      if (live) {
        clearInterval(polling);
        polling = undefined;
        if (live.state) setStatus(statusOf(live.state));
      } else if (polling === undefined) {
        polling = setInterval(() => void read(), EVERY_MS);
        void read();
      }
    });
    return () => {
      stopped = true;
      unwatch();
      clearInterval(polling);
    };
  }, []);
  return <HeaderStatus status={status} timeZone={clock?.timeZone} now={serverNow} />;
}
