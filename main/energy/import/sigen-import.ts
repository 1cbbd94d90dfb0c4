import fs from 'node:fs';
import path from 'node:path';
import { IMPORT_CAPS, jsonFailure, readImportText } from '../../core/import-file.js';
import type { SettingsStore } from '../../core/settings-store.js';
import type { History } from '../history/index.js';
import type { LegacyImportReport } from '../history/legacy-import.js';
import type { PasscodeHash, PasscodeStore } from '../security/passcode-store.js';
import type { EnergySettings } from '../settings/energy-settings.js';
import { historyJobs, inspectSigenFolder, type SigenFolder } from './sigen-folder.js';
import { previewHistoryOffThread, type PreviewJob } from './preview-thread.js';
import { previewHistoryFile, type HistoryFilePreview, type HistoryFileSummary } from './sigen-preview-file.js';
import { pairedHere, readSigenIdentity, writeSigenIdentity } from './sigen-homekit.js';
import type { Carried, NotCarried } from './carried.js';
import { mapSigenSettings, type SettingsMapping } from './sigen-settings.js';

/** Where an import writes: this bridge's own stores (the running service's, or opened by the CLI). */
export interface ImportTarget {
  settings: SettingsStore<EnergySettings>;
  /** Applies live what a settings change needs (the running service's settings hook). */
  onSettingsChange?(prev: EnergySettings, next: EnergySettings): void;
  passcodes: PasscodeStore;
  /** `<data>/energy/homekit`: the identity file and hap-nodejs' store. */
  homekitDir: string;
  history: Pick<History, 'importFiles'>;
  now(): number;
  /**
   * A running service's HomeKit bridge: `writeItem` stores an item through its hap-nodejs storage,
   * `reload` restarts it under the identity now on disk. Absent (the CLI): used at the next start.
   */
  homekit?: { writeItem(key: string, value: unknown): void; reload(): Promise<void> };
}


export type { HistoryFilePreview };

export interface SigenPreview {
  from: 'sigen-home-bridge';
  dir: string;
  history: { files: HistoryFilePreview[]; retentionDays: number; olderThanRetention: number };
  settings: { found: boolean; carried: Carried[]; changed: string[] };
  passcode: 'carried' | 'kept-ours' | 'none';
  homekit: { username: string; bridgeName: string; pairedControllers: number; replacesPairedHere: number } | null;
  notCarried: NotCarried[];
}

export interface SigenResult extends SigenPreview {
  status: 'imported' | 'partial' | 'failed';
  /** Per history file: imported, skipped (already here or older than retention), unreadable. */
  historyReports: LegacyImportReport[];
  restartRequired: string[];
  message: string;
}

/** Its passcode KDF (security.js): scrypt(passcode, salt as UTF-8 text, N=16384, r=8, p=1, 64 bytes), hex. */
const passcodeHash = (p: { salt: string; hash: string }): PasscodeHash => ({ algorithm: 'scrypt', N: 16384, r: 8, p: 1, salt: p.salt, hash: p.hash.toLowerCase(), encoding: 'text-hex' });

function readSettingsJson(folder: SigenFolder): { raw: unknown; problem: NotCarried | null } {
  if (!folder.settingsFile) return { raw: null, problem: null };
  let text: string;
  try {
    text = readImportText(folder.settingsFile, { inside: folder.dir, maxBytes: IMPORT_CAPS.smallFile }, 'settings.json');
  } catch (err) {
    return { raw: null, problem: { setting: 'settings.json', reason: `not readable (${(err as Error).message}); no settings were carried` } };
  }
  try {
    return { raw: JSON.parse(text), problem: null };
  } catch (err) {
    // Where it fails, never what it says: the file's text is not echoed.
    return { raw: null, problem: { setting: 'settings.json', reason: `not readable (${jsonFailure(err)}); no settings were carried` } };
  }
}

function plan(folder: SigenFolder, target: ImportTarget) {
  const { raw, problem } = readSettingsJson(folder);
  const mapping: SettingsMapping | null = raw === null ? null : mapSigenSettings(raw, target.settings.get());
  const notCarried: NotCarried[] = [...(problem ? [problem] : []), ...(mapping?.notCarried ?? [])];
  const pin = mapping?.next.homekit.pin ?? null;
  const ids = folder.hapPersist ? readSigenIdentity(folder.dir, raw === null ? null : pin) : { identity: null, problems: [], others: 0 };
  for (const p of ids.problems) notCarried.push({ setting: p.split(':')[0]!, reason: `not readable (${p.slice(p.indexOf(':') + 2)})` });
  if (ids.others > 0) notCarried.push({ setting: 'hap-persist (older identities)', reason: `${ids.others} HomeKit ${ids.others === 1 ? 'identity' : 'identities'} left from earlier setup codes, with no Home app paired under the saved code: only the current one is carried` });
  if (folder.hapPersist && !ids.identity && !ids.problems.length) notCarried.push({ setting: 'hap-persist', reason: 'no HomeKit identity for its saved setup code and none with a paired Home app: nothing to carry (pair the Home app with this bridge)' });
  let passcode: SigenPreview['passcode'] = 'none';
  const hash = mapping?.passcode ? passcodeHash(mapping.passcode) : null;
  if (hash) passcode = target.passcodes.isSet && !target.passcodes.holds(hash) ? 'kept-ours' : 'carried';
  if (passcode === 'kept-ours') notCarried.push({ setting: 'security.passcode', reason: 'this bridge already has a settings passcode: it was kept (its own passcode still unlocks here, not the old one)' });
  return { mapping, notCarried, identity: ids.identity, passcode, hash };
}

/**
 * What an import of `dir` would bring, without writing anything anywhere. `historyDetail: false`
 * skips reading the history files (the import's own reports tell about them).
 */
export function previewSigenImport(dir: unknown, target: ImportTarget, opts: { extraHistoryFiles?: string[]; historyDetail?: boolean } = {}): SigenPreview {
  const folder = inspectSigenFolder(dir);
  const p = plan(folder, target);
  const { jobs, cutoff } = previewJobs(folder, p, target, opts.extraHistoryFiles);
  return previewFolder(folder, p, target, opts.historyDetail === false ? [] : jobs.map(({ job, field }) => previewHistoryFile(job, cutoff, field)));
}

/** The history files to summarise, each with the field a refusal names, and the retention cutoff. */
function previewJobs(folder: SigenFolder, p: ReturnType<typeof plan>, target: ImportTarget, extra: string[] | undefined): { jobs: PreviewJob[]; cutoff: number } {
  const retentionDays = (p.mapping?.next ?? target.settings.get()).history.retentionDays;
  const inFolder = historyJobs(folder).length;
  return {
    jobs: historyJobs(folder, extra).map((job, i) => ({ job, field: i < inFolder ? 'dir' : `historyFiles.${i - inFolder}` })),
    cutoff: target.now() - retentionDays * 86_400_000,
  };
}

/**
 * The same preview for a request: the history files are read on a thread of their own within a
 * time budget and a heap limit (preview-thread.ts), so the service keeps answering meanwhile.
 */
export async function previewSigenImportOffThread(dir: unknown, target: ImportTarget, opts: { extraHistoryFiles?: string[]; budget?: { ms: number; heapMb: number } } = {}): Promise<SigenPreview> {
  const folder = inspectSigenFolder(dir);
  const p = plan(folder, target);
  const { jobs, cutoff } = previewJobs(folder, p, target, opts.extraHistoryFiles);
  return previewFolder(folder, p, target, await previewHistoryOffThread(jobs, cutoff, opts.budget));
}

function previewFolder(folder: SigenFolder, p: ReturnType<typeof plan>, target: ImportTarget, files: HistoryFileSummary[]): SigenPreview {
  const retentionDays = (p.mapping?.next ?? target.settings.get()).history.retentionDays;
  // Counted on the first file (its durable database; its legacy JSON repeats those rows).
  const olderThanRetention = files[0]?.older ?? 0;
  return {
    from: 'sigen-home-bridge',
    dir: folder.dir,
    history: { files: files.map(({ older: _older, ...f }) => f), retentionDays, olderThanRetention },
    settings: { found: p.mapping !== null, carried: p.mapping?.carried ?? [], changed: p.mapping?.changed ?? [] },
    passcode: p.passcode,
    homekit: p.identity
      ? { username: p.identity.username, bridgeName: p.mapping?.next.homekit.bridgeName ?? p.identity.displayName, pairedControllers: p.identity.pairedControllers, replacesPairedHere: replacedPairings(target, p.identity.username) }
      : null,
    notCarried: p.notCarried,
  };
}

function replacedPairings(target: ImportTarget, username: string): number {
  try {
    const current = JSON.parse(fs.readFileSync(path.join(target.homekitDir, 'identity.json'), 'utf8')) as { username?: string };
    return current.username === username ? 0 : pairedHere(target.homekitDir);
  } catch {
    return 0;
  }
}

/**
 * Imports a sigen-home-bridge data folder into this bridge: settings (validated, applied live where
 * they apply live), its passcode (when none is set here), its HomeKit identity (used when the
 * HomeKit bridge next starts) and every history row (in the background worker, `onProgress` sees
 * each file's progress). Reads the folder only. Importing twice gives the same result as once.
 */
export async function runSigenImport(
  dir: unknown,
  target: ImportTarget,
  opts: { extraHistoryFiles?: string[]; onProgress?: (reports: LegacyImportReport[]) => void } = {},
): Promise<SigenResult> {
  const folder = inspectSigenFolder(dir);
  const p = plan(folder, target);
  const preview = previewFolder(folder, p, target, []);
  const restartRequired: string[] = [];

  if (p.mapping) {
    const prev = target.settings.get();
    const next = target.settings.replace(p.mapping.next);
    target.onSettingsChange?.(prev, next);
    for (const f of ['homekit', 'general.serverPort'] as const) {
      const before = f === 'homekit' ? prev.homekit : prev.general.serverPort;
      const after = f === 'homekit' ? next.homekit : next.general.serverPort;
      if (JSON.stringify(before) !== JSON.stringify(after)) restartRequired.push(f);
    }
  }
  if (p.passcode === 'carried' && p.hash) target.passcodes.adopt(p.hash);
  if (p.identity) {
    const before = replacedPairings(target, p.identity.username);
    writeSigenIdentity(target.homekitDir, p.identity, target.homekit?.writeItem);
    if (!restartRequired.includes('homekit')) restartRequired.push('homekit');
    if (before > 0) preview.notCarried.push({ setting: 'HomeKit (this bridge)', reason: `${before} Home app pairing${before === 1 ? '' : 's'} made with this bridge before the import belong to its previous identity: pair ${before === 1 ? 'it' : 'them'} again` });
  }

  // A running bridge comes up under the imported identity and settings now: nothing waits for a restart.
  if (target.homekit && restartRequired.includes('homekit')) {
    await target.homekit.reload();
    restartRequired.splice(restartRequired.indexOf('homekit'), 1);
  }
  const retentionMs = target.settings.get().history.retentionDays * 86_400_000;
  const jobs = historyJobs(folder, opts.extraHistoryFiles);
  const historyReports = jobs.length ? await target.history.importFiles(jobs, opts.onProgress, target.now() - retentionMs) : [];
  const failed = historyReports.filter((r) => r.status === 'failed');
  const partial = historyReports.filter((r) => r.status === 'partial');
  const anyHistory = historyReports.some((r) => r.status === 'imported' || r.status === 'partial');
  const status: SigenResult['status'] =
    jobs.length && !anyHistory && !p.mapping ? 'failed' : failed.length || partial.length || (jobs.length > 0 && !anyHistory) ? 'partial' : 'imported';
  const rows = historyReports.reduce((n, r) => n + (r.imported ?? 0), 0);
  const message =
    status === 'failed'
      ? `Nothing could be imported from ${folder.dir}: ${failed.map((r) => `${path.basename(r.file)}: ${r.error}`).join('; ')}`
      : `${status === 'imported' ? 'Imported' : 'Imported in part'} from ${folder.dir}: ${rows} history rows added${p.mapping ? `, ${p.mapping.carried.length} settings carried` : ''}${p.passcode === 'carried' ? ', its passcode' : ''}${p.identity ? `, its HomeKit identity (${p.identity.pairedControllers} paired Home app${p.identity.pairedControllers === 1 ? '' : 's'})` : ''}.${[...failed, ...partial].map((r) => ` ${path.basename(r.file)}: ${r.error}`).join('')}`;
  return { ...preview, status, historyReports, restartRequired, message };
}
