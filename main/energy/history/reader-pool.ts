import { Readable } from 'node:stream';
import type { Worker } from 'node:worker_threads';
import { systemClock, type Clock, type Timer } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import { startWorker } from '../../core/worker.js';
import { csvHeader, EXPORT_PAGE_ROWS, type ExportFormat } from './export.js';
import { DEFAULT_CHUNK_BYTES } from './export-rows.js';
import type { HistoryQuery } from './query.js';

export type ReaderRequest =
  | { op: 'query'; id: number; query: HistoryQuery; cutoff: number; pretty: boolean }
  | { op: 'export-open'; id: number; format: ExportFormat; every?: number; cutoff: number }
  | { op: 'export-next'; id: number }
  | { op: 'export-close'; id: number }
  | { op: 'export-page'; id: number; format: ExportFormat; after: number; rows: number; first: boolean }
  | { op: 'export-spare'; buffers: ArrayBuffer[]; drop?: boolean }
  | { op: 'query-spare'; buffer: ArrayBuffer }
  | { op: 'invalidate'; prunedBefore?: number };

export interface ReaderReply {
  id: number;
  ok: boolean;
  /** UTF-8 text (JSON or CSV), transferred from the worker without a copy. */
  body?: Uint8Array;
  widthSeconds?: number;
  done?: boolean;
  /** export-page: where the page ends (its last `t`; null for the export's last page). */
  end?: number | null;
  /** The worker has loaded (sent once, with id 0). */
  ready?: boolean;
  error?: string;
}

/** Export pages requested ahead of the one being sent: at most this many are held at once. */
const PAGES_AHEAD = 3;
/**
 * A chunk of a full export is given back to its worker for reuse once the consumer has taken this
 * many bytes after it: more than the socket can still hold of it (see `giveBack`).
 */
const RELEASE_MARGIN = 2 * DEFAULT_CHUNK_BYTES + 256 * 1024;
/** The second (export) worker ends this long after the last export finished. */
export const EXPORT_HELPER_IDLE_MS = 10_000;
/**
 * The reader worker ends this long after its last request (its V8 isolate, connection and caches,
 * about 10 MB, go with it); the next read starts it again (a few hundred ms).
 */
export const READER_IDLE_MS = 5 * 60_000;

interface Slot {
  worker: Worker;
  ready: boolean;
}

/**
 * The main-thread side of the history reader workers (reader-worker.ts), each with its own
 * read-only connection. The reader (slot 0) starts on first use and answers queries and exports.
 * A full export larger than one page also starts a helper (slot 1): the two share out the pages,
 * each taking the next as soon as it has written its last, on the machine's two cores while this
 * thread sends them in order. The helper ends when no export has run for EXPORT_HELPER_IDLE_MS,
 * the reader when nothing has asked it anything for READER_IDLE_MS. Queries come back as
 * ready-to-send JSON text; exports as a Readable that asks for pages only while the consumer keeps
 * up; its chunks are lent: once the consumer is well past one, its memory goes back to the worker
 * (a consumer that keeps chunks must copy them, as a socket or `Buffer.from` does). A worker that
 * dies is replaced on the next request; its requests in flight fail with a 500.
 */
export class HistoryReaderPool {
  private readonly slots: Array<Slot | null> = [null, null];
  private nextId = 1;
  private readonly waiting = new Map<number, { resolve(r: ReaderReply): void; reject(e: Error): void }>();
  /** Export pages in flight: every reply for the id goes to the handler (several per page). */
  private readonly pageHandlers = new Map<number, { slot: Slot; on(r: ReaderReply): void }>();
  private exportsRunning = 0;
  /** Thinned exports with a cursor open in the reader (it must live until they end). */
  private openCursors = 0;
  private helperIdle: Timer | null = null;
  private readerIdle: Timer | null = null;

  private readonly helperIdleMs: number;
  private readonly readerIdleMs: number;
  /** The idle countdowns run on it (tests: a manual clock). */
  private readonly clock: Clock;

  constructor(
    private readonly file: string,
    private readonly logger: Logger,
    opts: { helperIdleMs?: number; readerIdleMs?: number; clock?: Clock } = {},
  ) {
    this.clock = opts.clock ?? systemClock;
    this.helperIdleMs = opts.helperIdleMs ?? EXPORT_HELPER_IDLE_MS;
    this.readerIdleMs = opts.readerIdleMs ?? READER_IDLE_MS;
  }

  /** The reader worker: not running, loading, or answering. */
  reader(): 'off' | 'starting' | 'ready' {
    const reader = this.slots[0];
    return !reader ? 'off' : reader.ready ? 'ready' : 'starting';
  }

  /** Requests sent to a worker and not yet answered. */
  requestsInFlight(): number {
    return this.waiting.size;
  }

  private busy(): boolean {
    return this.waiting.size > 0 || this.pageHandlers.size > 0 || this.exportsRunning > 0 || this.openCursors > 0;
  }

  /** (Re)starts the reader's idle countdown once nothing is in flight; it ends the worker when it runs out. */
  private readerDone(): void {
    if (this.readerIdle) this.clock.clear(this.readerIdle);
    this.readerIdle = null;
    if (!this.slots[0] || this.busy()) return;
    this.readerIdle = this.clock.setTimeout(() => {
      this.readerIdle = null;
      const reader = this.slots[0];
      if (!reader || this.busy()) return;
      this.slots[0] = null;
      void reader.worker.terminate();
    }, this.readerIdleMs);
    this.readerIdle.unref?.();
  }

  /** The export helper worker: not running, loading, or taking pages. */
  exportHelper(): 'off' | 'starting' | 'ready' {
    const helper = this.slots[1];
    return !helper ? 'off' : helper.ready ? 'ready' : 'starting';
  }

  private ensure(index: 0 | 1): Slot {
    const existing = this.slots[index];
    if (existing) return existing;
    const w = startWorker('reader-worker', import.meta.url, { file: this.file });
    w.unref();
    const slot: Slot = { worker: w, ready: false };
    w.on('message', (r: ReaderReply) => {
      if (r.ready) {
        slot.ready = true;
        return;
      }
      const handler = this.pageHandlers.get(r.id);
      if (handler) return handler.on(r);
      const p = this.waiting.get(r.id);
      if (!p) return;
      this.waiting.delete(r.id);
      p.resolve(r);
    });
    const fail = (err: Error) => {
      // A worker ended on purpose (idle) was taken out of its slot first: the requests waiting
      // then belong to its successor. Queries and cursors (`waiting`) are the reader's alone.
      const current = this.slots[index] === slot;
      if (current) this.slots[index] = null;
      if (current && index === 0) {
        for (const [id, p] of this.waiting) {
          this.waiting.delete(id);
          p.reject(err);
        }
      }
      for (const [id, h] of this.pageHandlers) if (h.slot === slot) h.on({ id, ok: false, error: err.message });
    };
    w.on('error', (err) => {
      this.logger.error({ err }, 'history reader worker failed');
      fail(err);
    });
    w.on('exit', () => fail(new Error('history reader worker stopped')));
    this.slots[index] = slot;
    return slot;
  }

  private call(req: ReaderRequest & { id: number }): Promise<ReaderReply> {
    const w = this.ensure(0).worker;
    return new Promise<ReaderReply>((resolve, reject) => {
      this.waiting.set(req.id, { resolve, reject });
      w.postMessage(req);
    })
      .finally(() => this.readerDone())
      .then((r) => {
        if (!r.ok) throw new Error(r.error ?? 'history reader failed');
        return r;
      });
  }

  /**
   * A query's JSON. `release` gives the body's memory back to the worker that wrote it, to write the
   * next answer into: call it once the body has been sent (after it, `body` is empty). A 7-day
   * `every=1` answer is ~9 MB; a fresh buffer per request cost the worker its page faults and the
   * HTTP thread a garbage collection to free it, more than writing the JSON itself.
   */
  async query(query: HistoryQuery, cutoff: number, pretty: boolean): Promise<{ body: Buffer; widthSeconds?: number; release: () => void }> {
    const slot = this.ensure(0);
    const r = await this.call({ op: 'query', id: this.nextId++, query, cutoff, pretty });
    const buffer = r.body?.buffer as ArrayBuffer | undefined;
    const release = () => {
      if (buffer && buffer.byteLength > 0 && this.slots[0] === slot) slot.worker.postMessage({ op: 'query-spare', buffer } satisfies ReaderRequest, [buffer]);
    };
    return { body: r.body ? toBuffer(r.body) : Buffer.from('[]'), widthSeconds: r.widthSeconds, release };
  }

  /** The export (every sample, or thinned with `every`) as a Readable. */
  exportStream(format: ExportFormat, every: number | undefined, cutoff: number): Readable {
    return every === undefined ? this.sampleExport(format, cutoff) : this.thinnedExport(format, every, cutoff);
  }

  /**
   * Every sample, in pages of EXPORT_PAGE_ROWS written by the workers. A worker first answers
   * where its page ends, so the next page goes to the other worker at once if it is free (else to
   * whichever finishes first); pages are sent in order, at most PAGES_AHEAD held. Memory stays a
   * few pages (about 1.6 MB each in JSON).
   */
  private sampleExport(format: ExportFormat, cutoff: number): Readable {
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the Readable's own `this` is needed below
    const pool = this;
    interface Chunk {
      data: Buffer;
      slot: Slot;
    }
    interface Page {
      id: number;
      chunks: Chunk[];
      done: boolean;
    }
    /** Chunks pushed and not given back yet: where each ends in the stream, and its worker. */
    const sent: Array<{ end: number; buffer: ArrayBuffer; slot: Slot }> = [];
    let pushed = 0;
    const pages: Page[] = [];
    /** Where the next page starts (null while the previous page's end is not known yet). */
    let nextAfter: number | null = cutoff - 1;
    /**
     * The workers writing a page of this export now. Each gets one page at a time, the next as
     * soon as it is free: a page queued behind a busy worker would leave the other one idle.
     */
    const writing = new Set<Slot>();
    let lastRequested = false;
    let pageNo = 0;
    let started = false;
    let ended = false;
    let closed = false;
    let wanted = false;
    this.exportStarted();

    const stream = new Readable({
      highWaterMark: 1 << 20,
      read() {
        wanted = true;
        pump();
      },
      destroy(err, cb) {
        if (!closed) {
          closed = true;
          for (const p of pages) pool.forgetPage(p.id);
          pool.exportFinished();
        }
        cb(err);
      },
    });

    const request = () => {
      while (!closed && nextAfter !== null && !lastRequested && pages.length < PAGES_AHEAD) {
        const first = pageNo === 0;
        const slot = pool.slotForPage(first, writing);
        if (!slot) return;
        writing.add(slot);
        pageNo++;
        const page: Page = { id: pool.nextId++, chunks: [], done: false };
        pages.push(page);
        const after = nextAfter;
        nextAfter = null;
        pool.pageHandlers.set(page.id, {
          slot,
          on(r) {
            if (closed) return;
            if (!r.ok) {
              pool.forgetPage(page.id);
              stream.destroy(new Error(r.error ?? 'history reader failed'));
              return;
            }
            if (r.end !== undefined) {
              if (r.end === null) lastRequested = true;
              else nextAfter = r.end;
              request();
            }
            if (r.body) page.chunks.push({ data: toBuffer(r.body), slot });
            if (r.done) {
              page.done = true;
              pool.forgetPage(page.id);
              writing.delete(slot);
              request();
            }
            pump();
          },
        });
        slot.worker.postMessage({ op: 'export-page', id: page.id, format, after, rows: EXPORT_PAGE_ROWS, first } satisfies ReaderRequest);
      }
    };

    const push = (chunk: Buffer | string, from?: Slot): boolean => {
      pushed += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.length;
      if (from && typeof chunk !== 'string') sent.push({ end: pushed, buffer: chunk.buffer as ArrayBuffer, slot: from });
      return stream.push(chunk);
    };
    /**
     * Chunks the consumer took more than RELEASE_MARGIN bytes ago go back to their worker to be
     * written again: a pipe (the HTTP response) writes on only while the socket's queue is below
     * its high-water mark, so by then they have left the socket too.
     */
    const giveBack = () => {
      const taken = pushed - stream.readableLength;
      const back = new Map<Slot, ArrayBuffer[]>();
      while (sent.length && taken - sent[0]!.end >= RELEASE_MARGIN) {
        const { buffer, slot } = sent.shift()!;
        if (!pool.slots.includes(slot)) continue;
        const list = back.get(slot);
        if (list) list.push(buffer);
        else back.set(slot, [buffer]);
      }
      for (const [slot, buffers] of back) slot.worker.postMessage({ op: 'export-spare', buffers } satisfies ReaderRequest, buffers);
    };

    const pump = () => {
      if (closed || ended) return;
      giveBack();
      if (!started) {
        started = true;
        wanted = push(format === 'csv' ? csvHeader(undefined) : '[');
      }
      while (wanted && pages.length) {
        const head = pages[0]!;
        while (wanted && head.chunks.length) {
          const { data, slot } = head.chunks.shift()!;
          wanted = push(data, slot);
        }
        if (head.chunks.length || !head.done) break;
        pages.shift();
        request();
      }
      if (!pages.length && lastRequested) {
        ended = true;
        if (format === 'json') push(']');
        stream.push(null);
        closed = true;
        pool.exportFinished();
      }
    };

    request();
    return stream;
  }

  /**
   * The worker for an export's next page, or null while its workers are all writing one: the
   * reader for the first page; afterwards the helper too (started now, used once loaded),
   * preferred while free so the reader stays free for queries.
   */
  private slotForPage(first: boolean, writing: ReadonlySet<Slot>): Slot | null {
    const reader = this.ensure(0);
    if (first) return reader;
    const helper = this.ensure(1);
    if (helper.ready && !writing.has(helper)) return helper;
    return writing.has(reader) ? null : reader;
  }

  private forgetPage(id: number): void {
    const h = this.pageHandlers.get(id);
    if (!h) return;
    this.pageHandlers.delete(id);
    this.readerDone();
  }

  private exportStarted(): void {
    this.exportsRunning++;
    if (this.helperIdle) this.clock.clear(this.helperIdle);
    this.helperIdle = null;
  }

  private exportFinished(): void {
    if (--this.exportsRunning > 0) return;
    this.readerDone();
    // No export left: the workers let go of their spare chunk buffers.
    for (const slot of this.slots) slot?.worker.postMessage({ op: 'export-spare', buffers: [], drop: true } satisfies ReaderRequest);
    if (!this.slots[1]) return;
    this.helperIdle = this.clock.setTimeout(() => {
      this.helperIdle = null;
      const helper = this.slots[1];
      this.slots[1] = null;
      void helper?.worker.terminate();
    }, this.helperIdleMs);
    this.helperIdle.unref?.();
  }

  /**
   * A thinned (`every`) export: one cursor in the reader. While one chunk goes out to the socket
   * the worker already writes the next (one ahead, never more).
   */
  private thinnedExport(format: ExportFormat, every: number, cutoff: number): Readable {
    const id = this.nextId++;
    let opened: Promise<unknown> | null = null;
    let ahead: Promise<ReaderReply> | null = null;
    let busy = false;
    let finished = false;
    // eslint-disable-next-line @typescript-eslint/no-this-alias -- the Readable's own `this` is needed below
    const pool = this;
    // Its cursor lives in the reader: the reader stays while it is open (see readerDone).
    let cursorOpen = false;
    const closeCursor = () => {
      if (!cursorOpen) return;
      cursorOpen = false;
      pool.openCursors--;
      pool.readerDone();
    };
    const fetchNext = (): Promise<ReaderReply> => {
      if (!opened) {
        cursorOpen = true;
        pool.openCursors++;
      }
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
            if (r.done) {
              finished = true;
              closeCursor();
            } else ahead = fetchNext();
            if (r.body) this.push(toBuffer(r.body));
            if (r.done) this.push(null);
          },
          (err: Error) => this.destroy(err),
        );
      },
      destroy(err, cb) {
        const reader = pool.slots[0];
        if (!finished && reader) reader.worker.postMessage({ op: 'export-close', id } satisfies ReaderRequest);
        closeCursor();
        cb(err);
      },
    });
  }

  /**
   * Rows changed behind the workers' caches: a prune to `prunedBefore` (only what it removed is
   * forgotten), or without it an import (everything is).
   */
  invalidate(prunedBefore?: number): void {
    for (const slot of this.slots) slot?.worker.postMessage({ op: 'invalidate', prunedBefore } satisfies ReaderRequest);
  }

  async close(): Promise<void> {
    if (this.helperIdle) this.clock.clear(this.helperIdle);
    this.helperIdle = null;
    if (this.readerIdle) this.clock.clear(this.readerIdle);
    this.readerIdle = null;
    const workers = this.slots.map((s) => s?.worker);
    this.slots.fill(null);
    await Promise.all(workers.map((w) => w?.terminate()));
  }
}

const toBuffer = (u8: Uint8Array): Buffer => Buffer.from(u8.buffer, u8.byteOffset, u8.byteLength);
