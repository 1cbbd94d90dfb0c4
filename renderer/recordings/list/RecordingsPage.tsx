import { useCallback, useMemo, useState } from 'react';
import { Link } from '../../app/router.js';
import { Banner } from '../../kit/Banner.js';
import { ConfirmDialog } from '../../kit/ConfirmDialog.js';
import { formatTime } from '../../kit/format.js';
import { VirtualList } from '../../kit/VirtualList.js';
import { messageOf, rec } from '../api.js';
import { SyncNowButton } from '../SyncNow.js';
import { announceSync } from '../sync-status.js';
import type { Recording, SyncState } from '../types.js';
import { useMedia } from '../use-media.js';
import { useStreamedPoll } from '../use-progress-stream.js';
import { useServerSettings } from '../use-server.js';
import { applyFilters, DEFAULT_FILTERS, showTitles, type Filters } from './filters.js';
import { HeaderCells, RecordingCells } from './RecordingRow.js';
import { LockedWhy, useLocked } from '../locked.js';

interface LiveData {
  recordings: Recording[];
  sync: SyncState;
}

const loadLive = async (): Promise<LiveData> => {
  const [list, sync] = await Promise.all([rec.get<{ recordings: Recording[] }>('/api/recordings'), rec.get<SyncState>('/api/sync')]);
  announceSync(sync);
  return { recordings: list.recordings, sync };
};
/** Live while a row has progress or a sync is running (so the first bars of a new sync show at once). */
const isLive = (d: LiveData) => d.sync.running !== null || d.recordings.some((r) => r.progress !== null);

/** A phone row: title on two lines, status with its ETA or reason on two, size, ads, time and the actions. */
const PHONE_ROW_PX = 196;

/** Every recording with live progress, filters, sorting and search, in a virtualised table. */
export function RecordingsPage() {
  // Progress comes as events; the list is read again when a row changes or a sync starts or ends
  // (and every 60 s). Only while the stream is down does the page poll every 2 s.
  const live = useStreamedPoll(loadLive, isLive);
  const { progressOf } = live;
  const { view } = useServerSettings();
  const locked = useLocked();
  const [filters, setFilters] = useState<Filters>(DEFAULT_FILTERS);
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const phone = useMedia('(max-width: 760px)');
  const [filtersOpen, setFiltersOpen] = useState(false);
  const [toDelete, setToDelete] = useState<Recording | null>(null);
  const [deleting, setDeleting] = useState(false);
  const activeFilters = (['status', 'show', 'deleted'] as const).filter((k) => filters[k] !== DEFAULT_FILTERS[k]).length + (filters.sort !== DEFAULT_FILTERS.sort ? 1 : 0);
  const listed = live.data?.recordings;
  // The rows with their live progress (the stream's while it is open): filters and the order use it.
  const rows = useMemo(() => listed?.map((r) => ({ ...r, progress: progressOf(r) })), [listed, progressOf]);
  const shown = useMemo(() => (rows ? applyFilters(rows, filters) : []), [rows, filters]);
  const shows = useMemo(() => (rows ? showTitles(rows) : []), [rows]);
  const set = <K extends keyof Filters>(k: K, v: Filters[K]) => setFilters((f) => ({ ...f, [k]: v }));
  const running = live.data?.sync.running ?? null;
  const inProgress = rows?.filter((r) => r.progress).length ?? 0;
  const tz = view?.tz;
  const { refresh } = live;

  const rescan = useCallback(
    async (r: Recording) => {
      setNotice(null);
      try {
        await rec.post(`/api/recordings/${encodeURIComponent(r.box_id)}/ad-scan`);
        setNotice({ kind: 'ok', text: `Re-scan of “${r.box_title}” started.` });
        void refresh();
      } catch (err) {
        setNotice({ kind: 'error', text: messageOf(err) });
      }
    },
    [refresh],
  );

  const deleteFromBox = useCallback(
    async (r: Recording) => {
      setDeleting(true);
      setNotice({ kind: 'ok', text: `Deleting “${r.box_title}” from the box (this can take up to half a minute)…` });
      try {
        await rec.post(`/api/recordings/${encodeURIComponent(r.box_id)}/delete-from-box`);
        setNotice({ kind: 'ok', text: `“${r.box_title}” was deleted from the box.` });
        void refresh();
      } catch (err) {
        setNotice({ kind: 'error', text: messageOf(err) });
      } finally {
        setDeleting(false);
        setToDelete(null);
      }
    },
    [refresh],
  );

  const firstRun = view && view.sources.box_address === 'default' && rows && rows.length === 0;
  return (
    <>
      <div className="spread page-head">
        <h1>Recordings</h1>
        <SyncNowButton running={running !== null} onStarted={() => void refresh()} />
      </div>
      {firstRun && (
        <Banner kind="info" testId="first-run">
          No recording box is set up yet. <Link href="/setup">Set up the recording sync</Link> to find your box and choose a media folder.
        </Banner>
      )}
      {live.error && <Banner kind="error">{live.error}</Banner>}
      {notice && <Banner kind={notice.kind === 'ok' ? 'ok' : 'error'}>{notice.text}</Banner>}
      <p className="muted small" data-testid="poll-status" data-poll-ms={live.pollMs}>
        {rows ? `${rows.length.toLocaleString()} recordings` : 'Loading…'}
        {inProgress > 0 && ` · ${inProgress} in progress`}
        {running && ` · sync #${running.id} running`}
        {live.fetchedAt && ` · updated ${formatTime(live.fetchedAt)}, every ${live.pollMs / 1000} s`}
        {tz && ` · times in ${tz}`}
      </p>
      <div className={`filters${phone ? ' phone' : ''}`} role="search" aria-label="Filter recordings">
        <label className="filter-search">
          <span>Search</span>
          <input type="search" aria-label="Search" value={filters.search} onChange={(e) => set('search', e.target.value)} placeholder="Show, title or file" />
        </label>
        {phone && (
          <button type="button" className="filter-toggle" aria-expanded={filtersOpen} aria-controls="recording-filters" onClick={() => setFiltersOpen((o) => !o)}>
            Filters{activeFilters ? ` · ${activeFilters} on` : ''} <span aria-hidden="true">{filtersOpen ? '▴' : '▾'}</span>
          </button>
        )}
        <div id="recording-filters" className="filter-panel" hidden={phone && !filtersOpen}>
        <label>
          <span>Status</span>
          <select aria-label="Status" value={filters.status} onChange={(e) => set('status', e.target.value as Filters['status'])}>
            <option value="all">All</option>
            <option value="downloading">Downloading</option>
            <option value="done">Done</option>
            <option value="partial">Partial</option>
            <option value="skipped">Skipped</option>
            <option value="failed">Failed</option>
          </select>
        </label>
        <label>
          <span>Show</span>
          <select aria-label="Show" value={filters.show} onChange={(e) => set('show', e.target.value)}>
            <option value="">All shows</option>
            {shows.map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
        </label>
        <label>
          <span>On the box</span>
          <select aria-label="On the box" value={filters.deleted} onChange={(e) => set('deleted', e.target.value as Filters['deleted'])}>
            <option value="all">All</option>
            <option value="on_box">Still on the box</option>
            <option value="deleted">Deleted from the box</option>
          </select>
        </label>
        <label>
          <span>Sort</span>
          <select aria-label="Sort" value={filters.sort} onChange={(e) => set('sort', e.target.value as Filters['sort'])}>
            <option value="newest">Newest first</option>
            <option value="oldest">Oldest first</option>
            <option value="show">Show, season, episode</option>
            <option value="title">Title</option>
            <option value="size">Largest first</option>
            <option value="status">Status</option>
          </select>
        </label>
        {activeFilters > 0 && (
          <button type="button" className="small-button" onClick={() => setFilters((f) => ({ ...DEFAULT_FILTERS, search: f.search }))}>
            Clear filters
          </button>
        )}
        </div>
      </div>
      {rows && (
        <>
          {(view?.capabilities?.ad_scan || view?.capabilities?.delete_from_box) && rows.length > 0 && (
            <LockedWhy id="recordings-locked" locked={locked} what="re-scan or delete recordings" />
          )}
          {shown.length !== rows.length && (
            <p className="muted small" role="status">
              Showing {shown.length.toLocaleString()} of {rows.length.toLocaleString()}
            </p>
          )}
          <VirtualList
            items={shown}
            rowHeight={phone ? PHONE_ROW_PX : 66}
            scroll={phone ? 'page' : 'self'}
            keyOf={(r) => r.box_id}
            label="Recordings"
            testId="recordings-table"
            className={phone ? 'phone' : ''}
            header={phone ? undefined : <HeaderCells />}
            empty={<p className="muted empty">{rows.length ? 'No recording matches these filters.' : 'No recordings yet. Follow a show, then sync.'}</p>}
            renderRow={(r) => <RecordingCells r={r} tz={tz} onRescan={view?.capabilities?.ad_scan ? (x) => void rescan(x) : undefined} onDelete={view?.capabilities?.delete_from_box ? (x) => setToDelete(x) : undefined} lockedWhyId={locked ? 'recordings-locked' : undefined} />}
          />
        </>
      )}
      <ConfirmDialog
        open={toDelete !== null}
        title="Delete from the box?"
        confirmLabel="Delete from box"
        danger
        busy={deleting}
        onCancel={() => setToDelete(null)}
        onConfirm={() => toDelete && void deleteFromBox(toDelete)}
      >
        <p>
          “{toDelete?.show_title ? `${toDelete.show_title} · ` : ''}
          {toDelete?.box_title}” will be deleted from the recording box through its cloud. The downloaded file in your library stays.
        </p>
        {deleting && <p className="muted small" role="status">Deleting… this can take up to half a minute.</p>}
      </ConfirmDialog>
    </>
  );
}
