/**
 * The history reader worker: answers history queries and produces exports on a thread of its own,
 * with its own read-only SQLite connection (WAL), so a 7-day `every=1` query or a full export never
 * holds up the event loop that runs the poller and the event stream. See reader-pool.ts.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { systemClock } from '../../core/clock.js';
import { DurableStore } from './durable-store.js';
import { exportCursor, exportPageEnd, writeExportPage } from './export.js';
import { DEFAULT_CHUNK_BYTES, ExportRowWriter } from './export-rows.js';
import { MemoryWindow } from './memory-window.js';
import { queryHistoryJson } from './query.js';
import type { ReaderReply, ReaderRequest } from './reader-pool.js';

const port = parentPort!;
/** How long the read caches outlive the last downsampled read (a dashboard asks every few seconds). */
const CACHE_IDLE_MS = 120_000;
// The cached rollup minutes go once downsampled reads stop (idle memory).
const store = new DurableStore((workerData as { file: string }).file, { readonly: true, cacheIdle: { clock: systemClock, ms: CACHE_IDLE_MS } });
// The durable copy holds every sample (the memory window is only its newest part).
const noMemory = new MemoryWindow(1);
const cursors = new Map<number, ReturnType<typeof exportCursor>>();

/** Export text handed over per message: a few pages, so a message is neither tiny nor huge. */
const CHUNK_CHARS = 128 * 1024;
const encoder = new TextEncoder();

/** Text as UTF-8 bytes in a buffer of their own, handed over without a copy (transferred). */
function bytes(text: string): Uint8Array {
  return encoder.encode(text);
}

/** Bytes in an ArrayBuffer of their own (so transferring it moves nothing else); copied when shared. */
function owned(buf: Uint8Array): Uint8Array {
  return buf.byteOffset === 0 && buf.byteLength === buf.buffer.byteLength ? buf : new Uint8Array(buf);
}

/**
 * Chunk buffers the HTTP thread gave back once sent (see reader-pool.ts): reused, so a long export
 * does not leave a trail of freed megabytes for the garbage collectors of two threads.
 */
const spare: ArrayBuffer[] = [];
const MAX_SPARE = 6;
const chunkBuffer = (bytes: number): Buffer => {
  const b = spare.pop();
  return b && b.byteLength >= bytes ? Buffer.from(b) : Buffer.allocUnsafeSlow(bytes);
};

/** Query answers' buffers the HTTP thread gave back once sent: the next answer is written into one. */
const querySpare: ArrayBuffer[] = [];
const MAX_QUERY_SPARE = 2;
const queryBuffer = (bytes: number): Uint8Array => {
  const i = querySpare.findIndex((b) => b.byteLength >= bytes);
  return i >= 0 ? new Uint8Array(querySpare.splice(i, 1)[0]!) : new Uint8Array(bytes);
};

port.on('message', (msg: ReaderRequest) => {
  const reply = (r: ReaderReply) => port.postMessage(r, r.body ? [r.body.buffer as ArrayBuffer] : []);
  try {
    switch (msg.op) {
      case 'query': {
        const { body, widthSeconds } = queryHistoryJson({ memory: noMemory, durable: store, cutoff: msg.cutoff }, msg.query, msg.pretty, queryBuffer);
        reply({ id: msg.id, ok: true, body, widthSeconds });
        return;
      }
      case 'export-open':
        cursors.set(msg.id, exportCursor({ durable: store, cutoff: msg.cutoff, format: msg.format, every: msg.every }));
        reply({ id: msg.id, ok: true });
        return;
      case 'export-page': {
        // Where this page ends goes out first, so the next page can start on another worker while
        // this one is written; then the page's bytes, a chunk (about 1 MiB) a message, each in an
        // ArrayBuffer of its own (ExportRowWriter allocates one per chunk), transferred.
        const end = exportPageEnd(store, msg.after, msg.rows);
        port.postMessage({ id: msg.id, ok: true, end } satisfies ReaderReply);
        const writer = new ExportRowWriter(msg.format, (chunk) => reply({ id: msg.id, ok: true, body: chunk }), { firstRow: msg.first, allocate: chunkBuffer });
        writeExportPage(store, writer, msg.after, end, msg.rows);
        writer.flush();
        reply({ id: msg.id, ok: true, done: true });
        return;
      }
      case 'export-next': {
        const cursor = cursors.get(msg.id);
        if (!cursor) throw new Error('export not open');
        let chunk = '';
        let done = false;
        let body: Uint8Array | undefined;
        while (chunk.length < CHUNK_CHARS) {
          const next = cursor.next();
          if (next === null) {
            done = true;
            break;
          }
          if (typeof next !== 'string') {
            // A page written as bytes already: handed over as it is (one page a message).
            body = chunk ? new Uint8Array(Buffer.concat([Buffer.from(chunk), next])) : owned(next);
            chunk = '';
            break;
          }
          chunk += next;
        }
        if (done) cursors.delete(msg.id);
        reply({ id: msg.id, ok: true, body: body ?? (chunk ? bytes(chunk) : undefined), done });
        return;
      }
      case 'export-spare':
        // Chunks the HTTP thread has sent on: their memory is written again instead of freed.
        for (const b of msg.buffers) if (spare.length < MAX_SPARE && b.byteLength >= DEFAULT_CHUNK_BYTES) spare.push(b);
        if (msg.drop) spare.length = 0;
        return;
      case 'query-spare':
        if (querySpare.length < MAX_QUERY_SPARE) querySpare.push(msg.buffer);
        else querySpare.sort((a, b) => a.byteLength - b.byteLength).splice(0, 1, msg.buffer); // keep the larger ones
        return;
      case 'export-close':
        cursors.delete(msg.id);
        return;
      case 'invalidate':
        if (msg.prunedBefore === undefined) store.resetCache();
        else store.prunedBefore(msg.prunedBefore);
        return;
    }
  } catch (err) {
    if ('id' in msg) reply({ id: msg.id, ok: false, error: (err as Error).message });
  }
});

// Loaded (with its SQLite connection open): the pool may now share export pages out to this worker.
port.postMessage({ id: 0, ok: true, ready: true } satisfies ReaderReply);
