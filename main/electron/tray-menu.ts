import type { MenuItemConstructorOptions } from 'electron';
import type { LiveState } from '../energy/live-state.js';
import type { TrayControl } from './control-link.js';
import { activeAlerts } from './notifier.js';
import { lastSyncLabel, syncActivityLabel, type LastSync, type SyncActivity } from './sync-status.js';
import type { Page } from './windows.js';

/** The tray's status line: battery %, power flow and the gateway state. */
export function statusLine(state: LiveState | null): string {
  if (!state || state.lastUpdated === null) return state && state.lastError ? `Gateway offline: ${state.lastError.slice(0, 60)}` : 'Gateway: waiting for the first reading';
  const soc = state.battery.soc === null ? '–' : `${Math.round(state.battery.soc)}%`;
  const kw = (w: number | null) => (w === null ? '–' : `${(Math.abs(w) / 1000).toFixed(1)} kW`);
  const grid = state.power.grid === null ? '' : state.power.grid >= 0 ? ` · grid in ${kw(state.power.grid)}` : ` · grid out ${kw(state.power.grid)}`;
  const prefix = state.connected ? '' : 'Gateway offline · ';
  const alerts = activeAlerts(state).size;
  const alertText = alerts ? ` · ${alerts} alert${alerts === 1 ? '' : 's'}` : '';
  return `${prefix}Battery ${soc} · solar ${kw(state.power.solar)}${grid}${alertText}`;
}

/** Everything the menu shows, gathered by the shell. */
export interface TrayModel {
  /** Live state, or null when the energy bridge is not running. */
  energy: LiveState | null;
  energyRunning: boolean;
  recordingsRunning: boolean;
  lastSync: LastSync | null;
  sync: SyncActivity;
  notifications: boolean;
  openAtLogin: boolean;
  formatTime(ms: number): string;
  /** Why a service that is not running could not start, and what to change (one line each). */
  problems?: Partial<Record<'energy' | 'recordings', string>>;
  /** Battery control as the bridge reports it (null: unknown or not running). */
  control?: TrayControl | null;
}

export interface TrayActions {
  open(page: Page): void;
  syncNow(): void;
  /** The kill switch: battery control back to Automatic at once. */
  stopControl(): void;
  setNotifications(on: boolean): void;
  setOpenAtLogin(on: boolean): void;
  quit(): void;
}

export function trayMenu(m: TrayModel, actions: TrayActions): MenuItemConstructorOptions[] {
  const energyNote = m.energyRunning ? '' : ' (not running)';
  const recNote = m.recordingsRunning ? '' : ' (not running)';
  // A service that could not start says why under its line, with the setting to change.
  const problem = (running: boolean, text: string | undefined): MenuItemConstructorOptions[] => (!running && text ? [{ label: text, enabled: false }] : []);
  return [
    { label: m.energyRunning ? statusLine(m.energy) : 'Energy bridge not running', enabled: false },
    ...problem(m.energyRunning, m.problems?.energy),
    { label: m.recordingsRunning ? lastSyncLabel(m.lastSync, m.formatTime) : 'Recording sync not running', enabled: false },
    ...problem(m.recordingsRunning, m.problems?.recordings),
    { type: 'separator' },
    { label: `Dashboard${energyNote}`, enabled: m.energyRunning, click: () => actions.open('dashboard') },
    { label: `Trends${energyNote}`, enabled: m.energyRunning, click: () => actions.open('trends') },
    { label: `Recordings${recNote}`, enabled: m.recordingsRunning, click: () => actions.open('recordings') },
    {
      label: 'Settings',
      submenu: [
        { label: `Energy bridge${energyNote}`, enabled: m.energyRunning, click: () => actions.open('settings') },
        { label: `Recording sync${recNote}`, enabled: m.recordingsRunning, click: () => actions.open('recordings-settings') },
      ],
    },
    // The kill switch, while battery control has the plant (docs/battery-control.md).
    ...(m.energyRunning && m.control?.active
      ? ([
          { type: 'separator' },
          { label: `Battery control${m.control.dryRun ? ' (dry run)' : ''}: ${m.control.description}`, enabled: false },
          { label: 'Stop battery control', click: () => actions.stopControl() },
        ] satisfies MenuItemConstructorOptions[])
      : []),
    { type: 'separator' },
    // While a run goes the item shows its progress and cannot start a second one.
    { label: m.recordingsRunning ? syncActivityLabel(m.sync) : 'Sync now', enabled: m.recordingsRunning && !m.sync.running, click: () => actions.syncNow() },
    { type: 'separator' },
    { label: 'Notifications', type: 'checkbox', checked: m.notifications, click: (item) => actions.setNotifications(Boolean(item.checked)) },
    { label: 'Open at login', type: 'checkbox', checked: m.openAtLogin, click: (item) => actions.setOpenAtLogin(Boolean(item.checked)) },
    { type: 'separator' },
    { label: 'Quit', click: () => actions.quit() },
  ];
}
