import path from 'node:path';
import type { BrowserWindow as BrowserWindowType, BrowserWindowConstructorOptions, Rectangle } from 'electron';
import type { WindowBounds } from './tray-prefs.js';

export type ServiceName = 'energy' | 'recordings';

/** Every window the tray opens: which service serves it, at which path. */
export const PAGES = {
  dashboard: { service: 'energy', path: '/', title: 'Dashboard' },
  trends: { service: 'energy', path: '/trends', title: 'Trends' },
  settings: { service: 'energy', path: '/settings', title: 'Energy settings' },
  recordings: { service: 'recordings', path: '/', title: 'Recordings' },
  'recordings-settings': { service: 'recordings', path: '/settings', title: 'Recording settings' },
} as const satisfies Record<string, { service: ServiceName; path: string; title: string }>;

export type Page = keyof typeof PAGES;
export const PAGE_NAMES = Object.keys(PAGES) as Page[];

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

/**
 * A remembered size and position, checked against today's screens: a window whose place is no
 * longer on any display (a monitor was unplugged) keeps its size and is centred instead.
 */
export function placeWindow(saved: WindowBounds | undefined, workAreas: readonly Rectangle[]): Partial<Rectangle> {
  if (!saved) return {};
  const largest = workAreas.reduce((a, b) => (b.width * b.height > a.width * a.height ? b : a), workAreas[0] ?? { x: 0, y: 0, width: 20_000, height: 20_000 });
  const size = { width: Math.min(saved.width, largest.width), height: Math.min(saved.height, largest.height) };
  if (saved.x === undefined || saved.y === undefined) return size;
  const visible = workAreas.some((a) => overlap(a.x, a.width, saved.x!, size.width) >= 100 && overlap(a.y, a.height, saved.y!, size.height) >= 50);
  return visible ? { x: saved.x, y: saved.y, ...size } : size;
}

const overlap = (a: number, al: number, b: number, bl: number) => Math.max(0, Math.min(a + al, b + bl) - Math.max(a, b));

/** Where bounds are remembered (the tray's prefs file). */
export interface BoundsMemory {
  save(page: Page, bounds: WindowBounds): void;
}

/**
 * One window per page: opening a page again focuses the window it already has. Each window's size
 * and position are saved when it moves, resizes or closes.
 */
export function createWindowRegistry(make: (page: Page) => BrowserWindowType, memory?: BoundsMemory) {
  const open = new Map<Page, BrowserWindowType>();
  const remember = (page: Page, win: BrowserWindowType) => {
    if (!memory || win.isDestroyed()) return;
    if (typeof win.isMinimized === 'function' && win.isMinimized()) return;
    const b = typeof win.getNormalBounds === 'function' ? win.getNormalBounds() : win.getBounds();
    memory.save(page, { x: Math.round(b.x), y: Math.round(b.y), width: Math.round(b.width), height: Math.round(b.height) });
  };
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
      let timer: NodeJS.Timeout | null = null;
      const later = () => {
        if (timer) clearTimeout(timer);
        timer = setTimeout(() => remember(page, win), 500);
        timer.unref();
      };
      win.on('resize', later);
      win.on('move', later);
      win.on('close', () => {
        if (timer) clearTimeout(timer);
        remember(page, win);
      });
      win.on('closed', () => open.delete(page));
      win.once('ready-to-show', () => win.show());
      return win;
    },
    /** Pages with an open window. */
    openPages: (): Page[] => [...open.keys()],
    /** Saves every window's place, then destroys them (quit). */
    closeAll(): void {
      for (const [page, win] of open) {
        remember(page, win);
        if (!win.isDestroyed()) win.destroy();
      }
      open.clear();
    },
    get size() {
      return open.size;
    },
  };
}
