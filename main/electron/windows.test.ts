import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { autostartEntry, createLoginItem } from './login-item.js';
import { placeWindow } from './windows.js';

const screen = { x: 0, y: 0, width: 1920, height: 1080 };

describe('window places', () => {
  it('puts a window back where it was when that place is still on a screen', () => {
    expect(placeWindow({ x: 200, y: 100, width: 900, height: 600 }, [screen])).toEqual({ x: 200, y: 100, width: 900, height: 600 });
    expect(placeWindow(undefined, [screen])).toEqual({});
  });

  it('a window left on an unplugged monitor keeps its size and is centred; it never outgrows the screen', () => {
    expect(placeWindow({ x: 2500, y: 100, width: 900, height: 600 }, [screen])).toEqual({ width: 900, height: 600 });
    expect(placeWindow({ x: 0, y: 0, width: 4000, height: 3000 }, [screen])).toEqual({ x: 0, y: 0, width: 1920, height: 1080 });
    const second = { x: 1920, y: 0, width: 2560, height: 1440 };
    expect(placeWindow({ x: 2500, y: 100, width: 900, height: 600 }, [screen, second])).toEqual({ x: 2500, y: 100, width: 900, height: 600 });
  });
});

describe('open at login', () => {
  it('macOS and Windows: the system keeps the setting', () => {
    let on = false;
    const app = { getLoginItemSettings: vi.fn(() => ({ openAtLogin: on }) as never), setLoginItemSettings: vi.fn((s: { openAtLogin?: boolean }) => void (on = !!s.openAtLogin)) };
    for (const platform of ['darwin', 'win32'] as const) {
      const item = createLoginItem({ platform, app, command: ['/Applications/Home LAN Bridge.app'] });
      item.set(true);
      expect(app.setLoginItemSettings).toHaveBeenLastCalledWith({ openAtLogin: true });
      expect(item.get()).toBe(true);
      item.set(false);
      expect(item.get()).toBe(false);
    }
  });

  it('Linux: an XDG autostart entry; a disabled entry reads as off', () => {
    const xdg = fs.mkdtempSync(path.join(os.tmpdir(), 'xdg-'));
    try {
      const app = { getLoginItemSettings: vi.fn(), setLoginItemSettings: vi.fn() };
      const item = createLoginItem({ platform: 'linux', app, command: ['/opt/Home LAN Bridge/home-lan-bridge'], env: { XDG_CONFIG_HOME: xdg } });
      expect(item.get()).toBe(false);
      item.set(true);
      const file = path.join(xdg, 'autostart', 'home-lan-bridge.desktop');
      expect(fs.readFileSync(file, 'utf8')).toContain('Exec="/opt/Home LAN Bridge/home-lan-bridge"\n');
      expect(item.get()).toBe(true);
      fs.appendFileSync(file, 'Hidden=true\n');
      expect(item.get()).toBe(false);
      item.set(false);
      expect(fs.existsSync(file)).toBe(false);
      expect(app.setLoginItemSettings).not.toHaveBeenCalled();
    } finally {
      fs.rmSync(xdg, { recursive: true, force: true });
    }
  });

  it('quotes arguments and doubles % as the Desktop Entry spec asks', () => {
    expect(autostartEntry(['/usr/bin/electron', '/home/me/100% app'])).toContain('Exec=/usr/bin/electron "/home/me/100%% app"');
  });
});
