/**
 * The second half of our own legacy JSON file, read on a thread of its own (legacy-json-halves.ts):
 * from `from`, the first byte of what looks like an entry near the middle of the file, to its end,
 * checked as the import worker checks the first half, into the stage whose file the import worker
 * opened (`fd`; it owns and closes it, after this thread has stopped). Posts one message
 * (LegacyHalfMessage): `end` with what it read, or `failed` — whatever went wrong, the import worker
 * reads that part again itself, so its error is the one a single reader gives, numbered file-wide.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { readJsonArray } from './json-array-stream.js';
import { jsonRowTaker, type JsonRowCounts } from './json-rows.js';
import { StageWriter } from './sample-stage.js';

export type LegacyHalfMessage = { type: 'end'; counts: JsonRowCounts; count: number; present: boolean[] } | { type: 'failed'; message: string };

const { file, cutoff, from, fd } = workerData as { file: string; cutoff: number; from: number; fd: number };
const port = parentPort!;
try {
  const stage = new StageWriter(fd);
  const counts: JsonRowCounts = { rows: 0, withPower: 0, inRetention: 0, unreadable: 0, bytes: 0 };
  const take = jsonRowTaker('legacy-json', cutoff, stage, counts);
  for (const batch of readJsonArray(file, { from })) take(batch);
  stage.flush();
  port.postMessage({ type: 'end', counts, count: stage.count, present: stage.present } satisfies LegacyHalfMessage);
} catch (err) {
  port.postMessage({ type: 'failed', message: (err as Error).message } satisfies LegacyHalfMessage);
}
