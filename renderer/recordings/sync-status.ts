import { useEffect, useState } from 'react';
import { rec } from './api.js';
import type { SyncState } from './types.js';
import { useLivePoll } from './use-live.js';

/**
 * The sync state every recordings page shares (the header's idle/syncing chip): the header polls
 * `GET /api/sync` at the spec's cadence, and any page that loads it too (or starts a sync) announces
 * what it got, so the chip turns at once instead of on the header's next poll.
 */
let latest: { state: SyncState; at: number } | null = null;
const listeners = new Set<() => void>();

export function announceSync(state: SyncState): void {
  latest = { state, at: Date.now() };
  for (const l of listeners) l();
}

const loadSync = async (): Promise<SyncState> => {
  const s = await rec.get<SyncState>('/api/sync');
  announceSync(s);
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
