import fs from 'node:fs';
import { startWorker } from '../../core/worker.js';
import { readJsonArray } from './json-array-stream.js';
import { jsonRowTaker, type JsonRowCounts } from './json-rows.js';
import type { LegacyHalfMessage } from './legacy-json-worker.js';
import { SampleStage } from './sample-stage.js';

/**
 * Our own legacy JSON file read and checked whole, in two halves on two threads when it is large
 * (SPLIT_BYTES): parsing and checking a week of rows took about 1 s of the import's 3.3 s, and the
 * file must be read to its end before any row is inserted (a malformed file is never half-imported),
 * so it cannot overlap with the inserts as sigen-home-bridge's file does.
 *
 * Near the middle of the file, `}` `,` `{` (whitespace allowed around the comma) marks what may be
 * the boundary between two entries. A second thread (legacy-json-worker.ts) reads from its `{` to
 * the end of the file into a stage of its own, while this thread reads from the start, its windows
 * stopping exactly at that comma (json-array-stream.ts `pauseAt`). The boundary is real only if
 * this thread's read ends whole entries exactly there: then the text after the comma is the rest of
 * the array, the second half's rows follow the first's (the stage read second) and its counts add
 * up. Otherwise (the `}` was inside a string, say, or the windows gave way to the byte scanner
 * before reaching it), or when the second thread failed for any reason (a bad entry, a broken
 * array), its work is thrown away and this thread reads on alone from where it is: the rows and
 * the errors, with their entry numbers, are exactly those of one reader.
 */

/** Files from this size on are read in two halves. */
export const SPLIT_BYTES = 8 << 20;
/** Bytes searched for the boundary, from the middle of the file on (an entry is at most 64 KiB). */
const SEARCH_BYTES = 128 * 1024;
/**
 * Where the second part starts, as a share of the file's size: past the middle, as the second
 * thread starts later (a new thread, about 0.25 s to its first line when run from the .ts sources
 * through tsx) and reads no faster; at 0.5 this thread waited 0.2–0.3 s for it, at 0.65 not at all.
 */
const SPLIT_AT = 0.65;

/** Where the second half may start: `pauseAt` the comma between two entries, `from` the next one's `{`. */
export function halfBoundary(file: string, size: number): { pauseAt: number; from: number } | null {
  const mid = Math.floor(size * SPLIT_AT);
  const buf = Buffer.allocUnsafe(Math.min(SEARCH_BYTES, size - mid));
  const fd = fs.openSync(file, 'r');
  let n = 0;
  try {
    for (let got = 1; n < buf.length && got > 0; n += got) got = fs.readSync(fd, buf, n, buf.length - n, mid + n);
  } finally {
    fs.closeSync(fd);
  }
  const ws = (c: number | undefined) => c === 0x20 || c === 0x0a || c === 0x0d || c === 0x09;
  for (let at = buf.indexOf(0x7d); at >= 0 && at < n; at = buf.indexOf(0x7d, at + 1)) {
    let k = at + 1;
    while (k < n && ws(buf[k])) k++;
    if (buf[k] !== 0x2c) continue;
    const comma = k++;
    while (k < n && ws(buf[k])) k++;
    if (k < n && buf[k] === 0x7b) return { pauseAt: mid + comma, from: mid + k };
  }
  return null;
}

/** What reading the file into `first` (and a second stage) found; `second` holds the rows after `first`'s, if any. */
export interface LegacyRead {
  counts: JsonRowCounts;
  second: SampleStage | null;
}

/**
 * Reads and checks our own legacy JSON `file` into `first` (see the top of this file), keeping the
 * rows at or after `cutoff`; throws what one reader would throw. Rows after `first`'s may be left
 * in `second` (the caller closes it): it is in the file's order, `first`'s rows then `second`'s.
 * The second thread has stopped when this returns or throws.
 */
export async function readLegacyJson(file: string, cutoff: number, first: SampleStage, splitBytes = SPLIT_BYTES): Promise<LegacyRead> {
  const counts: JsonRowCounts = { rows: 0, withPower: 0, inRetention: 0, unreadable: 0, bytes: 0 };
  const take = jsonRowTaker('legacy-json', cutoff, first, counts);
  const size = fs.statSync(file).size;
  const boundary = size >= splitBytes ? halfBoundary(file, size) : null;
  if (!boundary) {
    for (const batch of readJsonArray(file)) take(batch);
    first.flush();
    return { counts, second: null };
  }
  const second = new SampleStage();
  const helper = startWorker('legacy-json-worker', import.meta.url, { file, cutoff, from: boundary.from, fd: second.fd }, { maxYoungGenerationSizeMb: 16 });
  const heard = new Promise<LegacyHalfMessage | null>((resolve) => {
    helper.on('message', (m: LegacyHalfMessage) => resolve(m));
    helper.on('error', () => resolve(null));
    helper.on('exit', () => resolve(null));
  });
  let used = false;
  try {
    const batches = readJsonArray(file, { pauseAt: boundary.pauseAt });
    for (let next = batches.next(); !next.done; next = batches.next()) {
      take(next.value);
      if (!next.value.paused) continue;
      const half = await heard;
      if (half?.type !== 'end') continue; // read on alone
      batches.return(undefined);
      first.flush();
      // The second thread has flushed and stopped writing; its file is this thread's to read.
      await helper.terminate();
      second.adopt(half.count, half.present);
      for (const k of ['rows', 'withPower', 'inRetention', 'unreadable'] as const) counts[k] += half.counts[k];
      counts.bytes = half.counts.bytes;
      used = true;
      return { counts, second };
    }
    first.flush();
    return { counts, second: null };
  } finally {
    // Stopped before its stage is closed: it writes into that file.
    await helper.terminate();
    if (!used) second.close();
  }
}
