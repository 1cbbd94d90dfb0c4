/**
 * The download thread: runs `downloadToPartial` (socket reads and the synchronous writes to the
 * partial file) on a thread of its own, so a multi-GB transfer, and the kernel holding writes back
 * while it flushes dirty pages, never holds up the event loop that serves the pages, the event
 * stream and the energy bridge's poller. See download-thread.ts.
 */
import { parentPort } from 'node:worker_threads';
import { systemClock } from '../../core/clock.js';
import { downloadToPartial } from './download.js';
import type { FromDownloadThread, ToDownloadThread } from './download-thread.js';
import { defaultMediaGet } from './media-get.js';

const port = parentPort!;
const running = new Map<number, AbortController>();
const post = (m: FromDownloadThread) => port.postMessage(m);

port.on('message', (msg: ToDownloadThread) => {
  if (msg.op === 'abort') {
    running.get(msg.id)?.abort(new Error(msg.reason));
    return;
  }
  const { id, job } = msg;
  const controller = new AbortController();
  running.set(id, controller);
  downloadToPartial({
    ...job,
    get: defaultMediaGet,
    clock: systemClock,
    signal: controller.signal,
    onTick: (bytes, total) => post({ op: 'tick', id, bytes, total }),
  })
    .then(
      (result) => post({ op: 'done', id, result }),
      (err: unknown) => post({ op: 'failed', id, error: err instanceof Error ? err.message : String(err) }),
    )
    .finally(() => running.delete(id));
});
post({ op: 'ready' });
