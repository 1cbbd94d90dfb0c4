import { useEffect, useState } from 'react';
import { HeaderStatus } from '../app/HeaderStatus.js';
import { api, messageOf } from '../api.js';
import { serverNow, useServerClock } from '../kit/server-clock.js';
import type { LiveState } from './types.js';

const EVERY_MS = 10_000;

/**
 * The energy header's end: whether the gateway is being read, and the bridge's clock in its time
 * zone (the demo's clock when it runs one). It asks `GET /api/state` every 10 s instead of opening
 * an event stream of its own: the bridge serves only a few streams per device, and the dashboard
 * needs one.
 */
export function EnergyHeader() {
  const clock = useServerClock();
  const [status, setStatus] = useState<{ text: string; busy: boolean; title?: string } | null>(null);
  useEffect(() => {
    let stopped = false;
    const read = async () => {
      try {
        const s = await api.get<LiveState>('/api/state');
        if (stopped) return;
        setStatus(s.connected ? { text: 'Reading the gateway', busy: true, title: 'The gateway answers its polls' } : { text: 'Gateway offline', busy: false, title: s.lastError ?? 'The gateway does not answer' });
      } catch (err) {
        if (!stopped) setStatus({ text: 'Bridge not reachable', busy: false, title: messageOf(err) });
      }
    };
    void read();
    const t = setInterval(() => void read(), EVERY_MS);
    return () => {
      stopped = true;
      clearInterval(t);
    };
  }, []);
  return <HeaderStatus status={status} timeZone={clock?.timeZone} now={serverNow} />;
}
