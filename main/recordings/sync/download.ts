import fs from 'node:fs';
import type { Clock, Timer } from '../../core/clock.js';
import type { FetchLike } from '../box/description.js';
import { RECORDING_SIZE_MARKER } from '../box/sizes.js';
import { assertInside, realPathInside } from '../../core/real-path.js';
import { abortScope } from '../abort-scope.js';
import { downloadUnreachable } from './box-errors.js';
import type { MediaGet, MediaResponse } from './media-get.js';

export interface DownloadRequest {
  url: string;
  /** Bytes land here (`<final path>.partial`) so a later run resumes from it. */
  partialPath: string;
  /** The partial file must really lie inside this folder when it is opened or removed. */
  mediaRoot?: string;
  get: MediaGet;
  clock: Clock;
  /** Aborts the transfer (service stop); the partial file stays for the next run. */
  signal: AbortSignal;
  /** Called about every `tickMs` while bytes flow, with the bytes on disk and the total if known. */
  onTick?: (bytesOnDisk: number, total: number | null) => void;
  tickMs?: number;
  /** No byte for this long ends the transfer as interrupted. */
  stallMs?: number;
  /** How long to wait for the response headers. */
  headersTimeoutMs?: number;
  /**
   * The listing size: a body announced or delivered longer than this is a recording still growing
   * (no marker): the transfer stops with the warning `currently recording`, keeping the bytes so far
   * (a valid prefix: the next sync resumes them).
   */
  expectedSize?: number;
}

/** What one download attempt produced, before classification. */
export interface DownloadResult {
  /** The body started to land on disk (a later drop leaves a shorter file, not a failure). */
  recorded: boolean;
  /** Size of the partial file after the attempt; null when the size check failed. */
  actualSize: number | null;
  /** Total announced by the box for this transfer (Content-Range total or Content-Length). */
  announcedSize: number | null;
  /** Not recorded: why. Recorded: the transfer was cut short (kept for the log). */
  error?: string;
  /** Not recorded, nothing wrong: e.g. the GET says the item is still being recorded. */
  warning?: string;
  resumedFrom: number;
  /** The box answered a Range with 200, so the file started over. */
  restarted: boolean;
  /** The body outgrew the listing size: still being recorded. */
  grew?: boolean;
}

export const STILL_RECORDING = 'currently recording';

/** Write-only, created when missing, never through a symlink (O_NOFOLLOW where the platform has it). */
const OPEN_FLAGS = fs.constants.O_WRONLY | fs.constants.O_CREAT | (fs.constants.O_NOFOLLOW ?? 0);

function fileSize(file: string): number {
  try {
    return fs.statSync(file).size;
  } catch {
    return 0;
  }
}

function describe(err: unknown): string {
  if (err instanceof Error) {
    const cause = (err as Error & { cause?: unknown }).cause;
    const detail = cause instanceof Error && cause.message && cause.message !== err.message ? ` (${cause.message})` : '';
    return `${err.message}${detail}`;
  }
  return String(err);
}

/** A write error as a user can act on it (a full disk says so). */
function writeFailure(file: string, err: unknown): string {
  const code = (err as { code?: string }).code;
  if (code === 'ENOSPC' || code === 'EDQUOT') return `the disk is full: cannot write ${file} (${code}); free up space there, the next sync resumes`;
  if (code === 'EACCES' || code === 'EPERM' || code === 'EROFS') return `cannot write ${file} (${code}): check that the app may write to the media root`;
  return `cannot write ${file}: ${describe(err)}`;
}

/** Content-Length of a HEAD, or null when the probe fails or has none. */
export async function probeContentLength(fetchFn: FetchLike, url: string, signal: AbortSignal, timeoutMs = 10_000): Promise<number | null> {
  const scope = abortScope(signal, timeoutMs);
  try {
    const res = await fetchFn(url, { method: 'HEAD', signal: scope.signal });
    await res.body?.cancel();
    if (!res.ok) return null;
    const len = res.headers.get('content-length');
    return len !== null && /^\d+$/.test(len) ? Number(len) : null;
  } catch {
    return null;
  } finally {
    scope.dispose();
  }
}

/**
 * Streams one item to its partial file with bounded memory. An existing partial file is resumed
 * with `Range: bytes=N-`: 206 appends, 200 starts over, 416 with a matching total means complete.
 */
export async function downloadToPartial(req: DownloadRequest): Promise<DownloadResult> {
  const resumedFrom = fileSize(req.partialPath);
  const controller = new AbortController();
  const onStop = () => controller.abort(req.signal.reason);
  req.signal.addEventListener('abort', onStop, { once: true });
  const headersTimer = req.clock.setTimeout(() => controller.abort(new Error(`no answer within ${Math.round((req.headersTimeoutMs ?? 30_000) / 1000)} s`)), req.headersTimeoutMs ?? 30_000);
  let tick: Timer | undefined;
  try {
    let res: MediaResponse;
    try {
      res = await req.get(req.url, { headers: resumedFrom > 0 ? { range: `bytes=${resumedFrom}-` } : {}, signal: controller.signal });
    } catch (err) {
      return { recorded: false, actualSize: null, announcedSize: null, error: downloadUnreachable(req.url, err), resumedFrom, restarted: false };
    } finally {
      req.clock.clear(headersTimer);
    }

    const length = res.header('content-length');
    const contentLength = length !== null && /^\d+$/.test(length) ? Number(length) : null;
    if (res.status === 416) {
      res.cancel();
      const total = Number(/\/(\d+)$/.exec(res.header('content-range') ?? '')?.[1] ?? NaN);
      if (resumedFrom > 0 && total === resumedFrom) {
        return { recorded: true, actualSize: resumedFrom, announcedSize: total, resumedFrom, restarted: false };
      }
      if (req.mediaRoot === undefined || realPathInside(req.mediaRoot, req.partialPath)) fs.rmSync(req.partialPath, { force: true });
      return { recorded: false, actualSize: null, announcedSize: null, error: `the box refused the resume range (HTTP 416); the next sync starts over`, resumedFrom, restarted: false };
    }
    if (res.status !== 200 && res.status !== 206) {
      res.cancel();
      return { recorded: false, actualSize: null, announcedSize: null, error: `the box answered HTTP ${res.status} for ${new URL(req.url).pathname} — the next sync tries again`, resumedFrom, restarted: false };
    }
    if (contentLength === RECORDING_SIZE_MARKER) {
      res.cancel();
      return { recorded: false, actualSize: null, announcedSize: null, warning: 'currently recording', resumedFrom, restarted: false };
    }
    let append = false;
    let announcedSize = contentLength;
    if (res.status === 206) {
      const m = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(res.header('content-range') ?? '');
      if (!m || Number(m[1]) !== resumedFrom) {
        res.cancel();
        return { recorded: false, actualSize: null, announcedSize: null, error: 'the box answered the resume with a range that does not match the partial file', resumedFrom, restarted: false };
      }
      append = true;
      announcedSize = m[3] === '*' ? null : Number(m[3]);
    }
    const restarted = resumedFrom > 0 && !append;
    const limit = req.expectedSize !== undefined && req.expectedSize > 0 ? req.expectedSize : Infinity;
    const announcedTotal = append ? announcedSize : contentLength;
    if (announcedTotal !== null && announcedTotal > limit) {
      res.cancel();
      return { recorded: false, actualSize: null, announcedSize: announcedTotal, warning: STILL_RECORDING, grew: true, resumedFrom, restarted: false };
    }

    let written = append ? resumedFrom : 0;
    let lastTickBytes = written;
    let lastProgressAt = req.clock.now();
    const stallMs = req.stallMs ?? 60_000;
    tick = req.clock.setInterval(() => {
      const now = req.clock.now();
      if (written !== lastTickBytes) {
        lastTickBytes = written;
        lastProgressAt = now;
      } else if (now - lastProgressAt > stallMs) {
        controller.abort(new Error(`no data from the box for ${Math.round(stallMs / 1000)} s`));
      }
      req.onTick?.(written, announcedSize);
    }, req.tickMs ?? 250);
    req.onTick?.(written, announcedSize);

    // Synchronous writes from the data handler: on a 2-core box they beat a write stream (thread-pool
    // hops) by ~50% in throughput. The service runs this on its download thread (download-thread.ts),
    // so a write the kernel holds back while it flushes never holds up the service's event loop.
    let fd: number;
    try {
      // At the moment of opening: inside the media root by its real path, and never through a symlink.
      if (req.mediaRoot !== undefined) assertInside(req.mediaRoot, req.partialPath, 'the media root');
      fd = fs.openSync(req.partialPath, OPEN_FLAGS | (append ? fs.constants.O_APPEND : fs.constants.O_TRUNC));
    } catch (err) {
      res.cancel();
      return { recorded: false, actualSize: null, announcedSize, error: writeFailure(req.partialPath, err), resumedFrom, restarted };
    }
    let writeError: unknown;
    let grew = false;
    const ended = await res.consume((chunk, start, stop) => {
      if (writeError || grew) return;
      try {
        // Never past the listing size: more bytes mean a recording still growing (or a hostile box).
        const end = Math.min(stop, start + Math.max(0, limit - written));
        for (let off = start; off < end; ) off += fs.writeSync(fd, chunk, off, end - off);
        written += end - start;
        if (end < stop) {
          grew = true;
          res.cancel();
        }
      } catch (err) {
        writeError = err;
        res.cancel();
      }
    });
    const interruption = writeError ? describe(writeError) : ended.complete ? undefined : (ended.error ?? 'the box closed the connection early');
    fs.closeSync(fd);
    if (writeError) {
      return { recorded: false, actualSize: null, announcedSize, error: writeFailure(req.partialPath, writeError), resumedFrom, restarted };
    }
    if (grew) return { recorded: false, actualSize: null, announcedSize, warning: STILL_RECORDING, grew: true, resumedFrom, restarted };
    let actualSize: number | null;
    try {
      actualSize = fs.statSync(req.partialPath).size;
    } catch {
      actualSize = null;
    }
    return { recorded: true, actualSize, announcedSize, error: interruption ? `transfer interrupted: ${interruption}` : undefined, resumedFrom, restarted };
  } finally {
    req.clock.clear(headersTimer);
    if (tick) req.clock.clear(tick);
    req.signal.removeEventListener('abort', onStop);
  }
}
