import path from 'node:path';
import { invalid } from '../../core/errors.js';
import { IMPORT_CAPS, ImportFileRefused, readImportText } from '../../core/import-file.js';
import type { ImportJob } from '../history/index.js';
import { readSigenJson, summarizeSigenDb } from './sigen-history.js';

/** What the preview tells about one history file. */
export interface HistoryFilePreview {
  file: string;
  format: ImportJob['format'];
  rows: number;
  firstT: number | null;
  lastT: number | null;
  unreadable: number;
  withoutPower: number;
  damage: string | null;
}

/** The same, with its rows older than the retention (counted for the first file only). */
export type HistoryFileSummary = HistoryFilePreview & { older: number };

/**
 * One history file's counts. A file that may not be read (not a regular file, too large, a
 * `samples` that is not a table) is a 400 naming `field`; a missing one counts as damaged.
 */
export function previewHistoryFile(job: ImportJob, cutoff: number, field: string): HistoryFileSummary {
  try {
    return previewHistoryRead(job, cutoff);
  } catch (err) {
    if (!(err instanceof ImportFileRefused)) throw err;
    if (/is missing or cannot be read$/.test(err.message)) {
      return { file: job.file, format: job.format, rows: 0, firstT: null, lastT: null, unreadable: 0, withoutPower: 0, damage: 'missing or cannot be read', older: 0 };
    }
    throw invalid(field, err.message);
  }
}

function previewHistoryRead(job: ImportJob, cutoff: number): HistoryFileSummary {
  if (job.format === 'sigen-db') {
    const { rows, firstT, lastT, older, unreadable, withoutPower, damage } = summarizeSigenDb(job.file, cutoff);
    return { file: job.file, format: job.format, rows, firstT, lastT, unreadable, withoutPower, damage, older };
  }
  const read = readSigenJson(readImportText(job.file, { maxBytes: IMPORT_CAPS.historyJson }, path.basename(job.file)));
  let firstT: number | null = null;
  let lastT: number | null = null;
  let older = 0;
  for (const s of read.samples) {
    if (firstT === null || s.t < firstT) firstT = s.t;
    if (lastT === null || s.t > lastT) lastT = s.t;
    if (s.t < cutoff) older++;
  }
  return { file: job.file, format: job.format, rows: read.samples.length, firstT, lastT, unreadable: read.unreadable, withoutPower: read.withoutPower, damage: read.damage, older };
}

