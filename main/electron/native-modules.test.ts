import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import Database from 'better-sqlite3';
import { openDatabase, useSqliteNativeBinding } from '../core/sqlite.js';
import { electronSqliteBinding, isUpToDate, nativeFolder, unpackedPath, type NativeStamp } from './native-modules.js';
import { describeStartupFailure } from './startup-errors.js';

let root: string;
beforeEach(() => (root = fs.mkdtempSync(path.join(os.tmpdir(), 'native-'))));
afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

const stamp: NativeStamp = { electron: '45.4.1', abi: '140', betterSqlite3: '12.6.2', platform: 'linux', arch: 'x64' };
const put = (s: NativeStamp | null, addon = true) => {
  const dir = nativeFolder(root, 'linux', 'x64');
  fs.mkdirSync(dir, { recursive: true });
  if (addon) fs.writeFileSync(path.join(dir, 'better_sqlite3.node'), 'addon');
  if (s) fs.writeFileSync(path.join(dir, 'build.json'), JSON.stringify(s));
  return dir;
};

describe('better-sqlite3 for Electron beside the Node build', () => {
  it('the Node-run tests keep using node_modules: the default build opens a database under Node', () => {
    const db = new Database(':memory:');
    expect(db.prepare('SELECT 1 AS one').get()).toEqual({ one: 1 });
    db.close();
  });

  it('the shell’s choice of addon is what opens the databases', () => {
    // better-sqlite3 13 ships its Node-API addon prebuilt, one file per platform-arch.
    const nodeBuild = path.resolve('node_modules', 'better-sqlite3', 'prebuilds', `${process.platform}-${process.arch}.node`);
    try {
      useSqliteNativeBinding(nodeBuild);
      openDatabase(path.join(root, 'a.db'), []).close();
      useSqliteNativeBinding(path.join(root, 'missing', 'better_sqlite3.node'));
      expect(() => openDatabase(path.join(root, 'b.db'), [])).toThrow(/missing/);
    } finally {
      useSqliteNativeBinding(undefined);
    }
    openDatabase(path.join(root, 'c.db'), []).close();
  });

  it('uses the Electron build when it matches the running ABI, and says what to run when it does not', () => {
    expect(electronSqliteBinding(root, { modules: '140', platform: 'linux', arch: 'x64' })).toMatchObject({ file: null, reason: expect.stringMatching(/npm run native:electron/) });
    put(stamp);
    expect(electronSqliteBinding(root, { modules: '140', platform: 'linux', arch: 'x64' }).file).toBe(path.join(root, 'native', 'electron', 'linux-x64', 'better_sqlite3.node'));
    const other = electronSqliteBinding(root, { modules: '139', platform: 'linux', arch: 'x64' });
    expect(other.file).toBeNull();
    expect(other.reason).toMatch(/built for ABI 140 .*needs ABI 139/);
  });

  it('skips the rebuild only when the stamp matches exactly and the addon exists', () => {
    const dir = put(stamp);
    expect(isUpToDate(dir, stamp)).toBe(true);
    expect(isUpToDate(dir, { ...stamp, electron: '45.5.0' })).toBe(false);
    expect(isUpToDate(dir, { ...stamp, betterSqlite3: '12.7.0' })).toBe(false);
    fs.rmSync(path.join(dir, 'better_sqlite3.node'));
    expect(isUpToDate(dir, stamp)).toBe(false);
  });

  it('a packaged app reads the addon from app.asar.unpacked', () => {
    expect(unpackedPath('/opt/Home LAN Bridge/resources/app.asar/native/electron/linux-x64')).toBe('/opt/Home LAN Bridge/resources/app.asar.unpacked/native/electron/linux-x64');
    expect(unpackedPath('C:\\App\\resources\\app.asar\\native')).toBe('C:\\App\\resources\\app.asar.unpacked\\native');
    expect(unpackedPath('/home/me/repo/native')).toBe('/home/me/repo/native');
  });

  it('an addon built for the wrong runtime gives a start-up dialog that names the fix', () => {
    const err = new Error("The module '/x/better_sqlite3.node' was compiled against a different Node.js version using NODE_MODULE_VERSION 115. This version of Node.js requires NODE_MODULE_VERSION 140.");
    const p = describeStartupFailure({ service: 'recordings', error: err });
    expect(p.message).toMatch(/built for Node\.js, not for Electron/);
    expect(p.detail).toMatch(/npm run native:electron/);
    expect(p.detail).toMatch(/energy bridge keeps running/);
  });
});
