import { fromSigenRow, isSigenRow } from '../import/sigen-history.js';
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
 * Why a file whose `rows` carry no power value at all (only times, SOC or temperature) is refused:
 * it was not written in a layout this bridge understands, so it is never reported "imported".
 */
export function noPowerMessage(rows: number): string {
  return rows
    ? `none of its ${rows} rows carries a power value (solar, grid, battery or home; or sigen-home-bridge's pvPower, gridPower, batteryPower, loadPower): nothing imported`
    : 'it holds no rows: nothing imported';
}

/**
 * Entry `i` of a legacy history file as a sample: an object with a time in `t`, `time` or
 * `timestamp` (epoch ms or ISO 8601) and any of our sample fields (numbers or null; other keys are
 * ignored). Rows written by sigen-home-bridge (`t`, `pvPower`, `gridPower`, `batteryPower`,
 * `batterySoc`, `loadPower`, `outdoorTemp`) are understood too and mapped onto our fields.
 * Throws naming the entry when it is not one.
 */
export function legacySample(item: unknown, i: number): HistorySample {
  if (typeof item !== 'object' || item === null || Array.isArray(item)) throw new Error(`entry ${i}: expected an object`);
  const o = item as Record<string, unknown>;
  if (isSigenRow(o)) {
    const sample = fromSigenRow(o);
    if (!sample) throw new Error(`entry ${i}: a sigen-home-bridge row needs t in epoch ms and numbers or null in its fields`);
    return sample;
  }
  const t = parseTime(o.t ?? o.time ?? o.timestamp);
  if (t === null) throw new Error(`entry ${i}: missing or unparseable time (t, time or timestamp; epoch ms or ISO 8601)`);
  const sample = { t } as HistorySample;
  for (const f of SAMPLE_FIELDS) {
    const v = o[f];
    if (v === undefined || v === null) sample[f] = null;
    else if (typeof v === 'number' && Number.isFinite(v)) sample[f] = v;
    else throw new Error(`entry ${i}: ${f} must be a number or null`);
  }
  return sample;
}
