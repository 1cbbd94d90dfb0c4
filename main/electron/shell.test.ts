import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { EventEmitter } from 'node:events';
import type { MenuItemConstructorOptions } from 'electron';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createBoxSimulator, type BoxSimulator } from '../recordings/box/simulator/box-simulator.js';
import { ApiClient } from '../recordings/testing/harness.js';
import { startGatewaySimulator, type GatewaySimulator } from '../energy/simulator/gateway-simulator.js';

// electron is mocked: there is no Electron binary on CI machines, and importing the real module
// would try to download one. These tests exercise the shell against that mock with the real
// services on loopback (port 0), a simulated gateway and a simulated recording box.
const created: FakeWindow[] = [];
class FakeWindow extends EventEmitter {
  static opts: Array<Record<string, unknown>> = [];
  loaded: string[] = [];
  destroyed = false;
  bounds = { x: 0, y: 0, width: 1200, height: 820 };
  constructor(opts: Record<string, unknown>) {
    super();
    FakeWindow.opts.push(opts);
    if (typeof opts.width === 'number') this.bounds = { x: Number(opts.x ?? 0), y: Number(opts.y ?? 0), width: opts.width, height: Number(opts.height) };
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
  getBounds() {
    return this.bounds;
  }
  getNormalBounds() {
    return this.bounds;
  }
  show() {}
  focus() {}
  restore() {}
  close() {
    this.emit('close');
    this.destroy();
  }
  destroy() {
    this.destroyed = true;
    this.emit('closed');
  }
}
const trays: FakeTray[] = [];
class FakeTray extends EventEmitter {
  menu: MenuItemConstructorOptions[] = [];
  tooltip = '';
  destroyed = false;
  constructor() {
    super();
    trays.push(this);
  }
  setToolTip(t: string) {
    this.tooltip = t;
  }
  setContextMenu(m: MenuItemConstructorOptions[]) {
    this.menu = m;
  }
  destroy() {
    this.destroyed = true;
  }
}
const notifications: Array<{ title: string; body: string }> = [];
class FakeNotification {
  static isSupported = () => true;
  constructor(private readonly o: { title: string; body: string }) {}
  show() {
    notifications.push({ title: this.o.title, body: this.o.body });
  }
}
const ipcHandlers = new Map<string, (event: unknown, ...args: unknown[]) => unknown>();
const appEvents = new EventEmitter();
const electronMock = {
  app: Object.assign(appEvents, {
    requestSingleInstanceLock: vi.fn(() => true),
    quit: vi.fn(),
    exit: vi.fn(),
    whenReady: vi.fn(() => Promise.resolve()),
    getPath: vi.fn(() => ''),
    setAppUserModelId: vi.fn(),
    getLoginItemSettings: vi.fn(() => ({ openAtLogin: false })),
    setLoginItemSettings: vi.fn(),
    isPackaged: false,
    getAppPath: vi.fn(() => '/opt/home-lan-bridge'),
    getVersion: vi.fn(() => '0.1.0'),
  }),
  BrowserWindow: FakeWindow,
  Menu: { buildFromTemplate: vi.fn((t: unknown) => t) },
  Notification: FakeNotification,
  dialog: { showMessageBox: vi.fn((_opts: Record<string, unknown>) => Promise.resolve({ response: 0 })) },
  ipcMain: { handle: vi.fn((channel: string, h: (event: unknown, ...args: unknown[]) => unknown) => ipcHandlers.set(channel, h)) },
  nativeImage: { createFromPath: vi.fn(() => ({})) },
  screen: { getAllDisplays: vi.fn(() => [{ workArea: { x: 0, y: 0, width: 1920, height: 1080 } }]) },
  session: { defaultSession: { setPermissionRequestHandler: vi.fn(), setPermissionCheckHandler: vi.fn() } },
  shell: { openExternal: vi.fn() },
  Tray: FakeTray,
};
vi.mock('electron', () => ({ ...electronMock, default: electronMock }));

const { startShell } = await import('./shell.js');
const { hardenContents, hardenSession } = await import('./security.js');
const { IPC } = await import('./ipc.js');

type Shell = NonNullable<Awaited<ReturnType<typeof startShell>>>;

const waitFor = async <T>(what: string, probe: () => T | undefined | Promise<T | undefined>, timeoutMs = 15_000): Promise<T> => {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const v = await probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`gave up waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
};

/** The tray's current menu, flattened (submenus included). */
const items = (): MenuItemConstructorOptions[] => {
  const menu = trays.at(-1)!.menu;
  return menu.flatMap((i) => [i, ...((i.submenu as MenuItemConstructorOptions[] | undefined) ?? [])]);
};
const item = (label: RegExp) => {
  const found = items().find((i) => typeof i.label === 'string' && label.test(i.label));
  if (!found) throw new Error(`no menu item ${label} in ${items().map((i) => i.label).join(' | ')}`);
  return found;
};
const click = (label: RegExp, checked?: boolean) => (item(label).click as (i: { checked?: boolean }) => void)({ checked });
const settingsItem = (label: RegExp) => {
  const sub = (item(/^Settings$/).submenu as MenuItemConstructorOptions[]).find((i) => typeof i.label === 'string' && label.test(i.label));
  if (!sub) throw new Error(`no Settings submenu item ${label}`);
  return sub;
};

const canListen = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.createServer();
    s.once('error', () => resolve(false));
    s.listen(port, '127.0.0.1', () => s.close(() => resolve(true)));
  });

let dataDir: string;
let shells: Shell[] = [];
beforeEach(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shell-'));
  created.length = 0;
  trays.length = 0;
  notifications.length = 0;
  FakeWindow.opts.length = 0;
  electronMock.dialog.showMessageBox.mockClear();
  electronMock.app.exit.mockClear();
});
afterEach(async () => {
  for (const s of shells.splice(0)) await s.quit();
  appEvents.removeAllListeners();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const baseEnv = () => ({
  DATA_DIR: path.join(dataDir, 'data'), // beside the media root: a media root never sits inside the data folder
  BIND_HOST: '127.0.0.1',
  SERVER_PORT: '0',
  PORT: '0',
  LOG_LEVEL: 'silent',
  XDG_CONFIG_HOME: path.join(dataDir, 'xdg'),
  MEDIA_ROOT: path.join(dataDir, 'media'),
});
const start = async (env: Record<string, string>) => {
  const shell = await startShell({ env, syncTickMs: 100 });
  expect(shell).not.toBeNull();
  shells.push(shell!);
  return shell!;
};

describe('electron shell (electron mocked)', () => {
  it('quits at once when another instance holds the lock', async () => {
    electronMock.app.requestSingleInstanceLock.mockReturnValueOnce(false);
    expect(await startShell({ env: { DATA_DIR: path.join(dataDir, 'data') } })).toBeNull();
    expect(electronMock.app.quit).toHaveBeenCalled();
  });

  it('every menu item calls its action: each page opens on its own service, toggles persist, Quit stops both and frees the ports', async () => {
    const shell = await start(baseEnv());
    const energy = new URL(shell.services.energy.url).origin;
    const recordings = new URL(shell.services.recordings!.url).origin;
    expect(energy).not.toBe(recordings);

    click(/^Dashboard/);
    click(/^Trends/);
    click(/^Recordings/);
    (settingsItem(/^Energy bridge/).click as () => void)();
    (settingsItem(/^Recording sync/).click as () => void)();
    expect(created.map((w) => w.loaded[0])).toEqual([`${energy}/`, `${energy}/trends`, `${recordings}/`, `${energy}/settings`, `${recordings}/settings`]);
    for (const opts of FakeWindow.opts) {
      expect(opts.webPreferences).toMatchObject({ contextIsolation: true, sandbox: true, nodeIntegration: false });
    }
    // The page each window shows is really served there.
    expect((await fetch(`${energy}/api/state`)).status).toBe(200);
    expect((await fetch(`${recordings}/api/sync-runs`)).status).toBe(200);

    // Opening a page again focuses its window; the second instance opens the dashboard's.
    click(/^Dashboard/);
    appEvents.emit('second-instance');
    expect(created).toHaveLength(5);

    // Notifications: on by default, the toggle is saved in the tray's settings file.
    expect(item(/^Notifications$/).checked).toBe(true);
    click(/^Notifications$/, false);
    expect(item(/^Notifications$/).checked).toBe(false);
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'data', 'tray.json'), 'utf8')).notifications).toBe(false);

    // Open at login (Linux here): an XDG autostart entry that starts this app.
    expect(item(/^Open at login$/).checked).toBe(false);
    click(/^Open at login$/, true);
    const entry = fs.readFileSync(path.join(dataDir, 'xdg', 'autostart', 'home-lan-bridge.desktop'), 'utf8');
    expect(entry).toMatch(/^Exec=.+\/opt\/home-lan-bridge$/m);
    expect(item(/^Open at login$/).checked).toBe(true);
    click(/^Open at login$/, false);
    expect(fs.existsSync(path.join(dataDir, 'xdg', 'autostart', 'home-lan-bridge.desktop'))).toBe(false);

    const ports = [Number(new URL(energy).port), Number(new URL(recordings).port)];
    expect(await canListen(ports[0]!)).toBe(false);
    click(/^Quit$/);
    await waitFor('exit', () => electronMock.app.exit.mock.calls.length > 0);
    expect(electronMock.app.exit).toHaveBeenCalledWith(0);
    expect(created.every((w) => w.destroyed)).toBe(true);
    expect(trays[0]!.destroyed).toBe(true);
    await expect(fetch(`${energy}/api/state`)).rejects.toThrow();
    await expect(fetch(`${recordings}/api/sync-runs`)).rejects.toThrow();
    for (const p of ports) expect(await canListen(p)).toBe(true);
    shells = [];
  });

  it('remembers each window’s size and position across restarts', async () => {
    const first = await start(baseEnv());
    click(/^Trends/);
    const win = created[0]!;
    win.bounds = { x: 140, y: 90, width: 900, height: 640 };
    win.close();
    await first.quit();
    shells = [];
    appEvents.removeAllListeners();

    await start(baseEnv());
    click(/^Trends/);
    expect(FakeWindow.opts[1]).toMatchObject({ x: 140, y: 90, width: 900, height: 640 });
  });

  it('shows the live status line from the gateway and a notification per alert that fires or clears', async () => {
    const gw: GatewaySimulator = await startGatewaySimulator({ initialSoc: 63 });
    try {
      const shell = await start({ ...baseEnv(), GATEWAY_HOST: gw.host, GATEWAY_PORT: String(gw.port), POLL_INTERVAL_MS: '300' });
      const status = await waitFor('a reading in the status line', () => {
        const l = String(items()[0]!.label);
        return /Battery \d+%/.test(l) ? l : undefined;
      });
      expect(status).toMatch(/^Battery 6[2-4]% · solar \d+\.\d kW · grid (in|out) \d+\.\d kW/);
      expect(items()[0]!.enabled).toBe(false);

      // Alerts arrive in the live state (id, name, message, since); each transition notifies once.
      const store = shell.services.energy.state;
      const withAlerts = (alerts: unknown[]) => store.set({ ...store.get(), alerts: alerts as ReturnType<typeof store.get>['alerts'] });
      withAlerts([{ id: 'low-soc', name: 'Battery low', message: 'Battery below 20%', since: Date.now() }]);
      withAlerts([{ id: 'low-soc', name: 'Battery low', message: 'Battery below 20%', since: Date.now() }]);
      expect(notifications.filter((n) => /Battery low/.test(n.title))).toEqual([{ title: 'Alert: Battery low', body: 'Battery below 20%' }]);
      expect(String(items()[0]!.label)).toMatch(/1 alert$/);
      withAlerts([]);
      withAlerts([]);
      expect(notifications.filter((n) => /Battery low/.test(n.title)).map((n) => n.title)).toEqual(['Alert: Battery low', 'Alert cleared: Battery low']);
    } finally {
      await gw.close();
    }
  });

  describe('the battery control kill switch in the tray, against the simulated gateway', () => {
    let gw: GatewaySimulator;
    beforeEach(async () => {
      gw = await startGatewaySimulator({ initialSoc: 50 });
    });
    afterEach(async () => gw.close());

    const startWithControl = async () => {
      const shell = await start({ ...baseEnv(), GATEWAY_HOST: gw.host, GATEWAY_PORT: String(gw.port), POLL_INTERVAL_MS: '300' });
      const energy = shell.services.energy.url;
      await waitFor('a reading', () => (/Battery \d+%/.test(String(items()[0]!.label)) ? true : undefined));
      const pc = (method: string, url: string, body: unknown, headers: Record<string, string> = {}) =>
        fetch(`${energy}${url}`, { method, headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
      expect((await pc('PUT', '/api/settings', { control: { enabled: true, dryRun: false, staleAfterPolls: 20 } })).status).toBe(200);
      return { shell, pc };
    };
    const stopItem = () => items().find((i) => i.label === 'Stop battery control');

    it('shows "Stop battery control" only while control has the plant; clicking it puts the plant back to Automatic and says so', async () => {
      const { shell, pc } = await startWithControl();
      // On but in Automatic: nothing to stop.
      await waitFor('the control status', () => (items().length ? true : undefined));
      expect(stopItem()).toBeUndefined();
      expect((await pc('POST', '/api/control/mode', { mode: 'hold' })).status).toBe(200);
      expect(gw.plant.control.values).toMatchObject({ remoteEms: 1, dischargeLimitW: 0 });
      await waitFor('the kill switch in the menu', () => stopItem());
      expect(items().find((i) => /^Battery control: /.test(String(i.label)))).toMatchObject({ enabled: false });

      click(/^Stop battery control$/);
      await waitFor('the notification', () => (notifications.some((n) => n.title === 'Battery control stopped') ? true : undefined));
      expect(notifications.find((n) => n.title === 'Battery control stopped')!.body).toMatch(/^Automatic: remote control is off and your previous limits are back \(kill switch/);
      // The plant is really back on its own: remote control off, its discharging limit back.
      expect(gw.plant.control.values).toMatchObject({ remoteEms: 0, dischargeLimitW: 5000 });
      await waitFor('the item to go', () => (stopItem() ? undefined : true));
      // The same path as the route: the audit log has the owner's kill switch.
      const audit = (await (await fetch(`${shell.services.energy.url}/api/control/audit?limit=5`)).json()) as { entries: Array<{ by: string; reason: string }> };
      expect(audit.entries[0]).toMatchObject({ by: 'owner', reason: expect.stringContaining('kill switch') });
    });

    it('works from the tray with a passcode set (the tray is the PC itself)', async () => {
      const { pc } = await startWithControl();
      expect((await pc('POST', '/api/control/mode', { mode: 'hold' })).status).toBe(200);
      expect((await pc('POST', '/api/security/passcode', { passcode: '2468' })).status).toBeLessThan(300);
      // A page without a session is locked out of the kill route now.
      expect((await pc('POST', '/api/control/kill', {})).status).toBe(401);
      await waitFor('the kill switch in the menu', () => stopItem());
      click(/^Stop battery control$/);
      await waitFor('the notification', () => (notifications.some((n) => n.title === 'Battery control stopped') ? true : undefined));
      expect(gw.plant.control.values).toMatchObject({ remoteEms: 0 });
      expect(electronMock.dialog.showMessageBox).not.toHaveBeenCalled();
    });
  });

  describe('Sync now and last sync, against a simulated recording box', () => {
    let box: BoxSimulator;
    beforeEach(async () => {
      box = createBoxSimulator({
        shows: [{ title: 'Slow Show', items: [{ id: '500000001', title: 'S1 E1 - Pilot - Mon 01 Jul', length: 600_000, bytesPerSecond: 300_000 }] }],
      });
      await box.start();
    });
    afterEach(async () => box.stop());

    it('starts one sync, is disabled with progress while it runs, then shows the finished run and notifies once', async () => {
      // The media root must exist: a sync never creates it (an unmounted disk must not fill the system disk).
      fs.mkdirSync(baseEnv().MEDIA_ROOT, { recursive: true });
      const shell = await start(baseEnv());
      const api = new ApiClient(shell.services.recordings!.url);
      expect((await api.post('/api/shows', { name: 'slow show', dest_folder: 'Slow' })).status).toBeLessThan(300);
      expect((await api.patch('/api/settings', { box_address: box.descriptionUrl })).status).toBe(200);
      expect(String(item(/^Last sync/).label)).toBe('Last sync: never');
      expect(item(/^Sync now$/).enabled).toBe(true);

      click(/^Sync now$/);
      const running = item(/^Sync(ing| now)/);
      expect(running.enabled).toBe(false);
      expect(String(running.label)).toMatch(/^Syncing…/);
      // A second click while it runs starts nothing.
      (running.click as () => void)();
      await waitFor('download progress in the menu', () => (/^Syncing… 1 downloading, \d+%$/.test(String(item(/^Sync(ing| now)/).label)) ? true : undefined));

      await waitFor('the run to finish', () => (item(/^Sync(ing| now)/).label === 'Sync now' && /downloaded/.test(String(item(/^Last sync/).label)) ? true : undefined));
      expect(String(item(/^Last sync/).label)).toMatch(/^Last sync: .+ · ok · 1 downloaded, 0 failed$/);
      expect(item(/^Sync now$/).enabled).toBe(true);
      const runs = (await api.get('/api/sync-runs')).body.runs as Array<{ trigger: string }>;
      expect(runs.map((r) => r.trigger)).toEqual(['manual']);
      expect(fs.existsSync(path.join(dataDir, 'media', 'Slow'))).toBe(true);

      // Exactly one notification for the run, even after more ticks (30: the tray re-reads the
      // history now and then while idle, at least once in these).
      for (let i = 0; i < 30; i++) await shell.syncStatus!.tick();
      expect(notifications).toEqual([{ title: 'New recordings', body: '1 episode downloaded' }]);
    });

    it('a run started elsewhere (the page) is followed too; a failed run notifies and says why', async () => {
      const shell = await start(baseEnv());
      const api = new ApiClient(shell.services.recordings!.url);
      await api.post('/api/shows', { name: 'slow show', dest_folder: 'Slow' });
      // A loopback port nobody listens on: the run fails at once.
      const dead = await new Promise<number>((resolve) => {
        const s = net.createServer().listen(0, '127.0.0.1', () => {
          const port = (s.address() as net.AddressInfo).port;
          s.close(() => resolve(port));
        });
      });
      expect((await api.patch('/api/settings', { box_address: `http://127.0.0.1:${dead}/description.xml` })).status).toBe(200);
      expect((await api.post('/api/sync')).status).toBe(202);
      await waitFor('the failed run in the menu', () => (/failed:/.test(String(item(/^Last sync/).label)) ? true : undefined));
      expect(String(item(/^Last sync/).label)).toMatch(/^Last sync: .+ · failed: .+/);
      await waitFor('a notification', () => (notifications.length ? true : undefined));
      expect(notifications).toHaveLength(1);
      expect(notifications[0]!.title).toBe('Recording sync failed');
    });
  });

  describe('start-up failures', () => {
    it('a taken energy port shows a dialog naming the port and SERVER_PORT; the recording sync keeps running', async () => {
      const blocker = net.createServer();
      await new Promise<void>((r) => blocker.listen(0, '127.0.0.1', r));
      const taken = (blocker.address() as net.AddressInfo).port;
      try {
        const shell = await start({ ...baseEnv(), SERVER_PORT: String(taken) });
        expect(electronMock.dialog.showMessageBox).toHaveBeenCalledTimes(1);
        const shown = electronMock.dialog.showMessageBox.mock.calls[0]![0] as { message: string; detail: string; type: string };
        expect(shown.type).toBe('error');
        expect(shown.message).toMatch(new RegExp(`^Port ${taken} on 127.0.0.1 is already in use, so the energy bridge cannot start`));
        expect(shown.message).toContain('SERVER_PORT');
        expect(shown.detail).toMatch(/recording sync keeps running/);

        const rec = shell.services.recordings!.url;
        expect((await fetch(`${rec}/api/sync-runs`)).status).toBe(200);
        expect(items()[0]!.label).toBe('Energy bridge not running');
        // Under it, what happened and what to change.
        expect(items()[1]).toMatchObject({ label: shown.message, enabled: false });
        expect(item(/^Dashboard/).enabled).toBe(false);
        expect(item(/^Recordings/).enabled).toBe(true);
        click(/^Recordings/);
        expect(created.map((w) => w.loaded[0])).toEqual([`${new URL(rec).origin}/`]);
      } finally {
        blocker.close();
      }
    });

    it('an unusable recordings database folder names the path and DB_PATH; the energy bridge keeps running', async () => {
      const file = path.join(dataDir, 'not-a-folder');
      fs.writeFileSync(file, 'x');
      const shell = await start({ ...baseEnv(), DB_PATH: path.join(file, 'state.db') });
      const shown = electronMock.dialog.showMessageBox.mock.calls[0]![0] as { message: string; detail: string };
      expect(shown.message).toMatch(/^The recording sync cannot use its data folder: cannot read or write .*not-a-folder/);
      expect(shown.detail).toMatch(/DB_PATH/);
      expect((await fetch(`${shell.services.energy.url}/api/state`)).status).toBe(200);
      expect(item(/^Sync now$/).enabled).toBe(false);
      expect(String(items()[1]!.label)).toBe('Recording sync not running');
    });
  });

  it('allows both services’ origins in app windows and IPC, refuses a foreign one', async () => {
    const shell = await start(baseEnv());
    const energy = new URL(shell.services.energy.url).origin;
    const recordings = new URL(shell.services.recordings!.url).origin;
    const handler = electronMock.app.listeners('web-contents-created').at(-1) as (e: unknown, c: unknown) => void;
    const contents = Object.assign(new EventEmitter(), { setWindowOpenHandler: vi.fn() });
    handler({}, contents);
    const nav = (url: string) => {
      const e = { preventDefault: vi.fn() };
      contents.emit('will-navigate', e, url);
      return e.preventDefault.mock.calls.length === 0;
    };
    expect(nav(`${energy}/trends`)).toBe(true);
    expect(nav(`${recordings}/`)).toBe(true);
    expect(nav('http://192.0.2.7:8124/')).toBe(false);

    const openPage = ipcHandlers.get(IPC.openPage)!;
    expect(await openPage({ senderFrame: { url: `${recordings}/` } }, 'dashboard')).toBe(true);
    expect(created.at(-1)!.loaded[0]).toBe(`${energy}/`);
    expect(() => openPage({ senderFrame: { url: 'http://192.0.2.7:8124/' } }, 'dashboard')).toThrow(/refused/);
    expect(() => openPage({ senderFrame: { url: `${energy}/` } }, '../etc')).toThrow(/page must be one of/);
  });

  it('HOME_LAN_BRIDGE_E2E=1 lets the Playwright specs read and click the tray menu', async () => {
    await start({ ...baseEnv(), HOME_LAN_BRIDGE_E2E: '1' });
    const hook = (globalThis as unknown as { __trayMenu: { labels(): Array<{ label: string }>; click(l: string): void } }).__trayMenu;
    expect(hook.labels().map((i) => i.label)).toEqual(expect.arrayContaining(['Dashboard', 'Trends', 'Recordings', 'Energy bridge', 'Recording sync', 'Sync now', 'Quit']));
    hook.click('Recording sync');
    expect(created[0]!.loaded[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/settings$/);
    expect(() => hook.click('Nope')).toThrow(/no menu item/);
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
