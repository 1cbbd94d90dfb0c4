import { SIGEN_FIELD_OF, SIGEN_FIELDS, SIGEN_POWER_FIELDS } from '../import/sigen-history.js';
import type { SourceCounts } from './import-sql.js';
import { readJsonArray, type JsonArrayBatch } from './json-array-stream.js';
import { legacyValues } from './legacy-import.js';
import { POWER_FIELDS, SAMPLE_FIELDS } from './sample.js';

/**
 * What reading a JSON history file found: the counts any import source gives (a repeated `t`
 * counted each time; `unreadable` is for sigen-home-bridge's file only, a legacy file fails on its
 * first bad entry), and how far the file has been read.
 */
export interface JsonRowCounts extends SourceCounts {
  /** Bytes of the file read so far (progress). */
  bytes: number;
}

/** Where the readable rows go: `t`, then one value per SAMPLE_FIELDS (null or a finite number). */
export interface RowSink {
  push(t: number, values: ArrayLike<number | null>): void;
}

/**
 * Reads a JSON history file (a JSON array, read a window at a time: json-array-stream.ts), checks
 * each entry and hands the readable rows at or after `cutoff` to `sink`, in the file's order;
 * `counts` is kept up to date as it goes (read it after each push or at the end).
 * - `legacy-json` (our own history file): the first bad entry throws, naming it.
 * - `sigen-json` (sigen-home-bridge's history.json): its rows' fields under our names
 *   (`fromSigenRow`'s rules); entries that are not readable rows are counted.
 * Throws JsonArrayError when the file is not one JSON array.
 */
export function readJsonRows(file: string, format: 'legacy-json' | 'sigen-json', cutoff: number, sink: RowSink, counts: JsonRowCounts = { rows: 0, withPower: 0, inRetention: 0, unreadable: 0, bytes: 0 }): JsonRowCounts {
  const take = jsonRowTaker(format, cutoff, sink, counts);
  for (const batch of readJsonArray(file)) take(batch);
  return counts;
}

/** readJsonRows one batch at a time (readJsonArray's), for a reader that stops where it likes. */
export function jsonRowTaker(format: 'legacy-json' | 'sigen-json', cutoff: number, sink: RowSink, counts: JsonRowCounts): (batch: JsonArrayBatch) => void {
  const values: Array<number | null> = SAMPLE_FIELDS.map(() => null);
  const keep = (t: number, power: boolean) => {
    counts.rows++;
    if (power) counts.withPower++;
    if (t < cutoff) return;
    counts.inRetention++;
    sink.push(t, values);
  };
  const powerAt = SAMPLE_FIELDS.map((f) => (POWER_FIELDS as readonly string[]).includes(f));
  const putSample = (item: unknown, index: number) => {
    const t = legacyValues(item, index, values);
    let power = false;
    for (let i = 0; i < values.length; i++) if (powerAt[i] && values[i] !== null) power = true;
    keep(t, power);
  };
  const sigenAt = SIGEN_FIELDS.map((f) => SAMPLE_FIELDS.indexOf(SIGEN_FIELD_OF[f]));
  const sigenPower = SIGEN_FIELDS.map((f) => SIGEN_POWER_FIELDS.includes(f));
  /** A sigen-home-bridge row straight into its fields (no object built); false when it is not readable. */
  const putSigen = (o: unknown): boolean => {
    if (typeof o !== 'object' || o === null || Array.isArray(o)) return false;
    const row = o as Record<string, unknown>;
    const t = row.t;
    if (typeof t !== 'number' || !Number.isSafeInteger(t)) return false;
    // Its fields only, each written over the last row's (the others stay null): clearing all ten
    // with Array.prototype.fill first cost 0.15 s a week of rows.
    let power = false;
    for (let k = 0; k < SIGEN_FIELDS.length; k++) {
      const v = row[SIGEN_FIELDS[k]!];
      if (v === undefined || v === null) values[sigenAt[k]!] = null;
      else if (typeof v !== 'number' || !Number.isFinite(v)) return false;
      else {
        values[sigenAt[k]!] = v;
        if (sigenPower[k]) power = true;
      }
    }
    keep(t, power);
    return true;
  };
  return (batch) => {
    if (format === 'legacy-json' && batch.bad.length) throw new Error(`entry ${batch.bad[0]!.index}: not valid JSON (${batch.bad[0]!.message})`);
    const bad = batch.bad.length ? new Set(batch.bad.map((b) => b.index)) : null;
    const { items, first } = batch;
    for (let k = 0; k < items.length; k++) {
      if (bad?.has(first + k)) counts.unreadable++;
      else if (format === 'legacy-json') putSample(items[k], first + k);
      else if (!putSigen(items[k])) counts.unreadable++;
    }
    counts.bytes = batch.end;
  };
}
