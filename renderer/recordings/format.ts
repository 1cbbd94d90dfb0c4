import type { AdStatus, Recording, RecordingStatus } from './types.js';

/** Sizes in decimal units, as the box and download tools show them. */
export function formatBytes(n: number | null | undefined): string {
  if (n === null || n === undefined || n < 0) return '—';
  if (n >= 1e9) return `${(n / 1e9).toFixed(2)} GB`;
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)} MB`;
  if (n >= 1e3) return `${Math.round(n / 1e3)} kB`;
  return `${n} B`;
}

const formatters = new Map<string, Intl.DateTimeFormat>();

/** A timestamp in the service's configured time zone (`tz` from the settings), e.g. "22 Nov 2026, 9:05 pm". */
export function formatInZone(iso: string | null | undefined, tz: string | undefined): string {
  if (!iso) return '—';
  const key = tz ?? '';
  let f = formatters.get(key);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone: tz });
    } catch {
      f = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
    }
    formatters.set(key, f);
  }
  return f.format(new Date(iso));
}

export const STATUS_LABEL: Record<RecordingStatus, string> = {
  done: 'done',
  downloading: 'downloading',
  partial: 'partial',
  skipped: 'skipped',
  failed: 'failed',
};

export const AD_LABEL: Record<AdStatus, string> = {
  unscanned: 'not scanned',
  scanning: 'scanning',
  detected: 'breaks found',
  no_breaks: 'no breaks',
  marked: 'marked',
  cut: 'ads cut',
  detect_failed: 'scan failed',
  mark_failed: 'mark failed',
  cut_failed: 'cut failed',
};

/** A row's ad state in words: a marked recording says how many breaks it marked ("marked (3 breaks)"). */
export function adLabel(r: Pick<Recording, 'ad_status' | 'ad_breaks_json'>): string {
  const label = AD_LABEL[r.ad_status] ?? r.ad_status;
  if (r.ad_status !== 'marked') return label;
  let n: number | null = null;
  try {
    const parsed: unknown = JSON.parse(r.ad_breaks_json ?? 'null');
    if (Array.isArray(parsed)) n = parsed.length;
  } catch {
    // unreadable: the plain label
  }
  return n === null ? label : `${label} (${n} ${n === 1 ? 'break' : 'breaks'})`;
}

/** "S01E02" (or "S01", or nothing) for a row. */
export function episodeLabel(r: Pick<Recording, 'season' | 'episode'>): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  if (r.season !== null && r.episode !== null) return `S${pad(r.season)}E${pad(r.episode)}`;
  if (r.season !== null) return `S${pad(r.season)}`;
  if (r.episode !== null) return `E${pad(r.episode)}`;
  return '';
}

/** Deleted from the box: the row stays as a tombstone (the local file can still be re-scanned). */
export const isTombstone = (r: Recording) => Boolean(r.purged_at || r.deleted_from_box_at);

export const PHASE_LABEL: Record<string, string> = { downloading: 'Downloading', scanning: 'Scanning for ads', marking: 'Marking breaks', cutting: 'Cutting ads', verifying: 'Verifying' };
