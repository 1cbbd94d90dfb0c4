import { Readable } from 'node:stream';
import type { Worker } from 'node:worker_threads';
import type { Logger } from '../../core/logger.js';
import { startWorker } from '../../core/worker.js';
import type { ExportFormat } from './export.js';
import type { HistoryQuery } from './query.js';

export type ReaderRequest =
  | { op: 'query'; id: number; query: HistoryQuery; cutoff: number; pretty: boolean }
  | { op: 'export-open'; id: number; format: ExportFormat; every?: number; cutoff: number }
  | { op: 'export-next'; id: number }
  | { op: 'export-close'; id: number }
  | { op: 'invalidate'; prunedBefore?: number };

export interface ReaderReply {
  id: number;
  ok: boolean;
  /** UTF-8 text (JSON or CSV), transferred from the worker without a copy. */
  body?: Uint8Array;
  widthSeconds?: number;
  done?: boolean;
  error?: string;
}

/**
 * The main-thread side of the history reader worker (reader-worker.ts): one worker, started on first
 * use, with its own read-only connection. Queries come back as ready-to-send JSON text; exports as a
 * Readable that pulls the next chunk only when the consumer wants more. A worker that dies is
 * replaced on the next request; its requests in flight fail with a 500.
 */
export class HistoryReaderPool {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve(r: ReaderReply): void; reject(e: Error): void }>();

  constructor(
    private readonly file: string,
    private readonly logger: Logger,
  ) {}

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const w = startWorker('reader-worker', import.meta.url, { file: this.file });
    w.unref();
    w.on('message', (r: ReaderReply) => {
      const p = this.waiting.get(r.id);
      if (!p) return;
      this.waiting.delete(r.id);
      p.resolve(r);
    });
    const fail = (err: Error) => {
      if (this.worker === w) this.worker = null;
      for (const [id, p] of this.waiting) {
        this.waiting.delete(id);
        p.reject(err);
      }
    };
    w.on('error', (err) => {
      this.logger.error({ err }, 'history reader worker failed');
      fail(err);
    });
    w.on('exit', () => fail(new Error('history reader worker stopped')));
    this.worker = w;
    return w;
  }

  private call(req: ReaderRequest & { id: number }): Promise<ReaderReply> {
    const w = this.ensure();
    return new Promise<ReaderReply>((resolve, reject) => {
      this.waiting.set(req.id, { resolve, reject });
      w.postMessage(req);
    }).then((r) => {
      if (!r.ok) throw new Error(r.error ?? 'history reader failed');
      return r;
    });
  }

  async query(query: HistoryQuery, cutoff: number, pretty: boolean): Promise<{ body: Buffer; widthSeconds?: number }> {
    const r = await this.call({ op: 'query', id: this.nextId++, query, cutoff, pretty });
    return { body: r.body ? toBuffer(r.body) : Buffer.from('[]'), widthSeconds: r.widthSeconds };
  }

  /**
   * The export as a Readable. While one page goes out to the socket the worker already writes the
   * next (one page ahead, never more), so the two threads overlap; memory stays a couple of pages.
   */
  exportStream(format: ExportFormat, every: number | undefined, cutoff: number): Readable {
    const id = this.nextId++;
    let opened: Promise<unknown> | null = null;
    let ahead: Promise<ReaderReply> | null = null;
    let busy = false;
    let finished = false;
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the Readable's own `this` is needed below
    const pool = this;
    const fetchNext = (): Promise<ReaderReply> => {
      opened ??= pool.call({ op: 'export-open', id, format, every, cutoff });
      const next = opened.then(() => pool.call({ op: 'export-next', id }));
      // A page fetched ahead for a stream destroyed meanwhile fails quietly (its reader is gone).
      next.catch(() => {});
      return next;
    };
    return new Readable({
      highWaterMark: 256 * 1024,
      read() {
        if (busy) return;
        busy = true;
        const page = ahead ?? fetchNext();
        ahead = null;
        page.then(
          (r) => {
            busy = false;
            if (r.done) finished = true;
            else ahead = fetchNext();
            if (r.body) this.push(toBuffer(r.body));
            if (r.done) this.push(null);
          },
          (err: Error) => this.destroy(err),
        );
      },
      destroy(err, cb) {
        if (!finished && pool.worker) pool.worker.postMessage({ op: 'export-close', id } satisfies ReaderRequest);
        cb(err);
      },
    });
  }

  /**
   * Rows changed behind the worker's caches: a prune to `prunedBefore` (only what it removed is
   * forgotten), or without it an import (everything is).
   */
  invalidate(prunedBefore?: number): void {
    this.worker?.postMessage({ op: 'invalidate', prunedBefore } satisfies ReaderRequest);
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    await w?.terminate();
  }
}

const toBuffer = (u8: Uint8Array): Buffer => Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength);
