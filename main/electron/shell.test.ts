import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { EventEmitter } from 'node:events';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

// electron is mocked: there is no Electron binary on CI machines, and importing the real module
// would try to download one. These tests exercise the shell's own logic against that mock.
const created: FakeWindow[] = [];
class FakeWindow extends EventEmitter {
  static opts: unknown[] = [];
  loaded: string[] = [];
  destroyed = false;
  constructor(opts: unknown) {
    super();
    FakeWindow.opts.push(opts);
    created.push(this);
  }
  loadURL(url: string) {
    this.loaded.push(url);
    return Promise.resolve();
  }
  isDestroyed() {
    return this.destroyed;
  }
  isMinimized() {
    return false;
  }
  show() {}
  focus() {}
  restore() {}
  destroy() {
    this.destroyed = true;
    this.emit('closed');
  }
}
const appEvents = new EventEmitter();
const electronMock = {
  app: Object.assign(appEvents, {
    requestSingleInstanceLock: vi.fn(() => true),
    quit: vi.fn(),
    exit: vi.fn(),
    whenReady: vi.fn(() => Promise.resolve()),
    getPath: vi.fn(() => ''),
  }),
  BrowserWindow: FakeWindow,
  Menu: { buildFromTemplate: vi.fn((t: unknown) => t) },
  nativeImage: { createFromPath: vi.fn(() => ({})) },
  session: { defaultSession: { setPermissionRequestHandler: vi.fn(), setPermissionCheckHandler: vi.fn() } },
  shell: { openExternal: vi.fn() },
  Tray: class extends EventEmitter {
    menu: unknown;
    setToolTip() {}
    setContextMenu(m: unknown) {
      this.menu = m;
    }
    destroy() {}
  },
};
vi.mock('electron', () => ({ ...electronMock, default: electronMock }));

const { startShell } = await import('./shell.js');
const { hardenContents, hardenSession } = await import('./security.js');

let dataDir: string;
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shell-'));
  created.length = 0;
  FakeWindow.opts.length = 0;
});
afterEach(() => fs.rmSync(dataDir, { recursive: true, force: true }));

describe('electron shell (electron mocked)', () => {
  it('quits at once when another instance holds the lock', async () => {
    electronMock.app.requestSingleInstanceLock.mockReturnValueOnce(false);
    expect(await startShell({ env: { DATA_DIR: dataDir } })).toBeNull();
    expect(electronMock.app.quit).toHaveBeenCalled();
  });

  it('starts the services, opens isolated windows on their pages and stops everything on quit', async () => {
    const env = { DATA_DIR: dataDir, BIND_HOST: '127.0.0.1', SERVER_PORT: '0', PORT: '0', LOG_LEVEL: 'silent' };
    const shell = await startShell({ env });
    expect(shell).not.toBeNull();
    appEvents.emit('second-instance');
    expect(created).toHaveLength(1);
    const opts = FakeWindow.opts[0] as { webPreferences: Record<string, unknown> };
    expect(opts.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
    const url = new URL(created[0]!.loaded[0]!);
    expect(url.hostname).toBe('127.0.0.1');
    const page = await fetch(`${url.origin}/api/state`);
    expect(page.status).toBe(200);
    appEvents.emit('second-instance');
    expect(created).toHaveLength(1); // focuses the open window, no second one
    await shell!.quit();
    expect(electronMock.app.exit).toHaveBeenCalledWith(0);
    await expect(fetch(`${url.origin}/api/state`)).rejects.toThrow();
  });

  it('denies permissions, foreign navigation and window.open', () => {
    const s = { setPermissionRequestHandler: vi.fn(), setPermissionCheckHandler: vi.fn() };
    hardenSession(s as never);
    const cb = vi.fn();
    s.setPermissionRequestHandler.mock.calls[0]![0](null, 'media', cb);
    expect(cb).toHaveBeenCalledWith(false);

    const contents = new EventEmitter() as EventEmitter & { setWindowOpenHandler: (h: (d: { url: string }) => unknown) => void; handler?: (d: { url: string }) => unknown };
    contents.setWindowOpenHandler = (h) => (contents.handler = h);
    const openExternal = vi.fn();
    hardenContents(contents as never, () => ['http://127.0.0.1:5163'], openExternal);
    const inside = { preventDefault: vi.fn() };
    contents.emit('will-navigate', inside, 'http://127.0.0.1:5163/trends');
    expect(inside.preventDefault).not.toHaveBeenCalled();
    const outside = { preventDefault: vi.fn() };
    contents.emit('will-navigate', outside, 'https://example.invalid/phish');
    expect(outside.preventDefault).toHaveBeenCalled();
    expect(openExternal).toHaveBeenCalledWith('https://example.invalid/phish');
    expect(contents.handler!({ url: 'http://127.0.0.1:5163/' })).toEqual({ action: 'deny' });
  });
});
