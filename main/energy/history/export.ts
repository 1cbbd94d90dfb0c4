import { Readable } from 'node:stream';
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
  const iso = isoFormatter();
  let after = opts.cutoff - 1;
  let started = false;
  let wroteRow = false;
  let done = false;

  const formatRow = (values: unknown[]): string => {
    if (opts.format === 'csv') {
      let line = iso(values[0] as number);
      for (let i = 0; i < values.length; i++) line += ',' + formatNumber(values[i]);
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

/** The export as a Readable in this thread (pulls a page when the consumer asks for more). */
export function exportStream(opts: ExportOptions): Readable {
  const cursor = exportCursor(opts);
  return new Readable({
    highWaterMark: 64 * 1024,
    read() {
      try {
        for (;;) {
          const chunk = cursor.next();
          if (chunk === null) {
            this.push(null);
            return;
          }
          if (chunk && !this.push(chunk)) return;
        }
      } catch (err) {
        this.destroy(err as Error);
      }
    },
  });
}

/**
 * A number as `String(v)` writes it ('' for null), faster for the common case of readings with at
 * most two decimals: those are built from integers, which V8 turns into text far more cheaply than
 * arbitrary doubles. The fast path applies only when the two-decimal form reads back as the exact
 * same double, so the text always parses back to the stored value.
 */
export function formatNumber(v: unknown): string {
  if (v === null || v === undefined) return '';
  const x = v as number;
  if (Number.isInteger(x) && x > -1e15 && x < 1e15) return '' + x;
  const k = Math.round(x * 100);
  if (k / 100 === x && k > -1e15 && k < 1e15) {
    const a = k < 0 ? -k : k;
    const whole = Math.floor(a / 100);
    const frac = a - whole * 100;
    return (k < 0 ? '-' : '') + whole + (frac % 10 === 0 ? '.' + frac / 10 : (frac < 10 ? '.0' : '.') + frac);
  }
  return String(x);
}

/**
 * ISO 8601 for epoch ms, fast for a time-ordered series: the date-hour-minute prefix is formatted
 * once per minute, seconds and milliseconds are appended.
 */
export function isoFormatter(): (t: number) => string {
  let minute = NaN;
  let prefix = '';
  return (t) => {
    const m = Math.floor(t / 60_000);
    if (m !== minute) {
      minute = m;
      prefix = new Date(m * 60_000).toISOString().slice(0, 17);
    }
    const ms = t - m * 60_000;
    const sec = Math.floor(ms / 1000);
    const milli = ms - sec * 1000;
    return prefix + (sec < 10 ? '0' : '') + sec + '.' + (milli < 10 ? '00' : milli < 100 ? '0' : '') + milli + 'Z';
  };
}

/** `energy-history-YYYY-MM-DD.<ext>`, dated in the given time zone. */
export function exportFileName(now: number, timeZone: string, format: ExportFormat, every?: number): string {
  const day = localMinute(now, timeZone).date;
  // A thinned export names its row interval, so it never has the same name as the every-sample one.
  return `energy-history-${day}${every ? `-every-${every}s` : ''}.${format}`;
}
