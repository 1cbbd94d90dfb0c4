import { useEffect, useRef, useState } from 'react';
import { api, messageOf } from '../api.js';
import { serverNow, useServerClock } from '../kit/server-clock.js';
import type { LiveState, Snapshot } from './types.js';

export interface Live {
  snapshot: Snapshot | null;
  state: LiveState | null;
  /**
   * False while the event stream to the bridge itself is down. EventSource reconnects by itself after
   * a dropped connection; a refused one (503 when the bridge has its most dashboards) is retried here.
   */
  streamOpen: boolean;
  error: string | null;
}

const RETRY_FIRST_MS = 3000;
const RETRY_MAX_MS = 60_000;

/**
 * Live data for the dashboard: the event stream pushes the raw state on connect and after every
 * poll; each push triggers a snapshot fetch (names, estimates, tariff live there). Fetches never
 * overlap: a push that arrives during one is folded into a single follow-up fetch.
 */
export function useLive(): Live {
  const [live, setLive] = useState<Live>({ snapshot: null, state: null, streamOpen: false, error: null });
  const inFlight = useRef(false);
  const again = useRef(false);

  useEffect(() => {
    let closed = false;
    const refresh = async () => {
      if (inFlight.current) {
        again.current = true;
        return;
      }
      inFlight.current = true;
      try {
        do {
          again.current = false;
          const snapshot = await api.get<Snapshot>('/api/snapshot');
          if (!closed) setLive((l) => ({ ...l, snapshot, error: null }));
        } while (again.current && !closed);
      } catch (err) {
        if (!closed) setLive((l) => ({ ...l, error: messageOf(err) }));
      } finally {
        inFlight.current = false;
      }
    };
    let source: EventSource | null = null;
    let retry: ReturnType<typeof setTimeout> | undefined;
    let retryMs = RETRY_FIRST_MS;
    const connect = () => {
      const es = new EventSource('/events');
      source = es;
      es.onopen = () => {
        retryMs = RETRY_FIRST_MS;
        setLive((l) => ({ ...l, streamOpen: true }));
      };
      es.onmessage = (ev) => {
        try {
          const state = JSON.parse(ev.data as string) as LiveState;
          setLive((l) => ({ ...l, state, streamOpen: true }));
        } catch {
          /* a malformed frame: the next poll brings a fresh one */
        }
        void refresh();
      };
      es.onerror = () => {
        setLive((l) => ({ ...l, streamOpen: false }));
        // CLOSED: the browser gave up (the answer was not a stream); try again later, less often each time.
        if (es.readyState === EventSource.CLOSED && !closed) {
          retry = setTimeout(connect, retryMs);
          retryMs = Math.min(RETRY_MAX_MS, retryMs * 2);
        }
      };
    };
    connect();
    void refresh();
    return () => {
      closed = true;
      clearTimeout(retry);
      source?.close();
    };
  }, []);

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
