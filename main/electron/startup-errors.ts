import { CannotListenError } from '../core/startup.js';
import type { ServiceFailure } from '../compose.js';

/** What the start-up dialog says about a service that could not start. */
export interface StartupProblem {
  title: string;
  /** The cause, in one sentence naming the service and the port or path. */
  message: string;
  /** The setting to change, and what keeps working meanwhile. */
  detail: string;
}

const SERVICE_NAMES: Record<ServiceFailure['service'], string> = {
  energy: 'The energy bridge',
  recordings: 'The recording sync',
};

/** The file settings that move each service's data. */
const DATA_SETTINGS: Record<ServiceFailure['service'], string> = {
  energy: 'DATA_DIR',
  recordings: 'DB_PATH (or DATA_DIR)',
};

const FS_CODES: Record<string, string> = {
  EACCES: 'permission denied',
  EPERM: 'operation not permitted',
  EROFS: 'the disk is read-only',
  ENOTDIR: 'part of the path is a file, not a folder',
  EISDIR: 'the path is a folder, not a file',
  ENOSPC: 'the disk is full',
  ENOENT: 'the path does not exist',
  EEXIST: 'a file is in the way',
};

/**
 * Turns a start-up failure into the dialog text: the cause naming the port or path, and the
 * setting (environment variable) that fixes it. Electron-free so it is tested as plain code.
 */
export function describeStartupFailure(failure: ServiceFailure): StartupProblem {
  const name = SERVICE_NAMES[failure.service];
  const other = failure.service === 'energy' ? 'recording sync' : 'energy bridge';
  const title = `${name} could not start`;
  const keepsRunning = `The ${other} keeps running. Restart the app after the change.`;
  const err = failure.error as (Error & { code?: unknown; path?: unknown }) | undefined;
  const text = err instanceof Error ? err.message : String(failure.error);

  if (failure.error instanceof CannotListenError) {
    // The error's own line names the port (or address) and the setting that moves it.
    return { title, message: capitalise(text), detail: keepsRunning };
  }
  if (/NODE_MODULE_VERSION|compiled against a different Node\.js version|was compiled against/i.test(text)) {
    return {
      title,
      message: `${name} cannot open its database: the database module (better-sqlite3) is built for Node.js, not for Electron.`,
      detail: `Run "npm run native:electron" (needs the network once), then start the app again. ${keepsRunning}`,
    };
  }
  if (typeof err?.code === 'string' && err.code in FS_CODES) {
    const where = typeof err.path === 'string' ? ` ${err.path}` : '';
    return {
      title,
      message: `${name} cannot use its data folder: cannot read or write${where} (${FS_CODES[err.code]}).`,
      detail: `Fix the folder's permissions or set ${DATA_SETTINGS[failure.service]} to a folder you can write. ${keepsRunning}`,
    };
  }
  if (typeof err?.code === 'string' && /^SQLITE_(CANTOPEN|READONLY|NOTADB|CORRUPT|PERM|IOERR)/.test(err.code)) {
    return {
      title,
      message: `${name} cannot open its database file (${err.code}: ${text}).`,
      detail: `Set ${DATA_SETTINGS[failure.service]} to a writable location, or restore the file from a backup. ${keepsRunning}`,
    };
  }
  if (/CSRF_SECRET/.test(text)) {
    return { title, message: `${title}: ${text}`, detail: `Set CSRF_SECRET in the environment. ${keepsRunning}` };
  }
  return { title, message: `${title}: ${text}`, detail: `See the log for details. ${keepsRunning}` };
}

const capitalise = (s: string) => (s ? s[0]!.toUpperCase() + s.slice(1) : s);
