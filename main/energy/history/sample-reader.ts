import fs from 'node:fs';
import Database from 'better-sqlite3';
import type { PowerSample } from '../tariff/ledger.js';
import { localMinute, nextDate, startOfLocalDay } from '../tariff/local-time.js';

/** `fn` on a separate read-only connection to the history file (WAL lets it read beside the writer); `none` without the file. */
function withHistoryDb<T>(file: string, none: T, fn: (db: Database.Database) => T): T {
  if (!fs.existsSync(file)) return none;
  const db = new Database(file, { readonly: true, fileMustExist: true });
  try {
    db.pragma('busy_timeout = 5000');
    return fn(db);
  } finally {
    db.close();
  }
}

/**
 * Reads the powers of stored polls in `[from, to)`, oldest first, calling `each` per row (memory
 * stays bounded). Used to rebuild today's cost and the daily totals after a restart.
 */
export function readPowerSamples(file: string, from: number, to: number, each: (s: PowerSample) => void): number {
  return withHistoryDb(file, 0, (db) => {
    let n = 0;
    for (const row of db.prepare('SELECT t, solar, home, grid, battery FROM samples WHERE t >= ? AND t < ? ORDER BY t').iterate(from, to) as Iterable<PowerSample>) {
      each(row);
      n++;
    }
    return n;
  });
}

/**
 * Where a per-day table's read-back starts: the first local day from the oldest stored poll on
 * that the table lacks, else today (so today's running totals come back).
 */
export function firstMissingDay(historyFile: string, now: number, timeZone: string, has: (date: string) => boolean): { date: string; at: number } {
  const first = withHistoryDb(historyFile, null, (db) => (db.prepare('SELECT min(t) FROM samples').pluck().get() as number | null) ?? null);
  const today = localMinute(now, timeZone).date;
  let date = first === null ? today : localMinute(first, timeZone).date;
  while (date < today && has(date)) date = nextDate(date);
  if (date > today) date = today;
  return { date, at: startOfLocalDay(date, timeZone) };
}

/**
 * Replays the stored polls into a per-day ledger from the first local day a day table lacks (from
 * the oldest poll on; today when none is missing) up to now, at once (a reload; a start reads back
 * in batches, see replay.ts). Returns how many polls were fed and the day the replay began.
 */
export function replayMissingDays(o: { historyFile: string; now: number; timeZone: string; has(date: string): boolean; feed(p: PowerSample): void }): { polls: number; from: string } {
  const from = firstMissingDay(o.historyFile, o.now, o.timeZone, o.has);
  return { polls: readPowerSamples(o.historyFile, from.at, o.now + 1, o.feed), from: from.date };
}
