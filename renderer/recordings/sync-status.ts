import { useEffect, useState } from 'react';
import { rec } from './api.js';
import type { SyncRun, SyncState } from './types.js';
import { useLivePoll } from './use-live.js';

/**
 * The sync state every recordings page shares (the header's idle/syncing chip): the header polls
 * `GET /api/sync` at the spec's cadence, and any page that loads it too (or starts a sync) announces
 * what it got, so the chip turns at once instead of on the header's next poll.
 */
let latest: { state: SyncState; at: number } | null = null;
const listeners = new Set<() => void>();

/**
 * What `GET /api/sync` answered to a request sent at `askedAt` (epoch ms). An answer to a request
 * sent before the latest one known (e.g. the header's poll that overtook a started sync) is dropped:
 * an older "idle" never overwrites a newer "syncing".
 */
export function announceSync(state: SyncState, askedAt = Date.now()): void {
  if (latest && askedAt < latest.at) return;
  latest = { state, at: askedAt };
  for (const l of listeners) l();
}

/** This page started `run` (the 202 of "Sync now"): the header shows it at once, on every page. */
export function announceStarted(run: SyncRun): void {
  announceSync({ schedule: latest?.state.schedule ?? null, running: run });
}

const loadSync = async (): Promise<SyncState> => {
  const askedAt = Date.now();
  const s = await rec.get<SyncState>('/api/sync');
  announceSync(s, askedAt);
  return s;
};

/** The latest known sync state (null until the first answer). */
export function useSyncState(): { state: SyncState | null; error: string | null; refresh: () => Promise<void> } {
  const live = useLivePoll(loadSync, (s) => s.running !== null);
  const [, tick] = useState(0);
  useEffect(() => {
    const l = () => tick((n) => n + 1);
    listeners.add(l);
    return () => void listeners.delete(l);
  }, []);
  const { refresh } = live;
  // A page saw a sync start: poll at the live cadence from now on.
  const running = latest?.state.running ?? null;
  useEffect(() => {
    if (running && live.data && !live.data.running) void refresh();
  }, [running, live.data, refresh]);
  return { state: latest?.state ?? live.data, error: live.error, refresh };
}
