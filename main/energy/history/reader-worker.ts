/** The history reader worker (reader.ts): queries and exports off the poller's thread, on a read-only connection (WAL). */
import { parentPort, workerData } from 'node:worker_threads';
import { DurableStore } from './durable-store.js';
import { exportCursor } from './export.js';
import { queryHistoryJson } from './query.js';
import type { ReaderReply, ReaderRequest } from './reader.js';

const port = parentPort!;
const store = new DurableStore((workerData as { file: string }).file, { readonly: true });
const cursors = new Map<number, ReturnType<typeof exportCursor>>();

port.on('message', (msg: ReaderRequest) => {
  const reply = (r: ReaderReply) => port.postMessage(r);
  try {
    switch (msg.op) {
      case 'query': {
        const { body, widthSeconds } = queryHistoryJson({ durable: store, cutoff: msg.cutoff, minuteCutoff: msg.minuteCutoff }, msg.query, msg.pretty);
        return reply({ id: msg.id, body, widthSeconds, done: true });
      }
      case 'export':
        cursors.set(msg.id, exportCursor({ durable: store, cutoff: msg.cutoff, format: msg.format, every: msg.every }));
        return;
      case 'next': {
        // One keyset page a message: the HTTP thread asks for the next once the socket took this one.
        const body = cursors.get(msg.id)?.next() ?? null;
        if (body === null) cursors.delete(msg.id);
        return reply({ id: msg.id, body: body ?? undefined, done: body === null });
      }
      case 'close':
        cursors.delete(msg.id);
        return;
    }
  } catch (err) {
    cursors.delete(msg.id);
    reply({ id: msg.id, error: (err as Error).message, done: true });
  }
});
