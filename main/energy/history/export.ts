import { Readable } from 'node:stream';
import { Bucketer, DOWNSAMPLED_COLUMNS } from './downsample.js';
import type { Statement } from 'better-sqlite3';
import type { DurableStore } from './durable-store.js';
import { ExportRowWriter } from './export-rows.js';
import { PAGE_MS, pageOf } from './block-pages.js';
import { ROW_WIDTH, SamplePage } from './sample-pages.js';
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

/** Packed sample pages read per statement run (a few hundred kilobytes at 1 s polls). */
const PAGES_PER_READ = 4;
/** Packed pages' row counts read per statement run while finding where an export page ends. */
const COUNTS_PER_READ = 16;

const exportStatements = new WeakMap<DurableStore, { end: Statement; count: Statement; counts: Statement; between: Statement; pages: Statement }>();
function statements(durable: DurableStore) {
  let s = exportStatements.get(durable);
  if (!s) {
    const columns = ['t', ...SAMPLE_FIELDS].join(', ');
    s = {
      end: durable.db.prepare('SELECT t FROM samples WHERE t > ? ORDER BY t LIMIT 1 OFFSET ?').pluck(),
      count: durable.db.prepare('SELECT count(*) FROM (SELECT 1 FROM samples WHERE t > ? AND t <= ? LIMIT ?)').pluck(),
      counts: durable.db.prepare(`SELECT p, n FROM sample_pages WHERE p >= ? ORDER BY p LIMIT ${COUNTS_PER_READ}`).raw(),
      between: durable.db.prepare(`SELECT ${columns} FROM samples WHERE t > ? AND t <= ? ORDER BY t LIMIT ?`).raw(),
      pages: durable.db.prepare(`SELECT p, samples FROM sample_pages WHERE p >= ? AND p <= ? ORDER BY p LIMIT ${PAGES_PER_READ}`).raw(),
    };
    exportStatements.set(durable, s);
  }
  return s;
}

/**
 * Where the export page of `rows` samples after `after` ends: the `t` of its last sample, or null
 * when fewer than `rows` follow (the last page). Cheap, so the next page can be handed to another
 * worker before this one is written: the packed pages' row counts are summed (sample-pages.ts),
 * and SQLite steps over the keys of `samples` only where rows are not packed and in the page
 * where the export page ends.
 */
export function exportPageEnd(durable: DurableStore, after: number, rows: number): number | null {
  const { end, count, counts } = statements(durable);
  /** Rows with from < t <= to in `samples`, counted up to `limit`. */
  const between = (from: number, to: number, limit: number): number => (to > from ? (count.get(from, to, limit) as number) : 0);
  let from = after;
  let need = rows;
  for (let p = pageOf(after + 1); ; ) {
    const got = counts.all(p) as Array<[number, number]>;
    for (const [q, n] of got) {
      // Unpacked rows before page q, then the page (in part when the export page started inside it).
      const pageEnd = (q + 1) * PAGE_MS - 1;
      const gap = between(from, q * PAGE_MS - 1, need);
      const inPage = from >= q * PAGE_MS ? between(from, pageEnd, need - gap + 1) : n;
      if (gap + inPage >= need) return (end.get(from, need - 1) as number | undefined) ?? null;
      need -= gap + inPage;
      from = pageEnd;
    }
    if (got.length < COUNTS_PER_READ) break;
    p = got[got.length - 1]![0] + 1;
  }
  return (end.get(from, need - 1) as number | undefined) ?? null;
}

/**
 * Writes the samples with after < t <= end (with `end` null: all that follow, at most `rows`) to
 * `writer`, in time order; returns how many. Sealed 10-minute pages come from their packed blobs
 * (sample-pages.ts); the newest page, and any not packed yet, from `samples` row by row.
 */
export function writeExportPage(durable: DurableStore, writer: ExportRowWriter, after: number, end: number | null, rows: number): number {
  const { between, pages } = statements(durable);
  const hi = end ?? Number.MAX_SAFE_INTEGER;
  let left = end === null ? rows : Number.MAX_SAFE_INTEGER;
  let n = 0;
  /** The rows with after < t <= to from `samples`; moves `after` on to `to`. */
  const fromTable = (to: number): void => {
    while (left > 0 && after < to) {
      const limit = Math.min(READ_BATCH, left);
      const got = between.all(after, to, limit) as unknown[][];
      for (let i = 0; i < got.length; i++) writer.row(got[i]!);
      n += got.length;
      left -= got.length;
      if (got.length < limit) after = to;
      else after = got[got.length - 1]![0] as number;
    }
  };
  let rowsOut = new Float64Array(0);
  const row = new Float64Array(ROW_WIDTH);
  for (let p = pageOf(after + 1); left > 0 && p <= pageOf(hi); ) {
    const got = pages.all(p, pageOf(hi)) as Array<[number, Uint8Array]>;
    for (let k = 0; k < got.length && left > 0; k++) {
      const [q, blob] = got[k]!;
      fromTable(Math.min(hi, q * PAGE_MS - 1));
      const page = SamplePage.open(q, blob);
      const last = Math.min(hi, (q + 1) * PAGE_MS - 1);
      if (!page || left <= 0) {
        fromTable(last);
        continue;
      }
      const j0 = page.firstAfter(after);
      const j1 = Math.min(page.firstAfter(last), j0 + left);
      if (rowsOut.length < (j1 - j0) * ROW_WIDTH) rowsOut = new Float64Array((j1 - j0) * ROW_WIDTH);
      page.decode(rowsOut, j0, j1);
      // Each row copied into one small array: the writer reads it faster than at an offset into
      // the page's (measured: about 10 % a row).
      for (let o = 0; o < (j1 - j0) * ROW_WIDTH; o += ROW_WIDTH) {
        for (let i = 0; i < ROW_WIDTH; i++) row[i] = rowsOut[o + i]!;
        writer.row(row);
      }
      n += j1 - j0;
      left -= j1 - j0;
      after = last;
    }
    if (got.length < PAGES_PER_READ) break;
    p = got[got.length - 1]![0] + 1;
  }
  fromTable(hi);
  return n;
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
export function exportFileName(now: number, timeZone: string, format: ExportFormat, every?: number): string {
  const day = localMinute(now, timeZone).date;
  // A thinned export names its row interval, so it never has the same name as the every-sample one.
  return `energy-history-${day}${every ? `-every-${every}s` : ''}.${format}`;
}
