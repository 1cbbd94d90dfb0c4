import path from 'node:path';
import { app, BrowserWindow, dialog, ipcMain, Menu, nativeImage, Notification, screen, session, shell, Tray, type MenuItemConstructorOptions } from 'electron';
import { composeServices, type ServiceFailure } from '../compose.js';
import { createLogger } from '../core/logger.js';
import { defaultDataDir, repoRoot } from '../core/paths.js';
import { useSqliteNativeBinding } from '../core/sqlite.js';
import { createControlLink, type TrayControl } from './control-link.js';
import { registerIpc } from './ipc.js';
import { createLoginItem } from './login-item.js';
import { electronSqliteBinding } from './native-modules.js';
import { createNotifier } from './notifier.js';
import { hardenContents, hardenSession } from './security.js';
import { describeStartupFailure } from './startup-errors.js';
import { createSyncStatus, latestFinishedRun, type SyncStatus } from './sync-status.js';
import { createTrayPrefs, trayPrefsSchema, type TrayPrefsStore } from './tray-prefs.js';
import { trayMenu, statusLine } from './tray-menu.js';
import { installUnhandledRejectionLogging } from '../core/process-guards.js';
import { createWindowRegistry, PAGES, placeWindow, secureWindowOptions, type Page, type ServiceName } from './windows.js';

export interface ShellOptions {
  env?: NodeJS.ProcessEnv;
  /** How often the tray looks at the recording sync (ms). */
  syncTickMs?: number;
}

export type Shell = Awaited<ReturnType<typeof startShell>>;

/**
 * The tray app: single instance, both services composed exactly as headless does (but a service
 * that cannot start is reported in a dialog while the other keeps running), windows that show the
 * services' own pages, notifications, and a graceful quit that stops the services first.
 */
export async function startShell(opts: ShellOptions = {}) {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }
  const env = opts.env ?? process.env;
  const logger = createLogger({ name: 'home-lan-bridge' });
  // As in the headless entry: a stray rejection is logged and the tray keeps running.
  installUnhandledRejectionLogging(logger);
  if (process.platform === 'win32') app.setAppUserModelId('net.homelan.bridge');
  await app.whenReady();
  app.dock?.hide(); // a tray-only app on macOS (the packaged app also sets LSUIElement)

  if (process.versions.electron) {
    // Under Electron, better-sqlite3 loads the Electron-ABI build made by `npm run native:electron`.
    const binding = electronSqliteBinding(repoRoot, { modules: process.versions.modules });
    if (binding.file) useSqliteNativeBinding(binding.file);
    else logger.warn({ reason: binding.reason }, 'no Electron build of better-sqlite3: the databases will not open');
  }

  const dataDir = defaultDataDir(env);
  const prefs = openPrefs(dataDir, logger);
  const services = composeServices({ dataDir, env, logger, host: env.BIND_HOST ?? '0.0.0.0' });
  const failures = await services.startEach();
  /** What the tray shows under a service that could not start. */
  const problems: Partial<Record<ServiceName, string>> = {};
  for (const failure of failures) {
    const problem = describeStartupFailure(failure);
    problems[failure.service] = problem.message;
    logger.error({ service: failure.service, err: failure.error }, problem.message);
    // Not awaited: the tray and the other service carry on while the dialog is open.
    void dialog.showMessageBox({ type: 'error', title: problem.title, message: problem.message, detail: problem.detail, buttons: ['OK'] });
  }
  const up: Record<ServiceName, boolean> = {
    energy: !failures.some((f) => f.service === 'energy'),
    recordings: services.recordings !== null && !failures.some((f) => f.service === 'recordings'),
  };
  const serviceUrl = (s: ServiceName): string | null => (!up[s] ? null : s === 'energy' ? services.energy.url : services.recordings!.url);
  const origins = () => (['energy', 'recordings'] as const).map(serviceUrl).filter((u): u is string => u !== null).map((u) => new URL(u).origin);

  hardenSession(session.defaultSession);
  app.on('web-contents-created', (_e, contents) => hardenContents(contents, origins, (url) => void shell.openExternal(url)));

  const windows = createWindowRegistry(
    (page: Page) => {
      const def = PAGES[page];
      const place = placeWindow(prefs.boundsOf(page), screen.getAllDisplays().map((d) => d.workArea));
      const win = new BrowserWindow({ ...secureWindowOptions(path.join(repoRoot, 'dist', 'preload')), ...place, title: `Home LAN Bridge – ${def.title}` });
      void win.loadURL(serviceUrl(def.service)! + def.path);
      return win;
    },
    { save: (page, b) => prefs.saveBounds(page, b) },
  );
  const open = (page: Page): boolean => {
    if (!up[PAGES[page].service]) return false;
    windows.show(page);
    return true;
  };
  registerIpc(ipcMain, { origins, open, info: () => ({ version: app.getVersion(), services: { ...up } }) });

  const loginItem = createLoginItem({
    platform: process.platform,
    app,
    command: app.isPackaged ? [env.APPIMAGE ?? process.execPath] : [process.execPath, app.getAppPath()],
    env,
  });
  const showNotification = (title: string, body: string) => {
    if (Notification.isSupported()) new Notification({ title, body, silent: false }).show();
  };
  const notifier = createNotifier({ enabled: () => prefs.get().notifications, show: showNotification });

  const icon = nativeImage.createFromPath(path.join(repoRoot, 'assets', 'tray.png'));
  const tray = new Tray(icon);
  tray.setToolTip('Home LAN Bridge');
  let quitting = false;
  let syncStatus: SyncStatus | null = null;
  // Battery control's kill switch: the tray reads the status after each reading and calls the kill route.
  const controlLink = up.energy ? createControlLink(services.energy) : null;
  let control: TrayControl | null = null;
  let controlReading = false;
  const refreshControl = async () => {
    if (!controlLink || controlReading || quitting) return;
    controlReading = true;
    try {
      const next = await controlLink.status();
      const changed = JSON.stringify(next) !== JSON.stringify(control);
      control = next;
      if (changed) refreshMenu();
    } catch (err) {
      logger.warn({ err }, 'battery control status not read');
    } finally {
      controlReading = false;
    }
  };
  const stopControl = async () => {
    if (!controlLink) return;
    const r = await controlLink.kill();
    // Said plainly whatever the notification setting: the user asked for it.
    if (r.ok) showNotification('Battery control stopped', r.message);
    else void dialog.showMessageBox({ type: 'error', title: 'Battery control', message: `Battery control was not stopped: ${r.message}` });
    await refreshControl();
  };
  const unsubscribe: Array<() => void> = [];

  const quit = async () => {
    if (quitting) return;
    quitting = true;
    // A hard-exit timer: a stuck socket must never keep the app alive.
    setTimeout(() => app.exit(1), 10_000).unref();
    for (const u of unsubscribe.splice(0)) u();
    syncStatus?.stop();
    notifier.dispose();
    windows.closeAll();
    tray.destroy();
    await services.stop();
    app.exit(0);
  };

  const refreshMenu = () => {
    if (quitting) return;
    const state = up.energy ? services.energy.state.get() : null;
    tray.setToolTip(up.energy ? `Home LAN Bridge — ${statusLine(state)}` : 'Home LAN Bridge');
    const template = trayMenu(
      {
        energy: state,
        energyRunning: up.energy,
        recordingsRunning: up.recordings,
        lastSync: syncStatus?.last() ?? null,
        sync: syncStatus?.activity() ?? { running: false, active: 0, percent: null, phase: null },
        notifications: prefs.get().notifications,
        openAtLogin: safely(() => loginItem.get(), false),
        formatTime,
        problems,
        control,
      },
      {
        open: (p) => void open(p),
        syncNow: () => void syncStatus?.syncNow(),
        stopControl: () => void stopControl(),
        setNotifications(on) {
          safely(() => prefs.setNotifications(on), undefined);
          refreshMenu();
        },
        setOpenAtLogin(on) {
          try {
            loginItem.set(on);
          } catch (err) {
            logger.error({ err }, 'could not change "open at login"');
            void dialog.showMessageBox({ type: 'error', title: 'Open at login', message: `Could not change "Open at login": ${(err as Error).message}` });
          }
          refreshMenu();
        },
        quit: () => void quit(),
      },
    );
    currentMenu = template;
    tray.setContextMenu(Menu.buildFromTemplate(template));
  };
  let currentMenu: MenuItemConstructorOptions[] = [];
  if (env.HOME_LAN_BRIDGE_E2E === '1') {
    // Playwright's _electron specs drive the tray menu through this (a real tray menu cannot be clicked by a test).
    (globalThis as Record<string, unknown>).__trayMenu = {
      labels: () => flatten(currentMenu).map((i) => ({ label: i.label, enabled: i.enabled !== false, checked: i.checked })),
      click(label: string) {
        const item = flatten(currentMenu).find((i) => i.label === label);
        if (!item?.click) throw new Error(`no menu item "${label}"`);
        (item.click as (i: { checked?: boolean }) => void)({ checked: item.type === 'checkbox' ? !item.checked : undefined });
      },
    };
  }

  if (up.recordings) {
    const rec = services.recordings!;
    syncStatus = createSyncStatus({
      engine: rec.engine,
      progress: rec.progress,
      async latestRun() {
        // The service's own history view, so the tray reads runs exactly as the pages do.
        const res = await rec.app.inject({ method: 'GET', url: '/api/sync-runs?limit=5' });
        return res.statusCode === 200 ? latestFinishedRun(res.json()) : null;
      },
      onChange: refreshMenu,
      onFinished: (run) => notifier.onSyncFinished(run),
      logger,
    });
    await syncStatus.init(opts.syncTickMs);
  }
  if (up.energy) {
    notifier.onState(services.energy.state.get());
    unsubscribe.push(
      services.energy.state.subscribe((next) => {
        notifier.onState(next);
        refreshMenu();
        void refreshControl();
      }),
    );
    await refreshControl();
  }
  refreshMenu();
  const home: Page = up.energy ? 'dashboard' : 'recordings';
  tray.on('click', () => void open(home));

  app.on('second-instance', () => void open(home));
  // A tray app keeps running with no window open.
  app.on('window-all-closed', () => undefined);
  app.on('before-quit', (event) => {
    if (!quitting) {
      event.preventDefault();
      void quit();
    }
  });
  return { quit, services, failures: failures as readonly ServiceFailure[], windows, refreshMenu, syncStatus, refreshControl };
}

/** The tray's own settings; a broken file is kept aside by the store, an unwritable folder falls back to memory. */
function openPrefs(dataDir: string, logger: ReturnType<typeof createLogger>): TrayPrefsStore {
  try {
    return createTrayPrefs(dataDir, logger);
  } catch (err) {
    logger.warn({ err }, 'tray settings unavailable: using defaults for this session');
    let current = trayPrefsSchema.parse({});
    return {
      get: () => current,
      setNotifications: (on) => void (current = { ...current, notifications: on }),
      boundsOf: (page) => current.windows[page],
      saveBounds: (page, b) => void (current = { ...current, windows: { ...current.windows, [page]: b } }),
      file: '',
    };
  }
}

const flatten = (items: MenuItemConstructorOptions[]): MenuItemConstructorOptions[] =>
  items.flatMap((i) => [i, ...(Array.isArray(i.submenu) ? flatten(i.submenu) : [])]);

function safely<T>(fn: () => T, fallback: T): T {
  try {
    return fn();
  } catch {
    return fallback;
  }
}

/** "14:02" today, "Mon 14:02" within a week, else the date. */
export function formatTime(ms: number, now = Date.now()): string {
  const d = new Date(ms);
  const time = d.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  if (new Date(now).toDateString() === d.toDateString()) return time;
  if (now - ms < 6 * 86_400_000) return `${d.toLocaleDateString([], { weekday: 'short' })} ${time}`;
  return `${d.toLocaleDateString()} ${time}`;
}
