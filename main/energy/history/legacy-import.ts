import { jsonFailure } from '../../core/import-file.js';
import { fromSigenRow, hasPower, isSigenRow } from '../import/sigen-history.js';
import { parseTime, SAMPLE_FIELDS, type HistorySample } from './sample.js';

/** What happened to a legacy history file at start; shown on GET /api/history/stats. */
export interface LegacyImportReport {
  file: string;
  /** `partial`: some of the file could not be read (see `unreadable` and `error`); the rest was imported. */
  status: 'running' | 'imported' | 'partial' | 'failed';
  /** While running: samples inserted so far and samples to insert (inside retention). */
  progress?: { done: number; total: number };
  /** Samples added (new `t` inside retention). */
  imported?: number;
  /** Samples left out: older than the retention window or already stored. */
  skipped?: number;
  /** Rows found that could not be read (a damaged part of the file). */
  unreadable?: number;
  error?: string;
}

/**
 * A file whose rows carry no power value at all (only times, SOC or temperature) was not written
 * in a layout this bridge understands: it is refused rather than reported "imported".
 */
export function noPowerError(samples: HistorySample[]): string | null {
  return noPowerMessage(samples.length, samples.some(hasPower));
}

/** The same refusal from counts: `rows` read, `anyPower` whether one of them carried a power value. */
export function noPowerMessage(rows: number, anyPower: boolean): string | null {
  if (anyPower) return null;
  return rows
    ? `none of its ${rows} rows carries a power value (solar, grid, battery or home; or sigen-home-bridge's pvPower, gridPower, batteryPower, loadPower): nothing imported`
    : 'it holds no rows: nothing imported';
}

/**
 * Parses a legacy history file: a JSON array of objects, each with a time in `t`, `time` or
 * `timestamp` (epoch ms or ISO 8601) and any of our sample fields (numbers or null; other keys are
 * ignored). Rows written by sigen-home-bridge (`t`, `pvPower`, `gridPower`, `batteryPower`,
 * `batterySoc`, `loadPower`, `outdoorTemp`) are understood too and mapped onto our fields.
 * Throws on the first bad entry, naming it, so a malformed file is never half-imported.
 */
export function parseLegacyHistory(text: string): HistorySample[] {
  let data: unknown;
  try {
    data = JSON.parse(text);
  } catch (err) {
    // Where it fails, never what it says: the file's text is not echoed.
    throw new Error(jsonFailure(err));
  }
  if (!Array.isArray(data)) throw new Error('expected a JSON array of samples');
  return data.map((item: unknown, i) => legacySample(item, i));
}

/** Entry `i` of a legacy history file as a sample; throws naming the entry when it is not one. */
export function legacySample(item: unknown, i: number): HistorySample {
  const values: Array<number | null> = new Array(SAMPLE_FIELDS.length);
  const sample = { t: legacyValues(item, i, values) } as HistorySample;
  SAMPLE_FIELDS.forEach((f, k) => (sample[f] = values[k]!));
  return sample;
}

/**
 * The checks of `legacySample`, writing the entry's values into `values` (SAMPLE_FIELDS order)
 * instead of building a sample; returns its time. (The import reads a large file this way, with no
 * object per row.)
 */
export function legacyValues(item: unknown, i: number, values: Array<number | null>): number {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new Error(`entry ${i}: expected an object`);
  const o = item as Record<string, unknown>;
  if (isSigenRow(o)) {
    const sample = fromSigenRow(o);
    if (!sample) throw new Error(`entry ${i}: a sigen-home-bridge row needs t in epoch ms and numbers or null in its fields`);
    for (let k = 0; k < SAMPLE_FIELDS.length; k++) values[k] = sample[SAMPLE_FIELDS[k]!];
    return sample.t;
  }
  const rawTime = o.t ?? o.time ?? o.timestamp;
  const t = parseTime(rawTime);
  if (t === null) throw new Error(`entry ${i}: missing or unparseable time (t, time or timestamp; epoch ms or ISO 8601)`);
  for (let k = 0; k < SAMPLE_FIELDS.length; k++) {
    const f = SAMPLE_FIELDS[k]!;
    const v = o[f];
    if (v === undefined || v === null) values[k] = null;
    else if (typeof v === 'number' && Number.isFinite(v)) values[k] = v;
    else throw new Error(`entry ${i}: ${f} must be a number or null`);
  }
  return t;
}
