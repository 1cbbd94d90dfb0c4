import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { repoRoot } from '../../core/paths.js';
import { openDatabase, type Db } from '../../core/sqlite.js';
import { createRecordingSettings } from '../settings.js';
import { recordingMigrations } from '../store/migrations.js';
import { createRecordingsStore } from '../store/recordings-store.js';
import { createShowsStore } from '../store/shows-store.js';
import { createSyncRunsStore, type SyncRunsStore } from '../store/sync-runs-store.js';
import type { ImportTarget } from './fetcharr-apply.js';

/**
 * The fetcharr anchor fixture (written by fetcharr 1.4.0 itself; read-only): tests copy it to a
 * temporary folder first and never open the original.
 */
export const FETCHARR_FIXTURE = process.env.FETCHARR_FIXTURE ?? path.resolve(repoRoot, '..', 'shared', 'fixtures', 'anchors', 'fetcharr');

export interface FetcharrFacts {
  settings_rows: Array<{ key: string; value: string }>;
  shows: Array<{ id: number; fetch_show_pattern: string; dest_folder: string; season_template: string; enabled: number; delete_after_download: number; ad_removal: string }>;
  recordings: Array<{ fetch_id: string; show_id: number; fetch_title: string; season: number; episode: number; file_path: string; size: number; status: string; error: string | null; ad_status: string | null }>;
  syncs: Array<{ id: number; started_at: string; finished_at: string; status: string; summary: Record<string, unknown> }>;
  files: Array<{ path: string; bytes: number }>;
}

export const fixtureAvailable = () => fs.existsSync(path.join(FETCHARR_FIXTURE, 'config', 'state.db'));

export function readFacts(): FetcharrFacts {
  return JSON.parse(fs.readFileSync(path.join(FETCHARR_FIXTURE, 'facts.json'), 'utf8')) as FetcharrFacts;
}

/** Every file under `dir` (relative path → SHA-256). */
export function hashTree(dir: string): Map<string, string> {
  const out = new Map<string, string>();
  const walk = (d: string) => {
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) walk(p);
      else out.set(path.relative(dir, p), crypto.createHash('sha256').update(fs.readFileSync(p)).digest('hex'));
    }
  };
  walk(dir);
  return out;
}

/** A writable copy of the fixture in a new temporary folder: `<tmp>/fetcharr/{config,media}`. */
export function copyFixture(): { root: string; fetcharr: string; config: string; media: string } {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'fetcharr-import-'));
  const fetcharr = path.join(root, 'fetcharr');
  fs.cpSync(FETCHARR_FIXTURE, fetcharr, { recursive: true });
  // The fixture is read-only on disk; the copy is ours to change (a damaged-db test edits it).
  const chmod = (d: string) => {
    fs.chmodSync(d, 0o755);
    for (const e of fs.readdirSync(d, { withFileTypes: true })) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) chmod(p);
      else fs.chmodSync(p, 0o644);
    }
  };
  chmod(fetcharr);
  return { root, fetcharr, config: path.join(fetcharr, 'config'), media: path.join(fetcharr, 'media') };
}

/** Our own state file in `dir` with its stores: what an import writes into. */
export function openTarget(dir: string, now: () => number = () => Date.now()): ImportTarget & { runs: SyncRunsStore; close(): void } {
  const db: Db = openDatabase(path.join(dir, 'state.db'), recordingMigrations);
  const settings = createRecordingSettings(db, { env: {}, tz: 'Australia/Sydney', configDir: dir, bundledDetectorIni: path.join(repoRoot, 'assets', 'detector.ini') });
  return {
    db,
    shows: createShowsStore(db),
    recordings: createRecordingsStore(db),
    runs: createSyncRunsStore(db),
    settings,
    configDir: dir,
    clock: { now, setTimeout: (fn, ms) => setTimeout(fn, ms), setInterval: (fn, ms) => setInterval(fn, ms), clear: (t) => clearTimeout(t as NodeJS.Timeout) },
    close: () => db.close(),
  };
}
