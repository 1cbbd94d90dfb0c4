import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { systemClock } from '../../core/clock.js';
import { AppError } from '../../core/errors.js';
import { createLogger, silentLogger, type Logger } from '../../core/logger.js';
import { defaultDataDir } from '../../core/paths.js';
import { createSettingsStore } from '../../core/settings-store.js';
import { createHistory } from '../history/index.js';
import type { LegacyImportReport } from '../history/legacy-import.js';
import { createPasscodeStore } from '../security/passcode-store.js';
import { energySeedsFromEnv, energySettingsSchema } from '../settings/energy-settings.js';
import { previewSigenImport, runSigenImport, type ImportTarget, type SigenPreview, type SigenResult } from './sigen-import.js';

export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  /** Environment (DATA_DIR, seeds for a first start); default process.env. */
  env?: NodeJS.ProcessEnv;
  /** The clock history retention is measured from; default the system clock. */
  now?: () => number;
  logger?: Logger;
}

const USAGE = `usage: npm run import -- --from sigen-home-bridge DIR [--data-dir DIR] [--history-file FILE]... [--dry-run]

  DIR                 sigen-home-bridge's data folder (its DATA_DIR: settings.json, history.db,
                      history.json, hap-persist/); only read, never changed
  --data-dir DIR      this bridge's data folder (default: DATA_DIR, else the per-user app folder)
  --history-file F    also import this legacy history file (e.g. legacy-history.json.original)
  --dry-run           show what would be carried and what not; write nothing

Stop the bridge (tray app or npm start) first: the import writes its settings and history files.`;

interface Args {
  dir: string;
  dataDir: string | null;
  historyFiles: string[];
  dryRun: boolean;
}

function parseArgs(args: string[]): Args | string {
  const out: Args = { dir: '', dataDir: null, historyFiles: [], dryRun: false };
  const positional: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    const value = () => {
      const v = args[++i];
      if (v === undefined || v.startsWith('--')) throw new Error(`${a} needs a value`);
      return v;
    };
    try {
      if (a === '--from') {
        const from = value();
        if (from !== 'sigen-home-bridge') return `--from ${from}: this importer reads sigen-home-bridge folders`;
      } else if (a === '--data-dir') out.dataDir = path.resolve(value());
      else if (a === '--history-file') out.historyFiles.push(path.resolve(value()));
      else if (a === '--dry-run') out.dryRun = true;
      else if (a === '--help' || a === '-h') return '';
      else if (a.startsWith('--')) return `unknown option ${a}`;
      else positional.push(a);
    } catch (err) {
      return (err as Error).message;
    }
  }
  if (positional.length !== 1) return positional.length ? `one folder, please (got ${positional.join(', ')})` : 'which folder? give sigen-home-bridge’s data folder';
  out.dir = path.resolve(positional[0]!);
  return out;
}

const iso = (t: number | null) => (t === null ? '–' : new Date(t).toISOString());

function printPreview(p: SigenPreview, io: CliIo): void {
  io.out(`From sigen-home-bridge at ${p.dir}`);
  for (const f of p.history.files) {
    io.out(`  history ${path.basename(f.file)}: ${f.rows} rows, ${iso(f.firstT)} … ${iso(f.lastT)}${f.damage ? ` (damaged: ${f.damage})` : ''}`);
  }
  if (p.history.olderThanRetention) io.out(`  ${p.history.olderThanRetention} rows are older than the ${p.history.retentionDays}-day retention and stay behind`);
  io.out(`  settings: ${p.settings.found ? `${p.settings.carried.length} carried (${p.settings.changed.join(', ')})` : 'no settings.json'}`);
  for (const c of p.settings.carried) io.out(`    ${c.from} → ${c.to}`);
  io.out(`  passcode: ${p.passcode === 'carried' ? 'its passcode unlocks this bridge too' : p.passcode === 'kept-ours' ? 'this bridge keeps its own passcode' : 'none set there'}`);
  io.out(`  HomeKit: ${p.homekit ? `bridge ${p.homekit.username} with ${p.homekit.pairedControllers} paired Home app(s), kept paired` : 'nothing to carry'}`);
  if (p.notCarried.length) io.out('  not carried:');
  for (const n of p.notCarried) io.out(`    ${n.setting}: ${n.reason}`);
}

function printReports(reports: LegacyImportReport[], io: CliIo): void {
  for (const r of reports) {
    const name = path.basename(r.file);
    if (r.status === 'failed') io.err(`  history ${name}: not imported: ${r.error}`);
    else io.out(`  history ${name}: ${r.status}, ${r.imported} rows added, ${r.skipped} already here or older than retention${r.unreadable ? `, ${r.unreadable} unreadable (${r.error})` : ''}`);
  }
}

/**
 * `npm run import -- --from sigen-home-bridge DIR`: imports a sigen-home-bridge data folder into
 * this bridge's data folder (the bridge should not be running). Exit codes: 0 imported, 1 nothing
 * imported, 2 usage or a refused folder, 3 imported in part.
 */
export async function runSigenImportCli(args: string[], io: CliIo): Promise<number> {
  const parsed = parseArgs(args);
  if (typeof parsed === 'string') {
    if (parsed) io.err(parsed);
    io.err(USAGE);
    return parsed ? 2 : 0;
  }
  const env = io.env ?? process.env;
  const dataDir = parsed.dataDir ?? defaultDataDir(env);
  const logger = io.logger ?? (env.LOG_LEVEL ? createLogger({ name: 'import', level: env.LOG_LEVEL }) : silentLogger);
  const now = io.now ?? (() => systemClock.now());
  // A dry run reads copies of this bridge's settings and passcode files: nothing is created or written.
  const scratch = parsed.dryRun ? fs.mkdtempSync(path.join(os.tmpdir(), 'import-dry-run-')) : null;
  if (scratch) {
    for (const f of ['settings.json', 'security.json']) {
      const from = path.join(dataDir, 'energy', f);
      if (fs.existsSync(from)) {
        fs.mkdirSync(path.join(scratch, 'energy'), { recursive: true });
        fs.copyFileSync(from, path.join(scratch, 'energy', f));
      }
    }
  }
  const energyDir = path.join(scratch ?? dataDir, 'energy');
  const settings = createSettingsStore({ file: path.join(energyDir, 'settings.json'), schema: energySettingsSchema, seed: () => energySeedsFromEnv(env), logger });
  const passcodes = createPasscodeStore({ file: path.join(energyDir, 'security.json'), logger });
  const history = createHistory({ dataDir, clock: { ...systemClock, now }, logger, retentionMs: () => settings.get().history.retentionDays * 86_400_000, legacyFiles: [] });
  const target: ImportTarget = { settings, passcodes, homekitDir: path.join(dataDir, 'energy', 'homekit'), history, now };
  try {
    if (parsed.dryRun) {
      printPreview(previewSigenImport(parsed.dir, target, { extraHistoryFiles: parsed.historyFiles }), io);
      io.out('Dry run: nothing was written.');
      return 0;
    }
    history.start();
    let last = '';
    const result: SigenResult = await runSigenImport(parsed.dir, target, {
      extraHistoryFiles: parsed.historyFiles,
      onProgress(reports) {
        const line = reports
          .filter((r) => r.status === 'running' && r.progress && r.progress.total)
          .map((r) => `${path.basename(r.file)} ${r.progress!.done}/${r.progress!.total}`)
          .join(', ');
        if (line && line !== last) io.out(`  importing history: ${line}`);
        last = line;
      },
    });
    printPreview({ ...result, history: { ...result.history, files: [] } }, io);
    printReports(result.historyReports, io);
    io.out(result.message);
    io.out(`Into ${dataDir}.${result.restartRequired.length ? ' Start the bridge to use it (HomeKit comes up under the old bridge’s identity).' : ''}`);
    return result.status === 'imported' ? 0 : result.status === 'partial' ? 3 : 1;
  } catch (err) {
    if (err instanceof AppError) {
      io.err(err.message);
      return 2;
    }
    io.err(`import failed: ${(err as Error).message}`);
    return 1;
  } finally {
    history.stop();
    if (scratch) fs.rmSync(scratch, { recursive: true, force: true });
  }
}
