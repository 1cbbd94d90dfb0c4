import { isTombstone } from '../format.js';
import type { Recording, RecordingStatus } from '../types.js';

export type StatusFilter = 'all' | RecordingStatus;
export type DeletedFilter = 'all' | 'on_box' | 'deleted';
export type SortKey = 'newest' | 'oldest' | 'show' | 'title' | 'size' | 'status';

export interface Filters {
  status: StatusFilter;
  show: string;
  deleted: DeletedFilter;
  search: string;
  sort: SortKey;
}

export const DEFAULT_FILTERS: Filters = { status: 'all', show: '', deleted: 'all', search: '', sort: 'newest' };

const STATUS_ORDER: Record<RecordingStatus, number> = { downloading: 0, failed: 1, partial: 2, skipped: 3, done: 4 };
const timeOf = (r: Recording) => Date.parse(r.downloaded_at ?? r.updated_at) || 0;

/**
 * The rows a person asked for, in the order asked. The server lists newest first; `newest` keeps
 * that order with rows in progress on top. Search matches show, title and file path, case-insensitively.
 */
export function applyFilters(rows: readonly Recording[], f: Filters): Recording[] {
  const q = f.search.trim().toLowerCase();
  const out = rows.filter((r) => {
    if (f.status !== 'all' && r.status !== f.status) return false;
    if (f.show && (r.show_title ?? '') !== f.show) return false;
    if (f.deleted === 'deleted' && !isTombstone(r)) return false;
    if (f.deleted === 'on_box' && isTombstone(r)) return false;
    if (q && !`${r.show_title ?? ''}\u0000${r.box_title}\u0000${r.file_path ?? ''}`.toLowerCase().includes(q)) return false;
    return true;
  });
  const byText = (a: string, b: string) => a.localeCompare(b, undefined, { sensitivity: 'base', numeric: true });
  switch (f.sort) {
    case 'oldest':
      return out.sort((a, b) => timeOf(a) - timeOf(b));
    case 'show':
      return out.sort((a, b) => byText(a.show_title ?? '', b.show_title ?? '') || (a.season ?? 0) - (b.season ?? 0) || (a.episode ?? 0) - (b.episode ?? 0));
    case 'title':
      return out.sort((a, b) => byText(a.box_title, b.box_title));
    case 'size':
      return out.sort((a, b) => (b.size ?? b.expected_size ?? -1) - (a.size ?? a.expected_size ?? -1));
    case 'status':
      return out.sort((a, b) => STATUS_ORDER[a.status] - STATUS_ORDER[b.status] || timeOf(b) - timeOf(a));
    default: {
      // Live rows first (where a sync's progress is watched), then the server's newest-first order.
      const live = out.filter((r) => r.progress);
      return live.length ? [...live, ...out.filter((r) => !r.progress)] : out;
    }
  }
}

/** Distinct show titles, sorted, for the show filter. */
export function showTitles(rows: readonly Recording[]): string[] {
  const set = new Set<string>();
  for (const r of rows) if (r.show_title) set.add(r.show_title);
  return [...set].sort((a, b) => a.localeCompare(b));
}
