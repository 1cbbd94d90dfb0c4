import { describe, expect, it } from 'vitest';
import type { Recording } from '../types.js';
import { applyFilters, DEFAULT_FILTERS, showTitles } from './filters.js';

const row = (id: string, over: Partial<Recording> = {}): Recording => ({
  box_id: id,
  show_id: 1,
  show_title: 'Show A',
  box_title: `S1 E1 - Title ${id}`,
  season: 1,
  episode: 1,
  status: 'done',
  error: null,
  size: 100,
  expected_size: 100,
  downloaded_at: '2026-11-20T10:00:00.000Z',
  file_path: `/media/${id}.ts`,
  purged_at: null,
  ad_status: 'unscanned',
  ad_breaks_json: null,
  ad_processed_at: null,
  deleted_from_box_at: null,
  recorded_start: null,
  updated_at: '2026-11-20T10:00:00.000Z',
  progress: null,
  ...over,
});

const progress = { phase: 'downloading' as const, percent: 10, etaSeconds: 5, etaLabel: '5s', detail: '1 MB/s', startedAt: 0, updatedAt: 0 };
const rows = [
  row('1'),
  row('2', { status: 'skipped', error: 'currently recording', show_title: 'Show B' }),
  row('3', { purged_at: '2026-11-21T00:00:00.000Z', downloaded_at: '2026-11-01T00:00:00.000Z', size: 900 }),
  row('4', { status: 'downloading', progress, box_title: 'Live one' }),
];

describe('recordings filters', () => {
  it('keeps the server order with live rows on top by default', () => {
    expect(applyFilters(rows, DEFAULT_FILTERS).map((r) => r.box_id)).toEqual(['4', '1', '2', '3']);
  });
  it('filters by status, show, tombstones and search', () => {
    const ids = (f: Partial<typeof DEFAULT_FILTERS>) => applyFilters(rows, { ...DEFAULT_FILTERS, ...f }).map((r) => r.box_id);
    expect(ids({ status: 'skipped' })).toEqual(['2']);
    expect(ids({ show: 'Show B' })).toEqual(['2']);
    expect(ids({ deleted: 'deleted' })).toEqual(['3']);
    expect(ids({ deleted: 'on_box' })).toEqual(['4', '1', '2']);
    expect(ids({ search: 'LIVE' })).toEqual(['4']);
    expect(ids({ search: '/media/3' })).toEqual(['3']);
    expect(ids({ sort: 'size' })[0]).toBe('3');
    expect(ids({ sort: 'oldest' })[0]).toBe('3');
    expect(ids({ sort: 'status' })).toEqual(['4', '2', '1', '3']);
  });
  it('lists distinct show titles', () => {
    expect(showTitles(rows)).toEqual(['Show A', 'Show B']);
  });
});
