import { DOWNSAMPLED_COLUMNS, finishBucket } from './downsample.js';
import type { DurableStore } from './durable-store.js';
import { localMinute } from '../tariff/local-time.js';
import { SAMPLE_FIELDS, type DownsampledRow } from './sample.js';

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

/**
 * The whole retained series as CSV or JSON text (a bare array, like GET /api/history), one keyset
 * page of the table per `next()` call; null once everything was returned. Memory stays flat
 * whatever the size. With `every`, rows of that many seconds, read as GET /api/history reads them,
 * `pageSize` buckets a page.
 */
export function exportCursor(opts: ExportOptions): { next(): string | null } {
  const { durable, cutoff, every } = opts;
  const pageSize = opts.pageSize ?? EXPORT_PAGE_ROWS;
  const keys = every === undefined ? ['t', ...SAMPLE_FIELDS] : DOWNSAMPLED_COLUMNS;
  // JSON: each row is `{"k0":v0,"k1":v1,...}`; the key text is built once, not per row.
  const keyText = keys.map((k, i) => (i === 0 ? '{"' : ',"') + k + '":');
  let after = cutoff - 1; // the last sample written, or the end of the last page of buckets
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
  /** The next page's rows (values in `keys` order), and whether more may follow. */
  const page = (): [unknown[][], boolean] => {
    if (every === undefined) {
      const rows = durable.pageAfter(after, pageSize);
      if (rows.length) after = rows[rows.length - 1]![0] as number;
      return [rows, rows.length === pageSize];
    }
    const w = every * 1000;
    const from = after + 1;
    after = (Math.floor(from / w) + pageSize) * w - 1;
    const rows = durable.buckets(from, after, w, { raw: cutoff, minute: cutoff }).map(finishBucket).map((row) => keys.map((k) => row[k as keyof DownsampledRow]));
    return [rows, after < (durable.lastT() ?? -Infinity)];
  };

  return {
    next() {
      if (done) return null;
      let out = '';
      if (!started) {
        started = true;
        out += opts.format === 'csv' ? ['time', ...keys].join(',') + '\n' : '['; // CSV: ISO time, then the row's columns
      }
      const [rows, more] = page();
      for (const values of rows) out += formatRow(values);
      if (!more) {
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
