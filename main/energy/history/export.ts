import { Readable } from 'node:stream';
import { Bucketer, DOWNSAMPLED_COLUMNS } from './downsample.js';
import type { DurableStore } from './durable-store.js';
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

const cell = (v: unknown): string => (v === null || v === undefined ? '' : String(v));
const json = (v: unknown): string => (v === null || v === undefined ? 'null' : String(v));

/**
 * The whole retained durable series as a stream of CSV or JSON (a bare array, like GET /api/history).
 * It reads keyset pages of the table only when the consumer asks for more (Readable backpressure),
 * so memory stays flat whatever the size, and the database connection is free between pages for
 * the poller's inserts and the retention prune.
 */
export function exportStream(opts: ExportOptions): Readable {
  const pageSize = opts.pageSize ?? 2048;
  const fields = SAMPLE_FIELDS;
  const bucketer = opts.every === undefined ? null : new Bucketer(opts.every * 1000);
  const rowKeys = bucketer ? DOWNSAMPLED_COLUMNS : ['t', ...fields];
  let after = opts.cutoff - 1;
  let started = false;
  let wroteRow = false;
  let done = false;

  const formatRow = (values: ArrayLike<unknown>): string => {
    if (opts.format === 'csv') {
      let line = new Date(values[0] as number).toISOString();
      for (let i = 0; i < values.length; i++) line += ',' + cell(values[i]);
      return line + '\n';
    }
    let obj = (wroteRow ? ',' : '') + '{';
    for (let i = 0; i < values.length; i++) obj += (i ? ',"' : '"') + rowKeys[i] + '":' + json(values[i]);
    wroteRow = true;
    return obj + '}';
  };

  const downsampled = (row: Record<string, unknown>) => formatRow(DOWNSAMPLED_COLUMNS.map((k) => row[k]));

  const nextChunk = (): string => {
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
      fields.forEach((f, i) => (sample[f] = values[i + 1] as number | null));
      const closed = bucketer.push(sample);
      if (closed) out += downsampled(closed);
    }
    if (page.length) after = page[page.length - 1]![0] as number;
    if (page.length < pageSize) {
      const last = bucketer?.flush();
      if (last) out += downsampled(last);
      if (opts.format === 'json') out += ']';
      done = true;
    }
    return out;
  };

  return new Readable({
    highWaterMark: 64 * 1024,
    read() {
      try {
        for (;;) {
          if (done) {
            this.push(null);
            return;
          }
          const chunk = nextChunk();
          if (chunk && !this.push(chunk)) return;
        }
      } catch (err) {
        this.destroy(err as Error);
      }
    },
  });
}

/** `energy-history-YYYY-MM-DD.<ext>`, dated in the given time zone. */
export function exportFileName(now: number, timeZone: string, format: ExportFormat): string {
  const day = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' }).format(new Date(now));
  return `energy-history-${day}.${format}`;
}
