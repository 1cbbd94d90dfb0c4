import path from 'node:path';
import type { BrowserWindow as BrowserWindowType, BrowserWindowConstructorOptions } from 'electron';

export type Page = 'dashboard' | 'trends' | 'settings' | 'recordings';

export const PAGE_PATHS: Record<Page, string> = {
  dashboard: '/',
  trends: '/trends',
  settings: '/settings',
  recordings: '/',
};

/** Window options every app window uses: isolated, sandboxed, no Node in the page. */
export function secureWindowOptions(preloadDir: string): BrowserWindowConstructorOptions {
  return {
    width: 1200,
    height: 820,
    minWidth: 380,
    minHeight: 520,
    show: false,
    autoHideMenuBar: true,
    webPreferences: {
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
      preload: path.join(preloadDir, 'index.cjs'),
    },
  };
}

/** One window per page: opening a page again focuses the window it already has. */
export function createWindowRegistry(make: (page: Page) => BrowserWindowType) {
  const open = new Map<Page, BrowserWindowType>();
  return {
    show(page: Page): BrowserWindowType {
      const existing = open.get(page);
      if (existing && !existing.isDestroyed()) {
        if (existing.isMinimized()) existing.restore();
        existing.show();
        existing.focus();
        return existing;
      }
      const win = make(page);
      open.set(page, win);
      win.on('closed', () => open.delete(page));
      win.once('ready-to-show', () => win.show());
      return win;
    },
    closeAll(): void {
      for (const win of open.values()) if (!win.isDestroyed()) win.destroy();
      open.clear();
    },
    get size() {
      return open.size;
    },
  };
}
