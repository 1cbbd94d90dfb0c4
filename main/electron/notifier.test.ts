import { describe, expect, it } from 'vitest';
import { emptyLiveState, type LiveState } from '../energy/live-state.js';
import { createNotifier, OFFLINE_NOTICE_MS } from './notifier.js';
import type { LastSync } from './sync-status.js';

const base = (): LiveState => emptyLiveState({ host: '127.0.0.1', port: 502 }, 2000);
/** Alerts are read defensively, so the tests also feed partial and malformed entries. */
type Loose = Omit<Partial<LiveState>, 'alerts'> & { alerts?: unknown[] };
const online = (extra: Loose = {}): LiveState => ({ ...base(), connected: true, lastUpdated: 1, ...extra }) as LiveState;
const offline = (extra: Loose = {}): LiveState => ({ ...base(), connected: false, lastUpdated: 1, lastError: 'connect ECONNREFUSED', ...extra }) as LiveState;

/** Timers driven by hand: the test says when a minute has passed. */
function manualTimers() {
  const pending = new Map<number, { fn: () => void; ms: number }>();
  let id = 0;
  return {
    setTimer: (fn: () => void, ms: number) => {
      pending.set(++id, { fn, ms });
      return id as unknown as NodeJS.Timeout;
    },
    clearTimer: (t: NodeJS.Timeout) => void pending.delete(t as unknown as number),
    fireAll() {
      const all = [...pending.values()];
      pending.clear();
      for (const p of all) p.fn();
    },
    delays: () => [...pending.values()].map((p) => p.ms),
  };
}

const run = (over: Partial<LastSync>): LastSync => ({ id: 1, status: 'ok', finishedAt: 0, downloaded: 0, failed: 0, skipped: 0, error: null, note: null, ...over });

describe('desktop notifications', () => {
  it('one per alert that fires and one when it clears, however often the state repeats', () => {
    const shown: string[] = [];
    const n = createNotifier({ show: (t) => shown.push(t), enabled: () => true });
    const alert = { id: 'grid-import', name: 'High grid import', message: 'Import above 5 kW', since: 1 };
    n.onState(online());
    n.onState(online({ alerts: [alert] }));
    n.onState(online({ alerts: [alert] }));
    n.onState(online({ alerts: [alert, { id: 7, name: 'Battery low' }] }));
    n.onState(online({ alerts: [{ id: 7, name: 'Battery low' }] }));
    n.onState(online({ alerts: [] }));
    expect(shown).toEqual(['Alert: High grid import', 'Alert: Battery low', 'Alert cleared: High grid import', 'Alert cleared: Battery low']);
  });

  it('reads alerts defensively: a state without them, or malformed entries, notifies nothing', () => {
    const shown: string[] = [];
    const n = createNotifier({ show: (t) => shown.push(t), enabled: () => true });
    const { alerts: _gone, ...noAlerts } = online();
    n.onState(noAlerts as LiveState);
    n.onState(online({ alerts: [null, 'x', { name: 'no id' }, { id: {} }] as unknown[] }));
    expect(shown).toEqual([]);
  });

  it('the gateway offline for more than a minute notifies once; back online says so; a short drop says nothing', () => {
    const shown: Array<[string, string]> = [];
    const timers = manualTimers();
    const n = createNotifier({ show: (t, b) => shown.push([t, b]), enabled: () => true, ...timers });
    n.onState(offline()); // never connected yet (first run): nothing to say
    expect(timers.delays()).toEqual([]);
    n.onState(online());
    n.onState(offline());
    n.onState(offline());
    expect(timers.delays()).toEqual([OFFLINE_NOTICE_MS]);
    expect(OFFLINE_NOTICE_MS).toBe(60_000);
    n.onState(online()); // back within the minute
    timers.fireAll();
    expect(shown).toEqual([]);

    n.onState(offline());
    timers.fireAll();
    expect(shown).toEqual([['Gateway offline', 'No reading from 127.0.0.1:502 for over a minute: connect ECONNREFUSED']]);
    n.onState(offline());
    timers.fireAll();
    expect(shown).toHaveLength(1);
    n.onState(online());
    expect(shown.map((s) => s[0])).toEqual(['Gateway offline', 'Gateway back online']);
  });

  it('a sync that downloaded or failed notifies; a quiet one does not', () => {
    const shown: Array<[string, string]> = [];
    const n = createNotifier({ show: (t, b) => shown.push([t, b]), enabled: () => true });
    n.onSyncFinished(run({ downloaded: 0 }));
    n.onSyncFinished(run({ downloaded: 3 }));
    n.onSyncFinished(run({ status: 'partial', downloaded: 1, failed: 2 }));
    n.onSyncFinished(run({ status: 'error', error: 'no recording box found (set box_address or check the network)' }));
    expect(shown).toEqual([
      ['New recordings', '3 episodes downloaded'],
      ['Recording sync finished with failures', '1 episode downloaded, 2 episodes failed'],
      ['Recording sync failed', 'no recording box found (set box_address or check the network)'],
    ]);
  });

  it('the Notifications setting off silences everything, and turning it on does not replay old alerts', () => {
    const shown: string[] = [];
    let on = false;
    const n = createNotifier({ show: (t) => shown.push(t), enabled: () => on });
    n.onState(online({ alerts: [{ id: 'a', name: 'A' }] }));
    n.onSyncFinished(run({ status: 'error', error: 'x' }));
    on = true;
    n.onState(online({ alerts: [{ id: 'a', name: 'A' }] }));
    expect(shown).toEqual([]);
  });
});
