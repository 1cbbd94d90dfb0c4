/**
 * The preload bridge: the pages are plain web pages served by the services and work the same in
 * any browser, so the app exposes only what a browser cannot do: tell that it runs in the tray
 * app, open another app window, and say which services run. The preload is sandboxed, so it
 * cannot import main/electron/ipc.ts: the channel names are repeated here (checked by a test).
 */
import { contextBridge, ipcRenderer } from 'electron';
import type { DesktopApi } from '../main/electron/ipc.js';

const desktop: DesktopApi = Object.freeze({
  isDesktopApp: true as const,
  platform: process.platform,
  openPage: (page: Parameters<DesktopApi['openPage']>[0]) => ipcRenderer.invoke('desktop:open-page', page) as Promise<boolean>,
  appInfo: () => ipcRenderer.invoke('desktop:app-info') as ReturnType<DesktopApi['appInfo']>,
});

contextBridge.exposeInMainWorld('desktop', desktop);
