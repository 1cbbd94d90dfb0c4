import { Readable } from 'node:stream';
import type { Worker } from 'node:worker_threads';
import { startWorker } from '../../core/worker.js';
import type { Logger } from '../../core/logger.js';
import type { ExportFormat } from './export.js';
import type { HistoryQuery } from './query.js';

export type ReaderRequest =
  | { op: 'query'; id: number; query: HistoryQuery; pretty: boolean; cutoff: number; minuteCutoff: number }
  | { op: 'export'; id: number; format: ExportFormat; every?: number; cutoff: number }
  | { op: 'next'; id: number }
  | { op: 'close'; id: number };

export interface ReaderReply {
  id: number;
  body?: string;
  widthSeconds?: number;
  error?: string;
  done: boolean;
}

/** The reader worker stops this long after its last request ended (its connection and heap go with it). */
export const READER_IDLE_MS = 5 * 60_000;

/**
 * The history reader worker (reader-worker.ts), started on first use: queries answered as JSON
 * text, exports as a Readable that asks for the next page only when its consumer wants more
 * (backpressure: one page in flight per export).
 */
export class HistoryReader {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly handlers = new Map<number, (r: ReaderReply) => void>();
  private idle: NodeJS.Timeout | null = null;

  constructor(
    private readonly file: string,
    private readonly logger: Logger,
  ) {}

  private send(req: ReaderRequest, onReply?: (r: ReaderReply) => void): void {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    if (!this.worker) {
      // Bounded heaps: with V8's defaults the garbage of a week's export piled up to +30 MB of
      // worker heap before a full collection. The largest answer (20,000 rows) needs far less.
      const w = startWorker('reader-worker', import.meta.url, { file: this.file }, { maxYoungGenerationSizeMb: 8, maxOldGenerationSizeMb: 128 });
      w.on('message', (r: ReaderReply) => {
        const h = this.handlers.get(r.id);
        if (r.done) this.forget(r.id);
        h?.(r);
      });
      w.on('error', (err) => this.logger.error({ err }, 'history reader failed'));
      w.on('exit', () => {
        if (this.worker !== w) return;
        this.worker = null;
        for (const [id, h] of this.handlers) h({ id, error: 'the history reader stopped', done: true });
        this.handlers.clear();
      });
      this.worker = w;
    }
    if (onReply) this.handlers.set(req.id, onReply);
    this.worker.postMessage(req);
  }

  private forget(id: number): void {
    this.handlers.delete(id);
    if (this.handlers.size || this.idle) return;
    this.idle = setTimeout(() => void this.close(), READER_IDLE_MS);
    this.idle.unref();
  }

  query(query: HistoryQuery, cutoff: number, minuteCutoff: number, pretty: boolean): Promise<{ body: string; widthSeconds?: number }> {
    return new Promise((resolve, reject) => {
      this.send({ op: 'query', id: this.nextId++, query, pretty, cutoff, minuteCutoff }, (r) =>
        r.error !== undefined ? reject(new Error(r.error)) : resolve({ body: r.body ?? '[]', widthSeconds: r.widthSeconds }),
      );
    });
  }

  exportStream(format: ExportFormat, every: number | undefined, cutoff: number): Readable {
    const id = this.nextId++;
    let asked = false;
    const stream = new Readable({
      read: () => {
        if (asked) return;
        asked = true;
        this.send({ op: 'next', id });
      },
      destroy: (err, cb) => {
        if (this.handlers.has(id)) {
          this.worker?.postMessage({ op: 'close', id } satisfies ReaderRequest);
          this.forget(id);
        }
        cb(err);
      },
    });
    this.send({ op: 'export', id, format, every, cutoff }, (r) => {
      asked = false;
      if (r.error !== undefined) return void stream.destroy(new Error(r.error));
      // push() below the high-water mark has the stream call read() again: the next page is asked for.
      if (r.body !== undefined) stream.push(r.body);
      if (r.done) stream.push(null);
    });
    return stream;
  }

  async close(): Promise<void> {
    if (this.idle) clearTimeout(this.idle);
    this.idle = null;
    const w = this.worker;
    this.worker = null;
    for (const [id, h] of this.handlers) h({ id, error: 'the history stopped', done: true });
    this.handlers.clear();
    await w?.terminate();
  }
}
