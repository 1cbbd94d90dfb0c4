import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { IMPORT_CAPS, ImportFileRefused, copyImportFile, importFileProblem, jsonFailure } from '../../core/import-file.js';
import { POWER_FIELDS, SAMPLE_FIELDS, type HistorySample } from '../history/sample.js';

/**
 * sigen-home-bridge's history rows: `t` (epoch ms) and `pvPower`, `gridPower`, `batteryPower`,
 * `loadPower` (W), `batterySoc` (%), `outdoorTemp` (in the unit its weather setting asked for).
 * Its signs are ours (its tariff prices `gridPower >= 0` as import; its estimate reads
 * `batteryPower > 0` as charging), so each value carries over unchanged:
 */
export const SIGEN_FIELD_OF = {
  pvPower: 'solar',
  gridPower: 'grid',
  batteryPower: 'battery',
  loadPower: 'home',
  batterySoc: 'soc',
  outdoorTemp: 'outdoorTemp',
} as const;

export type SigenField = keyof typeof SIGEN_FIELD_OF;
export const SIGEN_FIELDS = Object.keys(SIGEN_FIELD_OF) as SigenField[];
/** Its power fields: a row with none of them set carries no power value. */
export const SIGEN_POWER_FIELDS: SigenField[] = ['pvPower', 'gridPower', 'batteryPower', 'loadPower'];

/** What reading one source gave: the samples, and what could not be read. */
export interface SourceRead {
  samples: HistorySample[];
  /** Rows (or entries) that were found but could not be read: bad time, bad values, damaged pages. */
  unreadable: number;
  /** Rows read that carry no power value at all (only a time, SOC or temperature). */
  withoutPower: number;
  /** Why part of the source could not be read; null when all of it was. */
  damage: string | null;
}

const finite = (v: unknown): number | null | undefined => (v === null || v === undefined ? null : typeof v === 'number' && Number.isFinite(v) ? v : undefined);

/** One sigen-home-bridge row as our sample; null when its time or a value is not a number. */
export function fromSigenRow(row: Record<string, unknown>): HistorySample | null {
  const t = row.t;
  if (typeof t !== 'number' || !Number.isSafeInteger(t)) return null;
  const sample = { t } as HistorySample;
  for (const f of SAMPLE_FIELDS) sample[f] = null;
  for (const f of SIGEN_FIELDS) {
    const v = finite(row[f]);
    if (v === undefined) return null;
    sample[SIGEN_FIELD_OF[f]] = v;
  }
  return sample;
}

export const hasPower = (s: HistorySample): boolean => POWER_FIELDS.some((f) => s[f] !== null);

/** True when an object looks like a sigen-home-bridge row (its field names, not ours). */
export const isSigenRow = (o: Record<string, unknown>): boolean => 't' in o && SIGEN_POWER_FIELDS.some((f) => f in o);

function collect(rows: Iterable<Record<string, unknown>>, out: SourceRead): void {
  for (const row of rows) {
    const s = fromSigenRow(row);
    if (!s) {
      out.unreadable++;
      continue;
    }
    if (!hasPower(s)) out.withoutPower++;
    out.samples.push(s);
  }
}

const PAGE = 2000;
/** Rows per page of the forward read (the common, undamaged case). */
const FORWARD_PAGE = 10_000;

/**
 * Rows read as arrays `[t, ...SIGEN_FIELDS]` (the fast forward read): the same checks and mapping
 * as `fromSigenRow`, each sample built as one literal in SAMPLE_FIELDS order.
 */
function collectRaw(rows: unknown[][], out: SourceRead): void {
  for (const row of rows) {
    const t = row[0];
    const solar = finite(row[1]);
    const grid = finite(row[2]);
    const battery = finite(row[3]);
    const home = finite(row[4]);
    const soc = finite(row[5]);
    const outdoorTemp = finite(row[6]);
    if (typeof t !== 'number' || !Number.isSafeInteger(t) || solar === undefined || grid === undefined || battery === undefined || soc === undefined || home === undefined || outdoorTemp === undefined) {
      out.unreadable++;
      continue;
    }
    const sample: HistorySample = { t, solar, solarNative: null, solarThirdParty: null, home, homeGeneral: null, smartPort: null, grid, battery, soc, outdoorTemp };
    if (solar === null && grid === null && battery === null && home === null) out.withoutPower++;
    out.samples.push(sample);
  }
}

/**
 * Copies its `history.db` (and its `-wal`, which may hold the newest rows) into the folder `tmp`,
 * so SQLite never creates or changes a file beside the original; returns the copy's path.
 */
export function copySigenDb(file: string, tmp: string): string {
  const copy = path.join(tmp, 'history.db');
  // Regular files only, each capped: a FIFO or device named history.db(-wal) is refused, not read.
  copyImportFile(file, copy, { maxBytes: IMPORT_CAPS.database }, path.basename(file));
  if (fs.lstatSync(`${file}-wal`, { throwIfNoEntry: false })) {
    const problem = importFileProblem(`${file}-wal`, { inside: path.dirname(file), maxBytes: IMPORT_CAPS.database });
    if (problem) throw new ImportFileRefused(`${path.basename(file)}-wal ${problem}`);
    fs.copyFileSync(`${file}-wal`, `${copy}-wal`);
  }
  // A copy of a read-only file is read-only too: SQLite could not fold its WAL in to read it.
  fs.chmodSync(copy, 0o600);
  if (fs.existsSync(`${copy}-wal`)) fs.chmodSync(`${copy}-wal`, 0o600);
  return copy;
}

/**
 * Reads every row of its `history.db` without touching its folder: the database (and its `-wal`,
 * which may hold the newest rows) is copied to a temporary folder and opened read-only there, so
 * SQLite never creates or changes a file beside the original. Rows are read in pages by time;
 * when a page is damaged, the rest is read backwards from the newest row, so a file damaged in the
 * middle still gives everything on either side of the damage.
 */
export function readSigenDb(file: string): SourceRead {
  const out: SourceRead = { samples: [], unreadable: 0, withoutPower: 0, damage: null };
  for (const page of sigenDbPages(file, out)) for (const s of page) out.samples.push(s);
  return out;
}

/**
 * The same read a page at a time (at most 10,000 samples held): `out` gathers the counts and the
 * damage but not the samples; `onCount` hears the table's row count first when it can be read.
 */
/**
 * Why the database's `samples` cannot be read as its history: missing, or not a plain table (a view
 * or anything else could run any query, for as long as it likes). Null when it is a table.
 */
export function samplesTableProblem(db: Database.Database): string | null {
  const type = db.prepare(`SELECT type FROM sqlite_master WHERE name = 'samples' COLLATE NOCASE`).pluck().get() as string | undefined;
  if (type === undefined) return 'has no "samples" table';
  return type === 'table' ? null : `has a "samples" ${type}, not a table: refused`;
}

export function* sigenDbPages(file: string, out: SourceRead, onCount?: (rows: number) => void): Generator<HistorySample[]> {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sigen-history-'));
  let db: Database.Database | null = null;
  const page = (collectRows: (into: SourceRead) => void): HistorySample[] => {
    const into: SourceRead = { samples: [], unreadable: 0, withoutPower: 0, damage: null };
    collectRows(into);
    out.unreadable += into.unreadable;
    out.withoutPower += into.withoutPower;
    return into.samples;
  };
  try {
    const copy = copySigenDb(file, tmp);
    try {
      db = new Database(copy, { fileMustExist: true });
      db.pragma('query_only = ON');
      const notTable = samplesTableProblem(db);
      if (notTable) {
        out.damage = `history.db ${notTable}`;
        return;
      }
      const columns = new Set((db.prepare('SELECT name FROM pragma_table_info(?)').pluck().all('samples') as string[]));
      if (!columns.has('t') || !SIGEN_POWER_FIELDS.some((f) => columns.has(f))) {
        out.damage = 'no "samples" table with sigen-home-bridge columns (t, pvPower, gridPower, batteryPower, batterySoc, loadPower, outdoorTemp)';
        return;
      }
      try {
        onCount?.(db.prepare('SELECT count(*) FROM samples').pluck().get() as number);
      } catch {
        // a damaged file: the count is not needed to read what can be read
      }
      const select = SIGEN_FIELDS.map((f) => (columns.has(f) ? f : `NULL AS ${f}`)).join(', ');
      // Large pages while the file reads cleanly; a page that fails is read again in small ones,
      // so every row before the damage is still kept.
      const forwardLarge = db.prepare(`SELECT t, ${select} FROM samples WHERE t > ? ORDER BY t LIMIT ${FORWARD_PAGE}`).raw();
      const forwardSmall = db.prepare(`SELECT t, ${select} FROM samples WHERE t > ? ORDER BY t LIMIT ${PAGE}`).raw();
      let large = true;
      const backward = db.prepare(`SELECT t, ${select} FROM samples WHERE t < ? ORDER BY t DESC LIMIT ${PAGE}`);
      let last = Number.MIN_SAFE_INTEGER;
      try {
        for (;;) {
          let rows: unknown[][];
          try {
            rows = (large ? forwardLarge : forwardSmall).all(last) as unknown[][];
          } catch (err) {
            if (!large) throw err;
            large = false;
            continue;
          }
          if (!rows.length) return;
          last = rows.at(-1)![0] as number;
          yield page((into) => collectRaw(rows, into));
        }
      } catch (err) {
        out.damage = `damaged after the row at t=${last}: ${(err as Error).message}`;
      }
      // Salvage the rows after the damage, newest first, down to what was already read.
      const tail: Array<Record<string, unknown>> = [];
      let first = Number.MAX_SAFE_INTEGER;
      try {
        for (;;) {
          const rows = backward.all(first) as Array<Record<string, unknown>>;
          const fresh = rows.filter((r) => (r.t as number) > last);
          tail.push(...fresh);
          if (fresh.length < rows.length || !rows.length) break;
          first = rows.at(-1)!.t as number;
        }
      } catch {
        // the damage again, from the other side: everything readable is in hand
      }
      yield page((into) => collect(tail.reverse(), into));
    } catch (err) {
      out.damage = `not readable as SQLite: ${(err as Error).message}`;
    }
  } finally {
    db?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}

/**
 * Reads its legacy `history.json` (a JSON array of rows). A damaged file (cut short, or with a bad
 * entry) still gives every whole row object found in it; the rest is counted and described.
 */
export function readSigenJson(text: string): SourceRead {
  const out: SourceRead = { samples: [], unreadable: 0, withoutPower: 0, damage: null };
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    out.damage = `${jsonFailure(err)}; the whole rows before and after the damage were read`;
    const salvaged = salvageObjects(text);
    out.unreadable += salvaged.broken;
    collect(salvaged.rows, out);
    return out;
  }
  if (!Array.isArray(data)) {
    out.damage = 'expected a JSON array of history rows';
    return out;
  }
  const rows: Array<Record<string, unknown>> = [];
  for (const item of data) {
    if (typeof item === 'object' && item !== null && !Array.isArray(item)) rows.push(item as Record<string, unknown>);
    else out.unreadable++;
  }
  collect(rows, out);
  if (out.unreadable) out.damage = `${out.unreadable} entries are not readable rows`;
  return out;
}

/** Every top-level `{...}` inside the outer array that parses as JSON; `broken` counts the others. */
function salvageObjects(text: string): { rows: Array<Record<string, unknown>>; broken: number } {
  const rows: Array<Record<string, unknown>> = [];
  let broken = 0;
  let depth = 0;
  let start = -1;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
      continue;
    }
    if (c === '"') inString = true;
    else if (c === '{') {
      if (depth === 0) start = i;
      depth++;
    } else if (c === '}' && depth > 0) {
      depth--;
      if (depth === 0) {
        try {
          rows.push(JSON.parse(text.slice(start, i + 1)) as Record<string, unknown>);
        } catch {
          broken++;
        }
      }
    }
  }
  if (depth > 0) broken++; // a row cut off at the end
  return { rows, broken };
}

/** Row count, time span and rows before `cutoff` of its `history.db`, by SQL on a temporary copy. */
export function summarizeSigenDb(file: string, cutoff: number): { rows: number; firstT: number | null; lastT: number | null; older: number; unreadable: number; withoutPower: number; damage: string | null } {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'sigen-summary-'));
  try {
    const copy = copySigenDb(file, tmp);
    const db = new Database(copy, { fileMustExist: true });
    try {
      const notTable = samplesTableProblem(db);
      if (notTable) throw new ImportFileRefused(`history.db ${notTable}`);
      const row = db.prepare('SELECT count(*) AS rows, min(t) AS firstT, max(t) AS lastT, count(CASE WHEN t < ? THEN 1 END) AS older, count(CASE WHEN pvPower IS NULL AND gridPower IS NULL AND batteryPower IS NULL AND loadPower IS NULL THEN 1 END) AS withoutPower FROM samples').get(cutoff) as {
        rows: number;
        firstT: number | null;
        lastT: number | null;
        older: number;
        withoutPower: number;
      };
      return { ...row, unreadable: 0, damage: null };
    } finally {
      db.close();
    }
  } catch (err) {
    if (err instanceof ImportFileRefused) throw err;
    // Damaged: read what can be read, row by row.
    const read = readSigenDb(file);
    const ts = read.samples.map((s) => s.t);
    return {
      rows: read.samples.length,
      firstT: ts.length ? Math.min(...ts) : null,
      lastT: ts.length ? Math.max(...ts) : null,
      older: ts.filter((t) => t < cutoff).length,
      unreadable: read.unreadable,
      withoutPower: read.withoutPower,
      damage: read.damage,
    };
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
}
