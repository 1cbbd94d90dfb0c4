/**
 * Reads sigen-home-bridge's history.json on a thread of its own while the import worker inserts
 * the rows it has already read (import-json.ts `sigenJsonRows`): parsing a week of rows costs about
 * 0.7 s of CPU and inserting them twice that, and one after the other they took over 3 s. The rows
 * go over as chunks of records (sample-stage.ts), the parse at most MAX_AHEAD chunks ahead of the
 * inserts (a few MB, once a row with a power value has been read), waiting on a shared counter
 * when it is. Messages (SigenJsonMessage):
 * `rows` with the counts so far, then `end` with the final counts, or `damaged` (the file is not one
 * JSON array: the import worker reads it whole instead, salvaging what it can) or `failed`.
 */
import { parentPort, receiveMessageOnPort, workerData, type MessagePort } from 'node:worker_threads';
import { JsonArrayError } from './json-array-stream.js';
import { readJsonRows, type JsonRowCounts } from './json-rows.js';
import { encodeRecord, RECORD_WIDTH } from './sample-stage.js';

export type SigenJsonMessage =
  | { type: 'rows'; data: Float64Array<ArrayBuffer>; count: number; counts: JsonRowCounts }
  | { type: 'end'; counts: JsonRowCounts }
  | { type: 'damaged' | 'failed'; message: string };

/** Records per chunk. */
export const CHUNK_RECORDS = 8192;
/** Chunks posted and not yet taken, at most (8 × 720 KB). */
const MAX_AHEAD = 8;

const { file, cutoff, ahead: shared, returned } = workerData as { file: string; cutoff: number; ahead: SharedArrayBuffer; returned: MessagePort };
const port = parentPort!;
/** [0]: chunks posted and not yet taken by the import worker (it decrements and notifies). */
const ahead = new Int32Array(shared);
const counts: JsonRowCounts = { rows: 0, withPower: 0, inRetention: 0, unreadable: 0, bytes: 0 };
/**
 * Chunks the import worker has decoded come back on `returned` to be filled again: a new 720 KB
 * buffer per chunk, freed in the other thread whenever its collector got to it, held 40 MB more.
 */
const spare: Array<Float64Array<ArrayBuffer>> = [];
const nextChunk = (): Float64Array<ArrayBuffer> => {
  for (let m = receiveMessageOnPort(returned); m; m = receiveMessageOnPort(returned)) spare.push(m.message as Float64Array<ArrayBuffer>);
  return spare.pop() ?? new Float64Array(CHUNK_RECORDS * RECORD_WIDTH);
};
let chunk = nextChunk();
let held = 0;

const post = () => {
  if (!held) return;
  Atomics.add(ahead, 0, 1);
  const m: SigenJsonMessage = { type: 'rows', data: chunk, count: held, counts: { ...counts } };
  port.postMessage(m, [chunk.buffer]);
  held = 0;
  // Then wait while too far ahead. The import worker takes nothing before the chunk that holds the
  // first row with a power value has gone over (a file without one is refused untouched): until
  // then the chunks go over without waiting.
  if (counts.withPower > 0) for (let n = Atomics.load(ahead, 0); n >= MAX_AHEAD; n = Atomics.load(ahead, 0)) Atomics.wait(ahead, 0, n);
  chunk = nextChunk();
};

try {
  readJsonRows(
    file,
    'sigen-json',
    cutoff,
    {
      push(t, values) {
        encodeRecord(chunk, held, t, values);
        if (++held === CHUNK_RECORDS) post();
      },
    },
    counts,
  );
  post();
  port.postMessage({ type: 'end', counts } satisfies SigenJsonMessage);
} catch (err) {
  port.postMessage({ type: err instanceof JsonArrayError ? 'damaged' : 'failed', message: (err as Error).message } satisfies SigenJsonMessage);
}
