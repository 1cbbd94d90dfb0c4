import { Bucketer, DOWNSAMPLED_COLUMNS } from './downsample.js';
import type { DurableStore } from './durable-store.js';
import { localMinute } from '../tariff/local-time.js';
import { SAMPLE_FIELDS, type DownsampledRow, type HistorySample } from './sample.js';

export type ExportFormat = 'csv' | 'json';

export interface ExportOptions {
  durable: DurableStore;
  /** Oldest retained `t`: rows before it are outside retention. */
  cutoff: number;
  format: ExportFormat;
  /** Seconds per row; absent exports every sample. */
  every?: number;
  /** Rows read per keyset page (constant memory: at most a page or two is ever held). */
  pageSize?: number;
}

/** CSV header: ISO time, epoch ms, then the sample fields (or the downsampled row's columns). */
export function csvHeader(every: number | undefined): string {
  return ['time', ...(every === undefined ? ['t', ...SAMPLE_FIELDS] : DOWNSAMPLED_COLUMNS)].join(',') + '\n';
}

/**
 * The whole retained series as CSV or JSON text (a bare array, like GET /api/history), one keyset
 * page of the table per `next()` call; null once everything was returned. Memory stays flat
 * whatever the size. With `every`, the samples are folded into rows of that many seconds.
 */
export function exportCursor(opts: ExportOptions): { next(): string | null } {
  const pageSize = opts.pageSize ?? EXPORT_PAGE_ROWS;
  const keys = opts.every === undefined ? ['t', ...SAMPLE_FIELDS] : DOWNSAMPLED_COLUMNS;
  const bucketer = opts.every === undefined ? null : new Bucketer(opts.every * 1000);
  // JSON: each row is `{"k0":v0,"k1":v1,...}`; the key text is built once, not per row.
  const keyText = keys.map((k, i) => (i === 0 ? '{"' : ',"') + k + '":');
  let after = opts.cutoff - 1;
  let started = false;
  let wroteRow = false;
  let done = false;

  const formatRow = (values: unknown[]): string => {
    if (opts.format === 'csv') {
      let line = new Date(values[0] as number).toISOString();
      for (const v of values) line += ',' + (v ?? '');
      return line + '\n';
    }
    let obj = wroteRow ? ',' : '';
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      obj += keyText[i]! + (v === null || v === undefined ? 'null' : String(v));
    }
    wroteRow = true;
    return obj + '}';
  };
  const downsampled = (row: DownsampledRow | null) => (row ? formatRow(DOWNSAMPLED_COLUMNS.map((k) => row[k as keyof DownsampledRow])) : '');

  return {
    next() {
      if (done) return null;
      let out = '';
      if (!started) {
        started = true;
        out += opts.format === 'csv' ? csvHeader(opts.every) : '[';
      }
      const page = opts.durable.pageAfter(after, pageSize);
      for (const values of page) {
        if (!bucketer) {
          out += formatRow(values);
          continue;
        }
        const sample = { t: values[0] } as HistorySample;
        SAMPLE_FIELDS.forEach((f, i) => (sample[f] = values[i + 1] as number | null));
        out += downsampled(bucketer.push(sample));
      }
      if (page.length) after = page[page.length - 1]![0] as number;
      if (page.length < pageSize) {
        if (bucketer) out += downsampled(bucketer.flush());
        if (opts.format === 'json') out += ']';
        done = true;
      }
      return out;
    },
  };
}

/**
 * Rows per page of an export: about 100 KB of JSON or 60 KB of CSV, one message from the reader
 * worker. Pages of 8,192 rows (1.6 MB strings, V8 large objects kept until a full collection in
 * both threads) grew the service's RSS by 50-80 MB over a week's export.
 */
export const EXPORT_PAGE_ROWS = 512;

/** `energy-history-YYYY-MM-DD.<ext>`, dated in the given time zone. */
export function exportFileName(now: number, timeZone: string, format: ExportFormat, every?: number): string {
  const day = localMinute(now, timeZone).date;
  // A thinned export names its row interval, so it never has the same name as the every-sample one.
  return `energy-history-${day}${every ? `-every-${every}s` : ''}.${format}`;
}
