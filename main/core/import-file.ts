import fs from 'node:fs';
import { realPathInside } from './real-path.js';

/**
 * What an importer may read (issue 37 item 4): only regular files, inside the folder it was given
 * (a symlink may point within it, never out of it), each no larger than a cap. The reasons are
 * plain words for an answer: never the file's contents, never a raw filesystem error.
 */

export interface ImportFileRules {
  /** The folder the caller chose: the file's real path must lie inside it. Absent: a file the caller named itself. */
  inside?: string;
  /** The most bytes this kind of file may have. */
  maxBytes: number;
}

const MiB = 1024 * 1024;
export const IMPORT_CAPS = {
  /** settings.json, identity and pairing files, fetcharr's comskip.ini. */
  smallFile: 4 * MiB,
  /** A legacy history.json (read whole by the preview). */
  historyJson: 512 * MiB,
  /** An SQLite file and its -wal (copied before it is opened). */
  database: 4096 * MiB,
} as const;

const size = (n: number) => (n >= MiB ? `${Math.round(n / MiB)} MB` : `${Math.round(n / 1024)} KB`);

/** Refused by an import, with a reason safe to show. */
export class ImportFileRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ImportFileRefused';
  }
}

function kindOf(st: fs.Stats): string {
  if (st.isDirectory()) return 'a folder';
  if (st.isFIFO()) return 'a FIFO (named pipe)';
  if (st.isCharacterDevice() || st.isBlockDevice()) return 'a device file';
  if (st.isSocket()) return 'a socket';
  return 'not a regular file';
}

/** Why `file` may not be read, or null when it may. Never follows it anywhere it is not allowed to go. */
export function importFileProblem(file: string, rules: ImportFileRules): string | null {
  let st: fs.Stats;
  try {
    st = fs.lstatSync(file);
  } catch {
    return 'is missing or cannot be read';
  }
  if (rules.inside !== undefined && !realPathInside(rules.inside, file)) return 'leads outside the chosen folder (a symbolic link): not read';
  if (st.isSymbolicLink()) {
    try {
      st = fs.statSync(file);
    } catch {
      return 'is a symbolic link that leads nowhere';
    }
  }
  if (!st.isFile()) return `is ${kindOf(st)}, not a regular file: not read`;
  if (st.size > rules.maxBytes) return `is larger than ${size(rules.maxBytes)}, the most an import reads`;
  return null;
}

/** True when `file` may be read under `rules`. */
export const importFileOk = (file: string, rules: ImportFileRules) => importFileProblem(file, rules) === null;

/**
 * Reads `file` whole after the checks, and checks again on the open handle (a FIFO or device swapped
 * in after the check never blocks nor streams forever: opened non-blocking, read at most the cap).
 * Throws `ImportFileRefused` with `label` and a plain reason.
 */
export function readImportFile(file: string, rules: ImportFileRules, label: string): Buffer {
  const problem = importFileProblem(file, rules);
  if (problem) throw new ImportFileRefused(`${label} ${problem}`);
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | (fs.constants.O_NONBLOCK ?? 0));
  } catch {
    throw new ImportFileRefused(`${label} cannot be opened`);
  }
  try {
    const st = fs.fstatSync(fd);
    if (!st.isFile()) throw new ImportFileRefused(`${label} is ${kindOf(st)}, not a regular file: not read`);
    if (st.size > rules.maxBytes) throw new ImportFileRefused(`${label} is larger than ${size(rules.maxBytes)}, the most an import reads`);
    const buf = Buffer.alloc(st.size);
    let off = 0;
    while (off < buf.length) {
      const n = fs.readSync(fd, buf, off, buf.length - off, off);
      if (n === 0) break;
      off += n;
    }
    return buf.subarray(0, off);
  } catch (err) {
    if (err instanceof ImportFileRefused) throw err;
    throw new ImportFileRefused(`${label} cannot be read`);
  } finally {
    fs.closeSync(fd);
  }
}

/** The same, as UTF-8 text. */
export const readImportText = (file: string, rules: ImportFileRules, label: string) => readImportFile(file, rules, label).toString('utf8');

/**
 * Copies `file` to `dest` (a private scratch file) after the same checks: how an SQLite file and its
 * -wal are read without SQLite touching the original's folder.
 */
export function copyImportFile(file: string, dest: string, rules: ImportFileRules, label: string, mode?: number): void {
  const problem = importFileProblem(file, rules);
  if (problem) throw new ImportFileRefused(`${label} ${problem}`);
  try {
    fs.copyFileSync(file, dest, mode);
  } catch {
    throw new ImportFileRefused(`${label} cannot be read`);
  }
}

/**
 * An import failure in words safe to answer with: a system error (ENOENT, EACCES, EISDIR… whose
 * text names the path and the call) becomes a plain sentence; other messages are the importer's own.
 */
export function plainReason(err: unknown): string {
  const e = err as { code?: unknown; message?: unknown } | null;
  if (e && typeof e.code === 'string' && /^E[A-Z]+$/.test(e.code)) return 'cannot be read (missing, not readable, or not a regular file)';
  return typeof e?.message === 'string' && e.message ? e.message : 'cannot be read';
}

/** A JSON parse failure in plain words: where, never what (the message of JSON.parse quotes the text). */
export function jsonFailure(err: unknown): string {
  const m = /position (\d+)/.exec(String((err as Error)?.message ?? ''));
  return m ? `not valid JSON (at character ${m[1]})` : 'not valid JSON';
}
