import path from 'node:path';
import { app, BrowserWindow, Menu, nativeImage, session, shell, Tray } from 'electron';
import { composeServices } from '../compose.js';
import { createLogger } from '../core/logger.js';
import { repoRoot } from '../core/paths.js';
import { hardenContents, hardenSession, isAllowedUrl } from './security.js';
import { trayMenu } from './tray-menu.js';
import { createWindowRegistry, PAGE_PATHS, secureWindowOptions, type Page } from './windows.js';

/**
 * The tray app: single instance, both services composed exactly as headless does, windows that
 * show the services' own pages, and a graceful quit that stops the services first.
 */
export async function startShell(opts: { env?: NodeJS.ProcessEnv } = {}): Promise<{ quit(): Promise<void> } | null> {
  if (!app.requestSingleInstanceLock()) {
    app.quit();
    return null;
  }
  const logger = createLogger({ name: 'home-lan-bridge' });
  const env = opts.env ?? process.env;
  await app.whenReady();
  const services = composeServices({ dataDir: env.DATA_DIR ?? app.getPath('userData'), env, logger, host: env.BIND_HOST ?? '0.0.0.0' });
  await services.start();

  const origins = () => [new URL(services.energy.url).origin];
  hardenSession(session.defaultSession);
  app.on('web-contents-created', (_e, contents) => hardenContents(contents, origins, (url) => void shell.openExternal(url)));

  const windows = createWindowRegistry((page: Page) => {
    const win = new BrowserWindow({ ...secureWindowOptions(path.join(repoRoot, 'dist', 'preload')), title: `Home LAN bridge – ${page}` });
    const url = services.energy.url + PAGE_PATHS[page];
    if (isAllowedUrl(url, origins())) void win.loadURL(url);
    return win;
  });

  const icon = nativeImage.createFromPath(path.join(repoRoot, 'assets', 'tray.png'));
  const tray = new Tray(icon);
  tray.setToolTip('Home LAN bridge');
  let quitting = false;
  const quit = async () => {
    if (quitting) return;
    quitting = true;
    // A hard-exit timer: a stuck socket must never keep the app alive.
    setTimeout(() => app.exit(1), 10_000).unref();
    windows.closeAll();
    tray.destroy();
    await services.stop();
    app.exit(0);
  };
  const refreshMenu = () => {
    tray.setContextMenu(Menu.buildFromTemplate(trayMenu(services.energy.state.get(), null, { open: (p) => windows.show(p), syncNow: () => undefined, quit: () => void quit() })));
  };
  refreshMenu();
  const unsubscribe = services.energy.state.subscribe(() => refreshMenu());
  tray.on('click', () => windows.show('dashboard'));

  app.on('second-instance', () => windows.show('dashboard'));
  // A tray app keeps running with no window open.
  app.on('window-all-closed', () => undefined);
  app.on('before-quit', (event) => {
    if (!quitting) {
      event.preventDefault();
      unsubscribe();
      void quit();
    }
  });
  return { quit };
}
