import path from 'node:path';
import { systemClock, type Clock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import { defaultDataDir } from '../../core/paths.js';
import { openDatabase } from '../../core/sqlite.js';
import { ownFolders, recordingConfigFromEnv } from '../config.js';
import { createRecordingSettings } from '../settings.js';
import { recordingMigrations } from '../store/migrations.js';
import { createRecordingsStore } from '../store/recordings-store.js';
import { createShowsStore } from '../store/shows-store.js';
import { applyFetcharrPlan, type ImportReport } from './fetcharr-apply.js';
import { DEFAULT_MEDIA_ROOT_FROM, planFetcharrImport, previewOf, type FetcharrPreview } from './fetcharr-plan.js';

/** Where the CLI writes and what it reads: lines to stdout and stderr, the environment (DATA_DIR, DB_PATH, MEDIA_ROOT, TZ). */
export interface ImportCliIo {
  out(line: string): void;
  err(line: string): void;
  env: Record<string, string | undefined>;
  /** Folder that relative paths on the command line start from (default: the process's). */
  cwd?: string;
  clock?: Clock;
}

export const FETCHARR_CLI_USAGE = [
  'usage: npm run import -- --from fetcharr DIR [--media-root-from /media] [--media-root-to DIR] [--dry-run] [--json]',
  '  DIR               fetcharr\'s config folder (holding state.db), or the folder above config/',
  '  --media-root-from the media root as fetcharr wrote its paths (its container mount; default /media)',
  '  --media-root-to   where those files are on this computer (default: the media_root setting); becomes media_root',
  '  --dry-run         show what would be imported, write nothing',
  '  --json            print the preview or report as JSON',
  'The state written is the recording sync\'s (DB_PATH, or DATA_DIR/recordings/state.db). Stop the service',
  'first, or restart it after, so its pages show the imported recordings.',
];

interface CliArgs {
  dir: string;
  from: string;
  to: string | undefined;
  dryRun: boolean;
  json: boolean;
}

function parseArgs(args: readonly string[]): CliArgs | string {
  const out: Partial<CliArgs> = { from: DEFAULT_MEDIA_ROOT_FROM, dryRun: false, json: false };
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const eq = arg.indexOf('=');
    const [name, inline] = arg.startsWith('--') && eq > 0 ? [arg.slice(0, eq), arg.slice(eq + 1)] : [arg, undefined];
    const value = () => {
      const v = inline ?? args[++i];
      if (v === undefined || v === '') throw new Error(`${name} needs a value`);
      return v;
    };
    try {
      if (name === '--media-root-from') out.from = value();
      else if (name === '--media-root-to') out.to = value();
      else if (name === '--dry-run') out.dryRun = true;
      else if (name === '--json') out.json = true;
      else if (name === '--from') {
        const v = value();
        if (v !== 'fetcharr') return `--from ${v}: this importer reads fetcharr folders`;
      } else if (name.startsWith('-')) return `unknown option ${name}`;
      else if (out.dir === undefined) out.dir = name;
      else return `one folder only (got ${out.dir} and ${name})`;
    } catch (err) {
      return (err as Error).message;
    }
  }
  if (!out.dir) return 'the fetcharr config folder is missing';
  return out as CliArgs;
}

const plural = (n: number, one: string, many = `${one}s`) => `${n} ${n === 1 ? one : many}`;

/** The preview (or report) in plain lines, as the wizard shows it. */
export function previewLines(p: FetcharrPreview): string[] {
  const r = p.counts.recordings;
  const lines = [
    `fetcharr state: ${p.source.stateDb}`,
    `media root: ${p.media_root.from} (then) → ${p.media_root.to} (now)`,
    `settings carried: ${p.settings.map((s) => (s.from === s.to ? s.to : `${s.from} → ${s.to}`)).join(', ') || 'none'}`,
    `shows: ${plural(p.counts.shows, 'show')}`,
    ...p.shows.map(
      (s) =>
        `  ${s.name} → ${s.dest_folder}/${s.season_template}${s.enabled ? '' : ' (paused)'}${s.delete_after_download ? ', delete from the box after download' : ''}, ad removal ${s.ad_mode}`,
    ),
    `recordings: ${r.done} downloaded (${r.files_found} files found), ${r.retry} to retry, ${r.skipped} still recording, ${r.deleted_from_box} deleted from the box`,
    `sync history: ${plural(p.counts.sync_runs, 'run')}`,
  ];
  for (const m of p.missing_files) lines.push(`file not found: ${m.title} (${m.looked_for ?? `${m.written ?? '?'} is not under ${p.media_root.from}`})`);
  for (const n of p.not_carried) lines.push(`not carried: ${n.what}: ${n.reason}`);
  for (const problem of p.problems) lines.push(`could not read: ${problem}`);
  return lines;
}

function reportLines(r: ImportReport): string[] {
  const w = r.written;
  return [
    ...previewLines(r),
    `imported: shows ${w.shows.created} new, ${w.shows.kept} already followed; recordings ${w.recordings.created} new, ${w.recordings.replaced} updated, ${w.recordings.kept} already known; sync runs ${w.sync_runs.created} new, ${w.sync_runs.already} already imported` +
      (w.detector_ini === 'carried' ? '; comskip.ini → detector.ini' : ''),
  ];
}

/**
 * `npm run import -- --from fetcharr DIR --media-root-from /media --media-root-to DIR`: imports a
 * fetcharr config folder into the recording sync's state file. Returns the exit code: 0 imported
 * (problems reading a damaged file are printed on stderr), 1 refused, 2 usage.
 */
export async function runFetcharrImportCli(args: string[], io: ImportCliIo): Promise<number> {
  const parsed = parseArgs(args);
  if (typeof parsed === 'string') {
    io.err(parsed);
    for (const line of FETCHARR_CLI_USAGE) io.err(line);
    return 2;
  }
  const clock = io.clock ?? systemClock;
  const config = recordingConfigFromEnv(io.env, defaultDataDir(io.env));
  const db = openDatabase(config.dbPath, recordingMigrations);
  try {
    const settings = createRecordingSettings(db, { env: config.env, tz: config.tz, configDir: config.configDir, bundledDetectorIni: config.bundledDetectorIni });
    // Folders given on the command line may be relative to where it runs; "then" is fetcharr's own path.
    const cwd = io.cwd ?? process.cwd();
    const mediaRootTo = parsed.to === undefined ? settings.get().media_root : path.resolve(cwd, parsed.to);
    const plan = planFetcharrImport({ dir: path.resolve(cwd, parsed.dir), mediaRootFrom: parsed.from, mediaRootTo, appFolders: ownFolders(config), now: clock.now() });
    if (parsed.dryRun) {
      const preview = previewOf(plan);
      if (parsed.json) io.out(JSON.stringify({ preview }, null, 2));
      else for (const line of previewLines(preview)) io.out(line);
      return 0;
    }
    const report = applyFetcharrPlan(plan, {
      db,
      shows: createShowsStore(db),
      recordings: createRecordingsStore(db),
      settings,
      configDir: config.configDir,
      clock,
    });
    if (parsed.json) io.out(JSON.stringify({ report }, null, 2));
    else for (const line of reportLines(report)) io.out(line);
    for (const problem of report.problems) io.err(`warning: could not read ${problem}`);
    io.out(`state: ${config.dbPath}`);
    return 0;
  } catch (err) {
    if (err instanceof AppError) {
      io.err(`refused: ${err.message}`);
      return 1;
    }
    io.err(`import failed: ${(err as Error).message}`);
    return 1;
  } finally {
    db.close();
  }
}
