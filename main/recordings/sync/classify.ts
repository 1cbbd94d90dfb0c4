import type { RecordingStatus } from '../store/recordings-store.js';
import type { DownloadResult } from './download.js';

export type SummaryCounter = 'downloaded' | 'failed' | 'skipped';

/** The spec's outcome classification of one download, as data the engine writes. */
export interface Classification {
  status: RecordingStatus;
  counter: SummaryCounter;
  /** `undefined`: leave the stored size alone; `null`: store null. */
  size: number | null | undefined;
  error: string | null;
  /** The file is complete: move the partial file to its final name. */
  complete: boolean;
}

export const DEFAULT_SIZE_TOLERANCE = 1024 * 1024;

/**
 * | recorded, shortfall <= tolerance        | done    | downloaded | actual size   |
 * | recorded, shortfall > tolerance         | partial | failed     | actual size   | byte gap named |
 * | recorded, actual size unknown           | done    | downloaded | expected size |
 * | recorded, expected size <= 0            | done    | downloaded | actual size   |
 * | not recorded, error                     | failed  | failed     | left alone    | the error |
 * | not recorded, warning                   | partial | skipped    | left alone    | the warning |
 * Counters the spec leaves open ("not shown") count as `downloaded`.
 */
export function classifyDownload(result: Pick<DownloadResult, 'recorded' | 'actualSize' | 'error' | 'warning'>, expectedSize: number, tolerance = DEFAULT_SIZE_TOLERANCE): Classification {
  if (!result.recorded) {
    if (result.error !== undefined || result.warning === undefined) {
      return { status: 'failed', counter: 'failed', size: undefined, error: result.error ?? 'download failed', complete: false };
    }
    return { status: 'partial', counter: 'skipped', size: undefined, error: result.warning, complete: false };
  }
  if (expectedSize <= 0) {
    return { status: 'done', counter: 'downloaded', size: result.actualSize ?? undefined, error: null, complete: true };
  }
  if (result.actualSize === null) {
    return { status: 'done', counter: 'downloaded', size: expectedSize, error: null, complete: true };
  }
  const shortfall = expectedSize - result.actualSize;
  if (shortfall <= tolerance) {
    return { status: 'done', counter: 'downloaded', size: result.actualSize, error: null, complete: true };
  }
  const cause = result.error ? ` (${result.error})` : '';
  return {
    status: 'partial',
    counter: 'failed',
    size: result.actualSize,
    error: `short by ${shortfall} bytes: got ${result.actualSize} of ${expectedSize}${cause}; the next sync resumes`,
    complete: false,
  };
}

/**
 * Sync-level status: any `failed` count (truncations included) makes the run `partial`; so does an
 * item skipped because it would not fit on the disk (`no_space`), which needs the user.
 */
export function overallStatus(summary: { failed: number; no_space?: number }): 'ok' | 'partial' {
  return summary.failed > 0 || (summary.no_space ?? 0) > 0 ? 'partial' : 'ok';
}
