import { api, messageOf } from '../api.js';
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

type Listener = (live: Live) => void;

/**
 * The page's one event stream to the bridge, shared by whoever reads it (the dashboard or wall view,
 * and the header while such a page is open): the bridge serves only a few streams per device. It
 * carries the raw state (unnamed events) and, after each, that poll's snapshot (`event: snapshot`),
 * so nothing is fetched per event. Opened by the first `subscribeLive`, closed with the last.
 */
let live: Live = { snapshot: null, state: null, streamOpen: false, error: null };
const readers = new Set<Listener>();
const watchers = new Set<(live: Live | null) => void>();
let source: EventSource | null = null;
let retry: ReturnType<typeof setTimeout> | undefined;
let retryMs = RETRY_FIRST_MS;

function set(patch: Partial<Live>): void {
  live = { ...live, ...patch };
  for (const r of readers) r(live);
  for (const w of watchers) w(live);
}

/** The service worker's cache (public/sw.js): offline, it answers `GET /api/snapshot` from here. */
const OFFLINE_CACHE = 'last-state-v1';

/**
 * Keeps the stream's latest snapshot where the service worker answers `/api/snapshot` from when the
 * bridge cannot be reached, so the page opened offline shows the last state this device saw (the
 * page no longer fetches the snapshot itself while the stream is up, so the worker sees none).
 */
function keepForOffline(text: string): void {
  if (typeof caches === 'undefined') return;
  const headers = { 'content-type': 'application/json', 'x-saved-at': new Date().toISOString() };
  void caches
    .open(OFFLINE_CACHE)
    .then((c) => c.put('/api/snapshot', new Response(text, { headers })))
    .catch(() => undefined);
}

function connect(): void {
  const es = new EventSource('/events');
  source = es;
  es.onopen = () => {
    retryMs = RETRY_FIRST_MS;
    set({ streamOpen: true });
  };
  es.onmessage = (ev) => {
    try {
      set({ state: JSON.parse(ev.data as string) as LiveState, streamOpen: true });
    } catch {
      /* a malformed frame: the next poll brings a fresh one */
    }
  };
  es.addEventListener('snapshot', (ev) => {
    try {
      const text = (ev as MessageEvent).data as string;
      set({ snapshot: JSON.parse(text) as Snapshot, error: null });
      keepForOffline(text);
    } catch {
      /* as above */
    }
  });
  es.onerror = () => {
    set({ streamOpen: false });
    if (source !== es) return;
    // The stream is down: show the snapshot once (offline, the service worker's kept copy, marked
    // as such). CLOSED: the browser gave up (the answer was not a stream); try again later, less
    // often each time (otherwise the browser reconnects by itself).
    void api.get<Snapshot>('/api/snapshot').then(
      (snapshot) => source === es && set({ snapshot, error: null }),
      (err: unknown) => source === es && set({ error: messageOf(err) }),
    );
    if (es.readyState === EventSource.CLOSED) {
      retry = setTimeout(connect, retryMs);
      retryMs = Math.min(RETRY_MAX_MS, retryMs * 2);
    }
  };
}

function close(): void {
  clearTimeout(retry);
  source?.close();
  source = null;
  retryMs = RETRY_FIRST_MS;
  live = { snapshot: null, state: null, streamOpen: false, error: null };
  for (const w of watchers) w(null);
}

/** Reads the stream (opening it if nobody does yet); the listener gets every change. Returns the unsubscribe. */
export function subscribeLive(listener: Listener): () => void {
  readers.add(listener);
  if (readers.size === 1) {
    connect();
    for (const w of watchers) w(live);
  }
  listener(live);
  return () => {
    readers.delete(listener);
    if (readers.size === 0) close();
  };
}

/**
 * Follows the stream without opening one: the listener gets the live data while some reader holds
 * the stream, and null while none does (the header then asks `GET /api/state` itself).
 */
export function watchLive(listener: (live: Live | null) => void): () => void {
  watchers.add(listener);
  listener(readers.size > 0 ? live : null);
  return () => {
    watchers.delete(listener);
  };
}
