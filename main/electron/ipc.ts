import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { z } from 'zod';
import { isAllowedUrl } from './security.js';
import { PAGE_NAMES, type Page } from './windows.js';

/**
 * IPC channel names. The preload (sandboxed, so it cannot import this file) repeats them;
 * preload/preload.test.ts checks that the two agree.
 */
export const IPC = {
  /** A page asks the tray to open (or focus) another app window: `openPage(page)`. */
  openPage: 'desktop:open-page',
  /** The app's version and which services run: `appInfo()`. */
  appInfo: 'desktop:app-info',
} as const;

/** What the preload exposes as `window.desktop`. */
export interface DesktopApi {
  readonly isDesktopApp: true;
  readonly platform: string;
  openPage(page: Page): Promise<boolean>;
  appInfo(): Promise<AppInfo>;
}

export interface AppInfo {
  version: string;
  services: { energy: boolean; recordings: boolean };
}

const pageArg = z.enum(PAGE_NAMES as [Page, ...Page[]]);

/** Only a frame showing one of the app's own origins may call the main process. */
export function isTrustedSender(event: Pick<IpcMainInvokeEvent, 'senderFrame'>, origins: readonly string[]): boolean {
  const url = event.senderFrame?.url;
  return typeof url === 'string' && isAllowedUrl(url, origins);
}

/** Registers the handlers; every argument is validated before a handler runs. */
export function registerIpc(
  ipcMain: Pick<IpcMain, 'handle'>,
  deps: { origins: () => readonly string[]; open(page: Page): boolean; info(): AppInfo },
): void {
  ipcMain.handle(IPC.openPage, (event, page: unknown) => {
    if (!isTrustedSender(event, deps.origins())) throw new Error('refused: not an app page');
    const parsed = pageArg.safeParse(page);
    if (!parsed.success) throw new Error(`page must be one of ${PAGE_NAMES.join(', ')}`);
    return deps.open(parsed.data);
  });
  ipcMain.handle(IPC.appInfo, (event) => {
    if (!isTrustedSender(event, deps.origins())) throw new Error('refused: not an app page');
    return deps.info();
  });
}
