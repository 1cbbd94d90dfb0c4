import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';

/** The sigen-home-bridge data folder written by the real program (read-only in tests). */
export const SIGEN_FIXTURE = path.join(import.meta.dirname, '..', 'fixtures', 'sigen-home-bridge');

/** facts.json of the fixture: what was set through its API, row counts, sample rows. */
export const sigenFacts = JSON.parse(fs.readFileSync(path.join(SIGEN_FIXTURE, 'facts.json'), 'utf8')) as {
  passcode: { value: string };
  homekit: { pin: string; bridge_name: string; bridge_username: string; port: number };
  settings_json_stored: Record<string, unknown>;
  history: { rows: number; min_t: number; max_t: number; sample_rows: Array<Record<string, number | null>> };
  legacy_history: { sha256: string; rows: number; first_t: number; last_t: number; outdoorTemp_null_rows: number; sample_legacy_rows: Array<Record<string, number | null>> };
};

/**
 * A fresh temporary copy of the fixture as the program left it on disk (the .gz files unpacked),
 * optionally with the legacy file under other names. Returns the folder.
 */
export function sigenFolderCopy(opts: { legacyAs?: string[]; without?: string[] } = {}): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sigen-folder-'));
  for (const entry of fs.readdirSync(SIGEN_FIXTURE, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || entry.name === 'README.md' || entry.name === 'facts.json') continue;
    const from = path.join(entry.parentPath, entry.name);
    const rel = path.relative(SIGEN_FIXTURE, from);
    const to = path.join(dir, rel.replace(/\.gz$/, ''));
    fs.mkdirSync(path.dirname(to), { recursive: true });
    const bytes = fs.readFileSync(from);
    fs.writeFileSync(to, rel.endsWith('.gz') ? zlib.gunzipSync(bytes) : bytes);
  }
  for (const name of opts.legacyAs ?? []) fs.copyFileSync(path.join(dir, 'history.json.imported'), path.join(dir, name));
  for (const name of opts.without ?? []) fs.rmSync(path.join(dir, name), { recursive: true, force: true });
  return dir;
}

/** SHA-256 of every file under `dir` (and so the list of files): compared before and after. */
export function hashTree(dir: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const p = path.join(entry.parentPath, entry.name);
    const rel = path.relative(dir, p);
    out[rel] = entry.isFile() ? crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex') : entry.isDirectory() ? 'dir' : 'other';
  }
  return out;
}
