import fs from 'node:fs';
import { IMPORT_CAPS, copyImportFile } from '../../core/import-file.js';
import path from 'node:path';
import type { Clock } from '../../core/clock.js';
import type { Db } from '../../core/sqlite.js';
import type { RecordingSettings } from '../settings.js';
import type { RecordingsStore } from '../store/recordings-store.js';
import type { ShowsStore } from '../store/shows-store.js';
import { SYNC_HISTORY_CAP } from '../store/sync-runs-store.js';
import type { FetcharrPlan, FetcharrPreview } from './fetcharr-plan.js';
import { previewOf } from './fetcharr-plan.js';

/** Our state an import writes into (the running service's, or the CLI's own handle on the state file). */
export interface ImportTarget {
  db: Db;
  shows: ShowsStore;
  recordings: RecordingsStore;
  settings: RecordingSettings;
  /** The state file's folder: a fetcharr `comskip.ini` becomes `detector.ini` here when there is none. */
  configDir: string;
  clock: Clock;
}

export interface ImportReport extends FetcharrPreview {
  written: {
    shows: { created: number; kept: number };
    recordings: { created: number; replaced: number; kept: number };
    sync_runs: { created: number; already: number };
    detector_ini: 'carried' | 'kept' | 'none';
  };
}

const norm = (s: string) => s.trim().toLowerCase();

/**
 * Writes a plan into our state; importing the same folder again changes nothing:
 * - a show already followed under the same name is kept as it is (its id takes the imported rows);
 * - a recording already known here is kept when it is downloaded or deleted from the box here, or
 *   when the imported one is neither; otherwise the imported row replaces it;
 * - sync runs carry fetcharr's run id and are written once;
 * - settings are stored through the settings schema (listeners see the change: the schedule moves).
 */
export function applyFetcharrPlan(plan: FetcharrPlan, target: ImportTarget): ImportReport {
  const now = target.clock.now();
  const written: ImportReport['written'] = {
    shows: { created: 0, kept: 0 },
    recordings: { created: 0, replaced: 0, kept: 0 },
    sync_runs: { created: 0, already: 0 },
    detector_ini: 'none',
  };
  const upsert = target.db.prepare(`
    INSERT INTO recordings (box_id, show_id, box_udn, show_title, box_title, season, episode, status, error, size, expected_size,
      downloaded_at, file_path, purged_at, ad_status, ad_breaks_json, ad_processed_at, deleted_from_box_at, recorded_start, updated_at)
    VALUES (@box_id, @show_id, @box_udn, @show_title, @box_title, @season, @episode, @status, @error, @size, @expected_size,
      @downloaded_at, @file_path, @purged_at, @ad_status, @ad_breaks_json, @ad_processed_at, @deleted_from_box_at, @recorded_start, @updated_at)
    ON CONFLICT(box_id) DO UPDATE SET show_id = excluded.show_id, box_udn = excluded.box_udn, show_title = excluded.show_title,
      box_title = excluded.box_title, season = excluded.season, episode = excluded.episode, status = excluded.status, error = excluded.error,
      size = excluded.size, expected_size = excluded.expected_size, downloaded_at = excluded.downloaded_at, file_path = excluded.file_path,
      purged_at = excluded.purged_at, ad_status = excluded.ad_status, ad_breaks_json = excluded.ad_breaks_json,
      ad_processed_at = excluded.ad_processed_at, deleted_from_box_at = excluded.deleted_from_box_at,
      recorded_start = excluded.recorded_start, updated_at = excluded.updated_at`);
  const importedRuns = target.db.prepare(
    `SELECT json_extract(summary_json, '$.imported_id') AS id FROM sync_runs WHERE json_extract(summary_json, '$.imported_from') = 'fetcharr'`,
  );
  const insertRun = target.db.prepare('INSERT INTO sync_runs (trigger, show_id, started_at, finished_at, status, summary_json) VALUES (?, ?, ?, ?, ?, ?)');
  const capRuns = target.db.prepare(`DELETE FROM sync_runs WHERE status != 'running' AND id <= (SELECT id FROM sync_runs ORDER BY id DESC LIMIT 1 OFFSET ?)`);

  target.db.transaction(() => {
    const showIds = new Map<number, number>();
    const existing = target.shows.list();
    for (const s of plan.shows) {
      const same = existing.find((e) => norm(e.name) === norm(s.name));
      if (same) {
        showIds.set(s.source_id, same.id);
        written.shows.kept++;
        continue;
      }
      const { source_id, created_at, ...input } = s;
      const created = target.shows.create(input, created_at ?? now);
      if (created_at !== null) target.shows.update(created.id, {}, now);
      showIds.set(source_id, created.id);
      existing.push(created);
      written.shows.created++;
    }

    for (const planned of plan.recordings.rows) {
      const { source_show_id, ...row } = planned;
      const mine = target.recordings.get(row.box_id);
      const importedSettled = row.status === 'done' || row.purged_at !== null;
      if (mine && (mine.status === 'done' || mine.purged_at !== null || !importedSettled)) {
        written.recordings.kept++;
        continue;
      }
      upsert.run({ ...row, show_id: source_show_id === null ? null : (showIds.get(source_show_id) ?? null), updated_at: now });
      if (mine) written.recordings.replaced++;
      else written.recordings.created++;
    }

    const already = new Set((importedRuns.all() as Array<{ id: number | null }>).map((r) => Number(r.id)));
    for (const run of plan.runs) {
      if (already.has(run.source_id)) {
        written.sync_runs.already++;
        continue;
      }
      const showId = run.source_show_id === null ? null : (showIds.get(run.source_show_id) ?? null);
      insertRun.run(run.trigger, showId, run.started_at, run.finished_at, run.status, JSON.stringify(run.summary));
      written.sync_runs.created++;
    }
    if (written.sync_runs.created) capRuns.run(SYNC_HISTORY_CAP);
  })();
  target.recordings.invalidate();

  target.settings.patch(plan.settings.patch, now, { owner: true }); // the import routes are the owner's only

  if (plan.source.comskipIni) {
    const mine = path.join(target.configDir, 'detector.ini');
    if (fs.existsSync(mine)) written.detector_ini = 'kept';
    else {
      fs.mkdirSync(target.configDir, { recursive: true });
      // Checked again now: still a regular file inside fetcharr's folder, within the cap.
      copyImportFile(plan.source.comskipIni, mine, { inside: path.dirname(plan.source.comskipIni), maxBytes: IMPORT_CAPS.smallFile }, 'comskip.ini', fs.constants.COPYFILE_EXCL);
      written.detector_ini = 'carried';
    }
  }
  return { ...previewOf(plan), written };
}
