import type { MenuItemConstructorOptions } from 'electron';
import type { LiveState } from '../energy/live-state.js';
import type { Page } from './windows.js';

/** The tray's status line: battery %, power flow and the gateway state. */
export function statusLine(state: LiveState | null): string {
  if (!state || state.lastUpdated === null) return 'Gateway: waiting for the first reading';
  const soc = state.battery.soc === null ? '–' : `${Math.round(state.battery.soc)}%`;
  const kw = (w: number | null) => (w === null ? '–' : `${(Math.abs(w) / 1000).toFixed(1)} kW`);
  const grid = state.power.grid === null ? '' : state.power.grid >= 0 ? ` · grid in ${kw(state.power.grid)}` : ` · grid out ${kw(state.power.grid)}`;
  const prefix = state.connected ? '' : 'Offline · ';
  return `${prefix}Battery ${soc} · solar ${kw(state.power.solar)}${grid}`;
}

export function trayMenu(
  state: LiveState | null,
  lastSync: string | null,
  actions: { open(page: Page): void; syncNow(): void; quit(): void },
): MenuItemConstructorOptions[] {
  return [
    { label: statusLine(state), enabled: false },
    { label: lastSync ? `Last sync: ${lastSync}` : 'Last sync: never', enabled: false },
    { type: 'separator' },
    { label: 'Dashboard', click: () => actions.open('dashboard') },
    { label: 'Trends', click: () => actions.open('trends') },
    { label: 'Recordings', click: () => actions.open('recordings') },
    { label: 'Settings', click: () => actions.open('settings') },
    { type: 'separator' },
    { label: 'Sync now', click: () => actions.syncNow() },
    { label: 'Quit', click: () => actions.quit() },
  ];
}
