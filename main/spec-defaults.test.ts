import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listingSaysRecording } from './recordings/box/sizes.js';
import { inverterStatus } from './energy/gateway/registers.js';
import { energySeedsFromEnv } from './energy/settings/energy-settings.js';
import { openDatabase } from './core/sqlite.js';
import { recordingConfigFromEnv } from './recordings/config.js';
import { createRecordingSettings } from './recordings/settings.js';
import { recordingMigrations } from './recordings/store/migrations.js';

// Values both specs state literally, pinned here as literals (not our constants), so a change to
// a constant that drifts from the spec fails a test.

describe('energy bridge (spec/energy-bridge.md)', () => {
  it('SERVER_PORT: the port listened on, default 5163', () => {
    expect(energySeedsFromEnv({}).general.serverPort).toBe(5163);
    expect(energySeedsFromEnv({ SERVER_PORT: '6163' }).general.serverPort).toBe(6163);
    // Not a port number: the default stays.
    expect(energySeedsFromEnv({ SERVER_PORT: 'http' }).general.serverPort).toBe(5163);
  });

  it('inverter status: 0 standby, 1 running, 2 and 7 fault, 3 shutdown; anything else unknown', () => {
    expect([0, 1, 2, 3, 7].map(inverterStatus)).toEqual(['standby', 'running', 'fault', 'shutdown', 'fault']);
    for (const other of [4, 5, 6, 8, -1, 65535, null]) expect(inverterStatus(other)).toBeNull();
  });
});

describe('recording sync (spec/recording-sync.md)', () => {
  it('PORT: HTTP port, default 8124', () => {
    expect(recordingConfigFromEnv({}, '/data').port).toBe(8124);
    expect(recordingConfigFromEnv({ PORT: '9124' }, '/data').port).toBe(9124);
  });

  it('MEDIA_ROOT seeds media_root (default /media/tv); MEDIA_SERVER_PREFS_PATH seeds the preferences-file setting', () => {
    const ctx = (env: Record<string, string | undefined>) => ({ env, tz: 'UTC', configDir: '/nonexistent-config', bundledDetectorIni: '/nonexistent/detector.ini' });
    const db = openDatabase(':memory:', recordingMigrations);
    try {
      const plain = createRecordingSettings(db, ctx({})).get();
      expect(plain.media_root).toBe('/media/tv');
      const seeded = createRecordingSettings(db, ctx(recordingConfigFromEnv({ MEDIA_ROOT: '/srv/tv', MEDIA_SERVER_PREFS_PATH: '/srv/plex/Preferences.xml' }, '/data').env)).get();
      expect(seeded.media_root).toBe('/srv/tv');
      expect(seeded.media_server_prefs_path).toBe('/srv/plex/Preferences.xml');
    } finally {
      db.close();
    }
  });

  it('a listing that reports the size 4398046510080 is currently recording; so is an unknown size', () => {
    expect(listingSaysRecording(4398046510080)).toBe(true);
    expect(listingSaysRecording(0)).toBe(true);
    expect(listingSaysRecording(-1)).toBe(true);
    expect(listingSaysRecording(4398046510079)).toBe(false);
    expect(listingSaysRecording(4398046510081)).toBe(false);
    expect(listingSaysRecording(930528256)).toBe(false);
  });
});

describe('entry points', () => {
  // A static check: the tray (Electron) cannot start in this test environment, and the demo starts
  // every simulator. Each entry installs the logger before it starts anything.
  it('the unhandled-rejection logger is installed by every entry point: headless, tray, demo', () => {
    for (const entry of ['headless-main.ts', 'electron/shell.ts', 'demo.ts']) {
      const src = fs.readFileSync(path.join(import.meta.dirname, entry), 'utf8');
      const install = src.indexOf('installUnhandledRejectionLogging(logger)');
      expect(install, entry).toBeGreaterThan(0);
      expect(install, `${entry}: installed before the services start`).toBeLessThan(src.search(/composeServices\(|startServices\(|await app\.whenReady\(\)/));
    }
  });
});
