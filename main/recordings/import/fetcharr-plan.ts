import path from 'node:path';
import { invalid } from '../../core/errors.js';
import { checkMediaRoot } from '../sync/media-root.js';
import { planRecordings, type MissingFile, type RecordingsPlan } from './fetcharr-recordings.js';
import { mapFetcharrSettings, type CarriedSetting, type NotCarried, type SettingsMapping } from './fetcharr-settings.js';
import { planShows, type PlannedShow } from './fetcharr-shows.js';
import { readFetcharrFolder } from './fetcharr-source.js';
import { planSyncs, type PlannedRun } from './fetcharr-syncs.js';

export interface FetcharrImportOptions {
  /** fetcharr's config folder (holding state.db), or the folder above it. */
  dir: string;
  /** The media root as fetcharr wrote paths (its container mount, `/media` by default). */
  mediaRootFrom: string;
  /** Where those files are on this computer now: becomes our media root. */
  mediaRootTo: string;
  /** The app's own folders: the media root to move to must keep clear of them. */
  appFolders?: readonly string[];
  now: number;
}

/** Everything an import would write, read from the source and checked, before anything is written. */
export interface FetcharrPlan {
  source: { dir: string; stateDb: string; migrations: string[]; mediaRoot: string | null; comskipIni: string | null };
  roots: { from: string; to: string };
  settings: SettingsMapping;
  shows: PlannedShow[];
  recordings: RecordingsPlan;
  runs: PlannedRun[];
  notCarried: NotCarried[];
  problems: string[];
}

/** What the wizard, the API and the CLI show before importing (secrets masked). */
export interface FetcharrPreview {
  source: FetcharrPlan['source'];
  media_root: { from: string; to: string };
  counts: { settings: number; shows: number; recordings: RecordingsPlan['counts']; sync_runs: number };
  settings: CarriedSetting[];
  shows: Array<Omit<PlannedShow, 'source_id' | 'created_at'>>;
  missing_files: MissingFile[];
  not_carried: NotCarried[];
  problems: string[];
}

/** The default of "media root then": fetcharr's container mount. */
export const DEFAULT_MEDIA_ROOT_FROM = '/media';

/** Reads a fetcharr config folder and plans its import (nothing is written). Throws 400s naming the field. */
export function planFetcharrImport(opts: FetcharrImportOptions): FetcharrPlan {
  if (!path.posix.isAbsolute(opts.mediaRootFrom.replace(/\\/g, '/'))) throw invalid('media_root_from', 'must be an absolute path (as fetcharr saw it, e.g. /media)');
  checkMediaRoot(opts.mediaRootTo, opts.appFolders ?? [], 'media_root_to', 'Media folder to move to');
  const roots = { from: opts.mediaRootFrom, to: path.resolve(opts.mediaRootTo) };
  const source = readFetcharrFolder(opts.dir);
  const settings = mapFetcharrSettings(source.settings, roots);
  const shows = planShows(source.shows, roots.to);
  const recordings = planRecordings(source.recordings, roots, opts.now);
  const syncs = planSyncs(source.syncs);
  const notCarried = [...settings.notCarried, ...shows.refused, ...recordings.refused, ...syncs.refused];
  const hidden = source.recordings.filter((r) => r.deleted_from_fetch_at && r.purged_at).length;
  if (hidden) notCarried.push({ what: `${hidden} deleted recording(s) hidden from fetcharr's list`, reason: 'this app has no hidden state: they show as deleted from the box until purged after 30 days' });
  if (settings.patch.cloud_activation_code || settings.patch.cloud_pin) {
    notCarried.push({ what: "the vendor cloud's addresses", reason: 'fetcharr has them built in: set cloud_api_url and cloud_ws_url in Settings for deleting from the box' });
  }
  return {
    source: {
      dir: opts.dir,
      stateDb: source.dbPath,
      migrations: source.migrations,
      mediaRoot: source.settings.get('media_root') ?? null,
      comskipIni: source.comskipIni,
    },
    roots,
    settings,
    shows: shows.shows,
    recordings,
    runs: syncs.runs,
    notCarried,
    problems: source.problems,
  };
}

export function previewOf(plan: FetcharrPlan): FetcharrPreview {
  return {
    source: plan.source,
    media_root: plan.roots,
    counts: { settings: plan.settings.carried.length, shows: plan.shows.length, recordings: plan.recordings.counts, sync_runs: plan.runs.length },
    settings: plan.settings.carried,
    shows: plan.shows.map(({ source_id: _id, created_at: _at, ...show }) => show),
    missing_files: plan.recordings.missing,
    not_carried: plan.notCarried,
    problems: plan.problems,
  };
}
