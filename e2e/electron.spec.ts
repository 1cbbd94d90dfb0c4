import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { _electron as electron, expect, test, type ElectronApplication } from '@playwright/test';

// The Electron binary downloads on first launch from a host these machines cannot reach, and the
// app needs better-sqlite3 built for Electron (`npm run native:electron`). Where both exist (a
// developer's desktop), these specs launch the real tray app; elsewhere they skip and say why.
const root = path.resolve(import.meta.dirname, '..');
const electronDir = path.join(root, 'node_modules', 'electron');
const pathFile = path.join(electronDir, 'path.txt');
const binary = fs.existsSync(pathFile) ? path.join(electronDir, 'dist', fs.readFileSync(pathFile, 'utf8').trim()) : null;
const addon = path.join(root, 'native', 'electron', `${process.platform}-${process.arch}`, 'better_sqlite3.node');
const reason =
  !binary || !fs.existsSync(binary)
    ? 'no Electron binary on this machine (node_modules/electron/path.txt missing): the shell is covered by main/electron/shell.test.ts with electron mocked'
    : !fs.existsSync(addon)
      ? `no Electron build of better-sqlite3 at ${path.relative(root, addon)}: run "npm run native:electron" (needs the network once)`
      : !fs.existsSync(path.join(root, 'dist', 'main', 'electron', 'main.js'))
        ? 'the app is not compiled: run "npm run build"'
        : null;

type MenuItem = { label: string; enabled: boolean; checked?: boolean };
const labels = (app: ElectronApplication) => app.evaluate(() => (globalThis as unknown as { __trayMenu: { labels(): MenuItem[] } }).__trayMenu.labels());
const click = (app: ElectronApplication, label: string) =>
  app.evaluate((_e, l) => (globalThis as unknown as { __trayMenu: { click(l: string): void } }).__trayMenu.click(l), label);

test.describe('tray app (real Electron)', () => {
  test.skip(reason !== null, `needs a real Electron app to launch: ${reason ?? ''}`);
  if (reason) console.log(`electron.spec: skipped: ${reason}`);

  let app: ElectronApplication;
  let dataDir: string;
  test.beforeEach(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'electron-e2e-'));
    app = await electron.launch({
      executablePath: binary!,
      args: [root],
      // Loopback only, free ports, a data folder per test; HOME_LAN_BRIDGE_E2E exposes the tray menu to the test.
      env: { ...process.env, DATA_DIR: dataDir, BIND_HOST: '127.0.0.1', SERVER_PORT: '0', PORT: '0', HOME_LAN_BRIDGE_E2E: '1', XDG_CONFIG_HOME: path.join(dataDir, 'xdg') },
    });
    await expect.poll(async () => (await labels(app).catch(() => [])).length, { timeout: 30_000 }).toBeGreaterThan(0);
  });
  test.afterEach(async () => {
    await app.close().catch(() => undefined);
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  test('each menu item opens its window on its own service, with the preload bridge and no Node', async () => {
    const pages: Array<[string, RegExp]> = [
      ['Dashboard', /^http:\/\/127\.0\.0\.1:\d+\/$/],
      ['Trends', /\/trends$/],
      ['Recordings', /^http:\/\/127\.0\.0\.1:\d+\/$/],
      ['Energy bridge', /\/settings$/],
      ['Recording sync', /\/settings$/],
    ];
    const origins = new Set<string>();
    for (const [label, url] of pages) {
      const opened = app.waitForEvent('window');
      await click(app, label);
      const win = await opened;
      await win.waitForLoadState('domcontentloaded');
      expect(win.url()).toMatch(url);
      origins.add(new URL(win.url()).origin);
      expect(await win.evaluate(() => ({ desktop: (window as unknown as { desktop?: { isDesktopApp: boolean } }).desktop?.isDesktopApp, node: typeof (window as unknown as { require?: unknown }).require }))).toEqual({ desktop: true, node: 'undefined' });
    }
    expect(origins.size).toBe(2); // energy and recordings ports
    expect(app.windows()).toHaveLength(5);
    // Again: focuses the open window, opens no sixth.
    await click(app, 'Trends');
    expect(app.windows()).toHaveLength(5);
  });

  test('Sync now runs one sync and the last-sync line follows it; toggles stick; Quit ends the app', async () => {
    expect((await labels(app)).find((i) => i.label.startsWith('Last sync'))?.label).toBe('Last sync: never');
    await click(app, 'Sync now');
    // No followed show: the run finishes at once without looking for a box on the LAN.
    await expect.poll(async () => (await labels(app)).find((i) => i.label.startsWith('Last sync'))?.label, { timeout: 20_000 }).toMatch(/^Last sync: .+ · ok · 0 downloaded, 0 failed/);

    await click(app, 'Notifications');
    expect((await labels(app)).find((i) => i.label === 'Notifications')?.checked).toBe(false);
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'tray.json'), 'utf8')).notifications).toBe(false);
    if (process.platform === 'linux') {
      await click(app, 'Open at login');
      expect(fs.existsSync(path.join(dataDir, 'xdg', 'autostart', 'home-lan-bridge.desktop'))).toBe(true);
      await click(app, 'Open at login');
    }

    const closed = new Promise<void>((resolve) => app.process().once('exit', () => resolve()));
    await click(app, 'Quit');
    await closed;
  });
});
