import type { LiveState } from '../energy/live-state.js';
import type { LastSync } from './sync-status.js';

/** The gateway must stay unreachable this long before the tray says so. */
export const OFFLINE_NOTICE_MS = 60_000;

export interface NotifierDeps {
  show(title: string, body: string): void;
  /** The "Notifications" setting, read at each event. */
  enabled(): boolean;
  setTimer?: (fn: () => void, ms: number) => NodeJS.Timeout;
  clearTimer?: (t: NodeJS.Timeout) => void;
}

interface AlertView {
  name: string;
  message: string | null;
}

/**
 * Alerts as the energy service publishes them in the live state (`alerts`: id, name, message, since).
 * Read defensively: a missing field or an older service without alerts yields none.
 */
export function activeAlerts(state: object): Map<string, AlertView> {
  const out = new Map<string, AlertView>();
  const list = (state as { alerts?: unknown }).alerts;
  if (!Array.isArray(list)) return out;
  for (const a of list) {
    if (!a || typeof a !== 'object') continue;
    const { id, name, message } = a as Record<string, unknown>;
    if (typeof id !== 'string' && typeof id !== 'number') continue;
    const label = typeof name === 'string' && name ? name : String(id);
    out.set(String(id), { name: label.slice(0, 120), message: typeof message === 'string' ? message.slice(0, 200) : null });
  }
  return out;
}

/**
 * Desktop notifications: one per alert that fires or clears, one per finished sync that downloaded
 * episodes or failed, and one when the gateway has been offline for more than a minute.
 */
export function createNotifier(deps: NotifierDeps) {
  const setTimer = deps.setTimer ?? ((fn, ms) => setTimeout(fn, ms));
  const clearTimer = deps.clearTimer ?? ((t) => clearTimeout(t));
  let known = new Map<string, AlertView>();
  let everConnected = false;
  let offlineTimer: NodeJS.Timeout | null = null;
  let offlineNotified = false;
  let latest: LiveState | null = null;
  const notify = (title: string, body: string) => {
    if (deps.enabled()) deps.show(title, body);
  };

  return {
    onState(state: LiveState): void {
      latest = state;
      const now = activeAlerts(state);
      for (const [id, a] of now) if (!known.has(id)) notify(`Alert: ${a.name}`, a.message ?? 'The alert condition is met.');
      for (const [id, a] of known) if (!now.has(id)) notify(`Alert cleared: ${a.name}`, 'The condition is no longer met.');
      known = now;

      if (state.connected) {
        everConnected = true;
        if (offlineTimer) clearTimer(offlineTimer);
        offlineTimer = null;
        if (offlineNotified) notify('Gateway back online', `Readings from ${state.gateway.host} are coming in again.`);
        offlineNotified = false;
      } else if (everConnected && !offlineTimer && !offlineNotified) {
        offlineTimer = setTimer(() => {
          offlineTimer = null;
          if (latest && !latest.connected) {
            offlineNotified = true;
            const why = latest.lastError ? `: ${latest.lastError.slice(0, 150)}` : '';
            notify('Gateway offline', `No reading from ${latest.gateway.host}:${latest.gateway.port} for over a minute${why}`);
          }
        }, OFFLINE_NOTICE_MS);
        offlineTimer.unref?.();
      }
    },
    onSyncFinished(run: LastSync): void {
      if (run.status === 'error') {
        notify('Recording sync failed', run.error ?? 'The sync run ended with an error.');
      } else if (run.downloaded > 0 || run.failed > 0) {
        const eps = (n: number) => `${n} episode${n === 1 ? '' : 's'}`;
        const parts = [run.downloaded > 0 ? `${eps(run.downloaded)} downloaded` : '', run.failed > 0 ? `${eps(run.failed)} failed` : ''].filter(Boolean);
        notify(run.failed > 0 ? 'Recording sync finished with failures' : 'New recordings', parts.join(', '));
      }
    },
    dispose(): void {
      if (offlineTimer) clearTimer(offlineTimer);
      offlineTimer = null;
    },
  };
}
