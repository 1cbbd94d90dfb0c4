import { Readable } from 'node:stream';
import { Bucketer, DOWNSAMPLED_COLUMNS } from './downsample.js';
import type { Statement } from 'better-sqlite3';
import type { DurableStore } from './durable-store.js';
import { ExportRowWriter } from './export-rows.js';
import { localMinute } from '../tariff/local-time.js';
import { SAMPLE_FIELDS, type HistorySample } from './sample.js';

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
 * The whole retained durable series as CSV or JSON text (a bare array, like GET /api/history),
 * one keyset page of the table per `next()` call; null once everything was returned. Memory stays
 * flat whatever the size. Every sample's line or object is written by `ExportRowWriter` straight
 * into bytes (export-rows.ts); the thinned (`every`) exports build their rows' text here. The
 * history reader workers use `exportPageEnd` and `writeExportPage` directly, several pages at once
 * (reader-pool.ts); this cursor serves callers without a worker.
 */
export function exportCursor(opts: ExportOptions): { next(): string | Buffer | null } {
  if (opts.every === undefined) return sampleCursor(opts);
  const pageSize = opts.pageSize ?? 2048;
  const fields = SAMPLE_FIELDS;
  const bucketer = new Bucketer(opts.every * 1000);
  const rowKeys = DOWNSAMPLED_COLUMNS;
  // JSON: each row is `{"k0":v0,"k1":v1,...}`; the key text is built once, not per row.
  const keyText = rowKeys.map((k, i) => (i === 0 ? '{"' : ',"') + k + '":');
  let after = opts.cutoff - 1;
  let started = false;
  let wroteRow = false;
  let done = false;

  const iso = isoFormatter();
  const formatRow = (values: unknown[]): string => {
    if (opts.format === 'csv') {
      let line = iso(values[0] as number);
      for (let i = 0; i < values.length; i++) line += ',' + formatNumber(values[i]);
      return line + '\n';
    }
    let obj = wroteRow ? ',' : '';
    for (let i = 0; i < values.length; i++) {
      const v = values[i];
      obj += keyText[i]! + (v === null || v === undefined ? 'null' : formatNumber(v));
    }
    wroteRow = true;
    return obj + '}';
  };

  const downsampled = (row: Record<string, unknown>) => formatRow(DOWNSAMPLED_COLUMNS.map((k) => row[k]));

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
        const sample = { t: values[0] } as HistorySample;
        fields.forEach((f, i) => (sample[f] = values[i + 1] as number | null));
        const closed = bucketer.push(sample);
        if (closed) out += downsampled(closed);
      }
      if (page.length) after = page[page.length - 1]![0] as number;
      if (page.length < pageSize) {
        const last = bucketer.flush();
        if (last) out += downsampled(last);
        if (opts.format === 'json') out += ']';
        done = true;
      }
      return out;
    },
  };
}

/**
 * Rows per page of a full export: about 1.6 MB of JSON or 0.9 MB of CSV. A page is the unit the
 * reader workers share out (each writes whole pages; the HTTP thread sends them in order).
 */
export const EXPORT_PAGE_ROWS = 8192;
/** Rows read from SQLite per statement run inside a page: small batches die young in V8's heap. */
const READ_BATCH = 1024;

const exportStatements = new WeakMap<DurableStore, { end: Statement; between: Statement }>();
function statements(durable: DurableStore) {
  let s = exportStatements.get(durable);
  if (!s) {
    const columns = ['t', ...SAMPLE_FIELDS].join(', ');
    s = {
      end: durable.db.prepare('SELECT t FROM samples WHERE t > ? ORDER BY t LIMIT 1 OFFSET ?').pluck(),
      between: durable.db.prepare(`SELECT ${columns} FROM samples WHERE t > ? AND t <= ? ORDER BY t LIMIT ?`).raw(),
    };
    exportStatements.set(durable, s);
  }
  return s;
}

/**
 * Where the export page of `rows` samples after `after` ends: the `t` of its last sample, or null
 * when fewer than `rows` follow (the last page). Cheap (SQLite steps over the rows' keys only), so
 * the next page can be handed to another worker before this one is written.
 */
export function exportPageEnd(durable: DurableStore, after: number, rows: number): number | null {
  return (statements(durable).end.get(after, rows - 1) as number | undefined) ?? null;
}

/**
 * Writes the samples with after < t <= end (with `end` null: all that follow, at most `rows`) to
 * `writer`, in time order; returns how many.
 */
export function writeExportPage(durable: DurableStore, writer: ExportRowWriter, after: number, end: number | null, rows: number): number {
  const { between } = statements(durable);
  const hi = end ?? Number.MAX_SAFE_INTEGER;
  let n = 0;
  for (;;) {
    const limit = end === null ? Math.min(READ_BATCH, rows - n) : READ_BATCH;
    if (limit <= 0) return n;
    const got = between.all(after, hi, limit) as unknown[][];
    for (let i = 0; i < got.length; i++) writer.row(got[i]!);
    n += got.length;
    if (got.length < limit) return n;
    after = got[got.length - 1]![0] as number;
  }
}

/** Every sample as CSV or JSON, one page of `ExportRowWriter` bytes per call. */
function sampleCursor(opts: ExportOptions): { next(): string | Buffer | null } {
  const pageSize = opts.pageSize ?? EXPORT_PAGE_ROWS;
  let after = opts.cutoff - 1;
  let first = true;
  let done = false;
  return {
    next() {
      if (done) return null;
      const parts: Buffer[] = [];
      if (first) parts.push(Buffer.from(opts.format === 'csv' ? csvHeader(undefined) : '['));
      const writer = new ExportRowWriter(opts.format, (chunk) => parts.push(chunk), { firstRow: first });
      first = false;
      const end = exportPageEnd(opts.durable, after, pageSize);
      writeExportPage(opts.durable, writer, after, end, pageSize);
      writer.flush();
      if (end === null) {
        done = true;
        if (opts.format === 'json') parts.push(Buffer.from(']'));
      } else after = end;
      return Buffer.concat(parts);
    },
  };
}

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
export function exportFileName(now: number, timeZone: string, format: ExportFormat): string {
  const day = localMinute(now, timeZone).date;
  return `energy-history-${day}.${format}`;
}
