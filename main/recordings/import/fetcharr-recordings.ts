import fs from 'node:fs';
import { realPathInside } from '../../core/real-path.js';
import type { AdStatus, RecordingRow, RecordingStatus } from '../store/recordings-store.js';
import type { FetcharrRecordingRow } from './fetcharr-source.js';
import { fetcharrTime } from './fetcharr-time.js';
import { mapMediaPath } from './media-path.js';

/** A recording row as it will be stored here (`show_id` is fetcharr's until the shows are written). */
export type PlannedRecording = Omit<RecordingRow, 'updated_at'> & { source_show_id: number | null };

/** A downloaded recording whose file is not where the mapped path says. */
export interface MissingFile {
  box_id: string;
  title: string;
  /** As fetcharr wrote it, and where it was looked for (null: not under the old media root). */
  written: string | null;
  looked_for: string | null;
}

export interface RecordingsPlan {
  rows: PlannedRecording[];
  counts: {
    total: number;
    /** Downloaded: known here and never downloaded again. */
    done: number;
    /** …of which the file was found under the new media root. */
    files_found: number;
    /** Not downloaded (failed, partial, interrupted): the next sync tries them again. */
    retry: number;
    /** Skipped as still recording: the next sync looks again. */
    skipped: number;
    /** Deleted from the box by fetcharr: tombstones, never downloaded again. */
    deleted_from_box: number;
  };
  missing: MissingFile[];
  refused: Array<{ what: string; reason: string }>;
}

const AD_STATUSES: readonly AdStatus[] = ['detected', 'no_breaks', 'cut', 'detect_failed', 'cut_failed'];

/** fetcharr's `ad_breaks_json` (`[{ start, end }]` in seconds) when it reads as that, else null. */
function breaksJson(text: unknown): string | null {
  if (typeof text !== 'string' || !text) return null;
  try {
    const v: unknown = JSON.parse(text);
    if (!Array.isArray(v) || v.length > 2000) return null;
    const spans = v.map((b: unknown) => {
      const s = b as { start?: unknown; end?: unknown };
      if (typeof s?.start !== 'number' || typeof s?.end !== 'number' || !(s.end > s.start)) throw new Error('not a span');
      return { start: s.start, end: s.end };
    });
    return JSON.stringify(spans);
  } catch {
    return null;
  }
}

const int = (v: unknown): number | null => (typeof v === 'number' && Number.isInteger(v) ? v : typeof v === 'bigint' ? Number(v) : null);

/** The size of a mapped file when it exists as a regular file inside the new media root (its real path, symlinks resolved). */
function foundInside(file: string, root: string): number | null {
  try {
    const st = fs.statSync(file, { throwIfNoEntry: false });
    return st?.isFile() && realPathInside(root, file) ? st.size : null;
  } catch {
    return null;
  }
}

/**
 * fetcharr's `recordings` rows → ours, keyed by the same box id (its `fetch_id` is the box's DLNA
 * object id, as ours is):
 * - `done` stays done (never downloaded again); its file is looked for under the new media root;
 *   a missing file is reported and the row still counts as downloaded (fetcharr would not fetch it
 *   again either). The box's listing size is not kept by fetcharr for these (it stores the bytes on
 *   disk), so `expected_size` is left unknown and identity rests on the id and title.
 * - `failed`, `partial`, `downloading`, `pending` are stored `failed`: the next sync downloads them
 *   again from the start (fetcharr wrote partial bytes to the final name, not a resumable file).
 * - `skipped` (still recording) stays skipped with its reason.
 * - `deleted_from_fetch_at` makes a tombstone (deleted from the box, never downloaded again), dated
 *   from that time (an unreadable time counts from `now`) so it is purged 30 days later as there.
 */
export function planRecordings(rows: readonly FetcharrRecordingRow[], roots: { from: string; to: string }, now: number): RecordingsPlan {
  const plan: RecordingsPlan = {
    rows: [],
    counts: { total: 0, done: 0, files_found: 0, retry: 0, skipped: 0, deleted_from_box: 0 },
    missing: [],
    refused: [],
  };
  for (const r of rows) {
    const id = typeof r.fetch_id === 'string' || typeof r.fetch_id === 'number' ? String(r.fetch_id) : '';
    const title = typeof r.fetch_title === 'string' ? r.fetch_title : '';
    if (!id || !title) {
      plan.refused.push({ what: `recording ${id.slice(0, 64) || '(no id)'}`, reason: 'no box id or title' });
      continue;
    }
    const deletedAt = r.deleted_from_fetch_at ? (fetcharrTime(r.deleted_from_fetch_at) ?? fetcharrTime(r.purged_at) ?? now) : null;
    const written = typeof r.file_path === 'string' && r.file_path ? r.file_path : null;
    const mapped = written ? mapMediaPath(written, roots.from, roots.to) : null;
    const size = int(r.size);
    let status: RecordingStatus;
    let error: string | null = typeof r.error === 'string' && r.error ? `fetcharr: ${r.error}`.slice(0, 2000) : null;
    let filePath: string | null = null;
    let storedSize: number | null = null;
    let expectedSize: number | null = null;
    if (r.status === 'done' && mapped && !realPathInside(roots.to, mapped)) {
      // Carried, housekeeping and the ad cut would act on wherever it leads: not carried at all.
      plan.refused.push({ what: `recording ${id.slice(0, 64)} (${title.slice(0, 120)})`, reason: 'its file leads outside the media root through a symbolic link: not carried' });
      continue;
    }
    if (r.status === 'done') {
      status = 'done';
      filePath = mapped;
      const onDisk = mapped ? foundInside(mapped, roots.to) : null;
      if (onDisk !== null) {
        plan.counts.files_found++;
        storedSize = onDisk;
        error = null;
      } else {
        storedSize = size;
        if (deletedAt === null) {
          plan.missing.push({ box_id: id, title, written, looked_for: mapped });
          error = mapped ? `imported from fetcharr: its file was not found at ${mapped}` : `imported from fetcharr: its file ${written ?? '(none)'} is not under the old media root ${roots.from}`;
        }
      }
    } else if (r.status === 'skipped') {
      status = 'skipped';
      expectedSize = size;
    } else {
      status = 'failed';
      expectedSize = size;
      if (r.status !== 'failed') {
        const was = String(r.status).slice(0, 20);
        error = `imported from fetcharr (${was}${error ? `: ${error.replace(/^fetcharr: /, '')}` : ''}): downloaded again from the start`;
      }
    }
    if (status === 'done') plan.counts.done++;
    else if (status === 'skipped') plan.counts.skipped++;
    else plan.counts.retry++;
    if (deletedAt !== null) plan.counts.deleted_from_box++;
    plan.counts.total++;
    const adStatus: AdStatus = status === 'done' && AD_STATUSES.includes(r.ad_status as AdStatus) ? (r.ad_status as AdStatus) : 'unscanned';
    plan.rows.push({
      box_id: id.slice(0, 512),
      show_id: null,
      source_show_id: int(r.show_id),
      box_udn: null,
      show_title: null,
      box_title: title.slice(0, 1000),
      season: int(r.season),
      episode: int(r.episode),
      status,
      error,
      size: storedSize,
      expected_size: expectedSize,
      downloaded_at: status === 'done' ? fetcharrTime(r.downloaded_at) : null,
      file_path: filePath,
      purged_at: deletedAt,
      ad_status: adStatus,
      ad_breaks_json: adStatus === 'unscanned' ? null : breaksJson(r.ad_breaks_json),
      ad_processed_at: adStatus === 'unscanned' ? null : fetcharrTime(r.ad_processed_at),
      deleted_from_box_at: deletedAt,
      recorded_start: null,
    });
  }
  return plan;
}
