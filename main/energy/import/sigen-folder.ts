import fs from 'node:fs';
import path from 'node:path';
import { AppError, invalid } from '../../core/errors.js';
import { IMPORT_CAPS, importFileOk, readImportText } from '../../core/import-file.js';
import { realPathInside } from '../../core/real-path.js';
import type { ImportJob } from '../history/index.js';

/** The history files it keeps under its `DATA_DIR`, as a folder import looks for them. */
export const SIGEN_HISTORY_JSON = ['history.json', 'history.json.imported'] as const;

/** What a sigen-home-bridge data folder holds (paths absolute; absent parts null or empty). */
export interface SigenFolder {
  dir: string;
  settingsFile: string | null;
  historyDb: string | null;
  historyJson: string[];
  hapPersist: string | null;
}

/**
 * Checks a folder path given by the owner: absolute, existing, a folder. The folder is only ever
 * read. `field` names the input in the 400.
 */
export function checkDir(dir: unknown, field = 'dir'): string {
  if (typeof dir !== 'string' || dir.trim() === '') throw invalid(field, 'must be the path of a folder on the bridge computer');
  const p = dir.trim();
  if (!path.isAbsolute(p)) throw invalid(field, `must be an absolute path (such as /home/me/sigen-home-bridge/data), got "${p}"`);
  let st: fs.Stats;
  try {
    st = fs.statSync(p);
  } catch {
    throw invalid(field, `no folder at ${p} on the bridge computer`);
  }
  if (!st.isDirectory()) throw invalid(field, `${p} is a file, not a folder: give the folder that holds settings.json and history.db`);
  return path.resolve(p);
}

function looksLikeSigenSettings(file: string): boolean {
  try {
    const raw = JSON.parse(readImportText(file, { maxBytes: IMPORT_CAPS.smallFile }, 'settings.json')) as unknown;
    if (typeof raw !== 'object' || raw === null) return false;
    const o = raw as Record<string, unknown>;
    // Its own section names: "sigen" (the gateway), or a "poll" section with its interval field.
    return (typeof o.sigen === 'object' && o.sigen !== null) || (typeof o.poll === 'object' && o.poll !== null && 'defaultIntervalMs' in o.poll);
  } catch {
    return false;
  }
}

/**
 * A history.db with its `samples` table: an SQLite file whose schema page (the first page, read as
 * bytes: the database is never opened here) declares `samples` with its `pvPower` column. A file
 * damaged past its header still counts by name; reading it reports the damage.
 */
function looksLikeSigenDb(file: string): boolean {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(65_536);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    const head = buf.subarray(0, n);
    if (!head.subarray(0, 16).equals(Buffer.from('SQLite format 3\0', 'latin1'))) return false;
    const text = head.toString('latin1');
    return /CREATE TABLE[^(]*samples/i.test(text) ? text.includes('pvPower') : n > 0;
  } finally {
    fs.closeSync(fd);
  }
}

/** The first few KB name its fields (`pvPower`) : enough to tell its history file from others. */
function looksLikeSigenJson(file: string): boolean {
  const fd = fs.openSync(file, 'r');
  try {
    const buf = Buffer.alloc(4096);
    const n = fs.readSync(fd, buf, 0, buf.length, 0);
    const head = buf.subarray(0, n).toString('utf8');
    return head.trimStart().startsWith('[') && /"(pvPower|gridPower|batteryPower|loadPower)"/.test(head);
  } finally {
    fs.closeSync(fd);
  }
}

/**
 * Finds its files in `dir`; refuses (422 `not_sigen_home_bridge`) a folder with none of them, so
 * pointing at the wrong folder (this bridge's own, a home folder) is a clear no, not an empty import.
 */
export function inspectSigenFolder(dirInput: unknown, field = 'dir'): SigenFolder {
  const dir = checkDir(dirInput, field);
  const at = (name: string) => path.join(dir, name);
  // Only regular files inside the folder, each within its cap: a device file, a FIFO or a symlink
  // out of the folder under one of these names is as good as absent (never opened).
  const ok = (name: string, maxBytes: number) => importFileOk(at(name), { inside: dir, maxBytes });
  const settingsFile = ok('settings.json', IMPORT_CAPS.smallFile) && looksLikeSigenSettings(at('settings.json')) ? at('settings.json') : null;
  const historyDb = ok('history.db', IMPORT_CAPS.database) && looksLikeSigenDb(at('history.db')) ? at('history.db') : null;
  const historyJson = SIGEN_HISTORY_JSON.filter((name) => ok(name, IMPORT_CAPS.historyJson) && looksLikeSigenJson(at(name))).map(at);
  const hapPersist = isFolderInside(dir, at('hap-persist')) && fs.readdirSync(at('hap-persist')).some((n) => n.startsWith('AccessoryInfo.')) ? at('hap-persist') : null;
  if (!settingsFile && !historyDb && !historyJson.length) {
    throw new AppError(
      422,
      'not_sigen_home_bridge',
      `${dir} is not a sigen-home-bridge data folder: it holds no settings.json with a "sigen" section, no history.db with its samples table and no history.json with its fields (pvPower, gridPower…). Give the folder its DATA_DIR names (by default the "data" folder next to its server).`,
      { field },
    );
  }
  return { dir, settingsFile, historyDb, historyJson, hapPersist };
}

/** `folder` is a folder whose real path lies inside `dir`. */
function isFolderInside(dir: string, folder: string): boolean {
  try {
    return fs.statSync(folder).isDirectory() && realPathInside(dir, folder);
  } catch {
    return false;
  }
}

/** The history jobs of a folder, its durable database first (its rows win a tie on `t`). */
export function historyJobs(folder: SigenFolder, extraFiles: string[] = []): ImportJob[] {
  return [
    ...(folder.historyDb ? [{ file: folder.historyDb, format: 'sigen-db' as const }] : []),
    ...folder.historyJson.map((file) => ({ file, format: 'sigen-json' as const })),
    ...extraFiles.map((file) => ({ file, format: 'sigen-json' as const })),
  ];
}
