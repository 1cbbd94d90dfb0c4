import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { LoginItemSettings, Settings } from 'electron';

/** "Open at login": read and set where the desktop keeps it, so it survives a restart. */
export interface LoginItem {
  get(): boolean;
  set(on: boolean): void;
}

export const AUTOSTART_FILE = 'home-lan-bridge.desktop';

/**
 * macOS and Windows keep the setting themselves (`app.setLoginItemSettings`); Linux desktops read
 * an XDG autostart entry, which Electron does not write, so the tray writes it (`~/.config/autostart`).
 */
export function createLoginItem(opts: {
  platform: NodeJS.Platform;
  app: { getLoginItemSettings(): LoginItemSettings; setLoginItemSettings(s: Settings): void };
  /** The command that starts this app: the AppImage, or the Electron binary plus the app folder in development. */
  command: readonly string[];
  env?: NodeJS.ProcessEnv;
}): LoginItem {
  if (opts.platform === 'darwin' || opts.platform === 'win32') {
    return {
      get: () => opts.app.getLoginItemSettings().openAtLogin,
      set: (on) => opts.app.setLoginItemSettings({ openAtLogin: on }),
    };
  }
  const env = opts.env ?? process.env;
  const dir = path.join(env.XDG_CONFIG_HOME || path.join(os.homedir(), '.config'), 'autostart');
  const file = path.join(dir, AUTOSTART_FILE);
  return {
    get() {
      try {
        const text = fs.readFileSync(file, 'utf8');
        return !/^\s*(Hidden\s*=\s*true|X-GNOME-Autostart-enabled\s*=\s*false)\s*$/im.test(text);
      } catch {
        return false;
      }
    },
    set(on) {
      if (!on) {
        fs.rmSync(file, { force: true });
        return;
      }
      fs.mkdirSync(dir, { recursive: true });
      fs.writeFileSync(file, autostartEntry(opts.command), { mode: 0o644 });
    },
  };
}

/** An XDG autostart entry; arguments are quoted and `%` doubled per the Desktop Entry spec. */
export function autostartEntry(command: readonly string[]): string {
  const quote = (a: string) => (/^[\w@%+=:,./-]+$/.test(a) ? a : `"${a.replace(/(["`$\\])/g, '\\$1')}"`);
  return [
    '[Desktop Entry]',
    'Type=Application',
    'Name=Home LAN Bridge',
    'Comment=Energy bridge and recording sync in the tray',
    `Exec=${command.map((a) => quote(a).replace(/%/g, '%%')).join(' ')}`,
    'Terminal=false',
    'X-GNOME-Autostart-enabled=true',
    '',
  ].join('\n');
}
