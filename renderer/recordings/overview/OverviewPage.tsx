import { useEffect, useState, type ReactNode } from 'react';
import { Link } from '../../app/router.js';
import { Banner } from '../../kit/Banner.js';
import { Card } from '../../kit/Card.js';
import { serverNow, useServerClock } from '../../kit/server-clock.js';
import { rec } from '../api.js';
import { episodeLabel, formatBytes, formatInZone } from '../format.js';
import { ProgressBar } from '../ProgressBar.js';
import { announceSync } from '../sync-status.js';
import { SyncNowButton } from '../SyncNow.js';
import type { Recording, Show, SyncRun, SyncState } from '../types.js';
import { useStreamedPoll } from '../use-progress-stream.js';
import { useServerSettings } from '../use-server.js';
import { countsLine, hostOf, isImported, lastRunWith, showCounts, thisWeek } from './overview-data.js';

interface OverviewData {
  sync: SyncState;
  runs: SyncRun[];
  shows: Show[];
  recordings: Recording[];
}

interface SavedBox {
  address: string;
  reachable: boolean;
  friendly_name: string | null;
  model_name: string | null;
  message?: string;
}

/** `GET /api/media-server`: the saved media server as it answered just now. */
interface MediaServerStatus {
  configured: boolean;
  state: 'not_configured' | 'answering' | 'token_refused' | 'not_answering';
  message?: string;
  /** The saved library as the server names it now. */
  library?: { id: string; name: string };
}

const MEDIA_PILL: Record<MediaServerStatus['state'], { text: string; kind: string }> = {
  answering: { text: 'connected', kind: 'ok' },
  token_refused: { text: 'token refused', kind: 'failed' },
  not_answering: { text: 'not answering', kind: 'failed' },
  not_configured: { text: 'not set up', kind: '' },
};

const load = async (): Promise<OverviewData> => {
  const askedAt = Date.now();
  const [sync, runs, shows, list] = await Promise.all([
    rec.get<SyncState>('/api/sync'),
    rec.get<{ runs: SyncRun[] }>('/api/sync-runs?limit=20'),
    rec.get<{ shows: Show[] }>('/api/shows'),
    rec.get<{ recordings: Recording[] }>('/api/recordings'),
  ]);
  announceSync(sync, askedAt);
  return { sync, runs: runs.runs, shows: shows.shows, recordings: list.recordings };
};
const isLive = (d: OverviewData) => d.sync.running !== null || d.recordings.some((r) => r.progress !== null);

const TRIGGER: Record<SyncRun['trigger'], string> = { cron: 'schedule', manual: 'Sync now', show: 'one show' };

/** The first page: the sync deck, tiles for shows, this week, box, media server and cloud, and recent syncs. */
export function OverviewPage() {
  // Progress comes as events; the lists are read again when a row changes or a sync starts or
  // ends (and every 60 s). Only while the stream is down does the page poll every 2 s.
  const live = useStreamedPoll(load, isLive);
  const { progressOf } = live;
  const { view } = useServerSettings();
  // "This week" from the service's clock (in the demo, the energy pages' demo clock).
  useServerClock();
  const [boxes, setBoxes] = useState<SavedBox[] | null>(null);
  const boxSetting = String(view?.settings.box_address ?? '');
  useEffect(() => {
    let alive = true;
    rec
      .get<{ boxes: SavedBox[] }>('/api/box')
      .then((r) => alive && setBoxes(r.boxes))
      .catch(() => alive && setBoxes([]));
    return () => {
      alive = false;
    };
  }, [boxSetting]);
  const [media, setMedia] = useState<MediaServerStatus | null>(null);
  const mediaSetting = String(view?.settings.media_server_url ?? '');
  const librarySetting = String(view?.settings.media_server_section_id ?? '');
  useEffect(() => {
    let alive = true;
    setMedia(null);
    rec
      .get<MediaServerStatus>('/api/media-server')
      .then((r) => alive && setMedia(r))
      .catch(() => alive && setMedia(null));
    return () => {
      alive = false;
    };
  }, [mediaSetting, librarySetting]);

  const tz = view?.tz;
  const d = live.data;
  const running = d?.sync.running ?? null;
  const lastFinished = d?.runs.find((r) => r.status !== 'running') ?? null;
  const active = d?.recordings.filter((r) => progressOf(r)) ?? [];
  const week = d ? thisWeek(d.recordings, serverNow()) : null;
  const shows = d ? showCounts(d.shows) : null;
  const settings = view?.settings;
  const mediaUrl = String(settings?.media_server_url ?? '');
  const mediaTokenSet = Boolean(settings?.media_server_token);
  const cloudUrl = String(settings?.cloud_api_url ?? '');
  const cloudReady = Boolean(cloudUrl && settings?.cloud_activation_code && settings?.cloud_pin);
  const refreshRun = d ? lastRunWith(d.runs, 'media_server_refresh') : null;
  const deleteRun = d ? (lastRunWith(d.runs, 'box_deleted') ?? lastRunWith(d.runs, 'box_delete_failed')) : null;
  const firstRun = view && view.sources.box_address === 'default' && d && d.recordings.length === 0;

  return (
    <>
      <h1>Overview</h1>
      {firstRun && (
        <Banner kind="info" testId="first-run">
          No recording box is set up yet. <Link href="/setup">Set up the recording sync</Link> to find your box and choose a media folder.
        </Banner>
      )}
      {live.error && <Banner kind="error">{live.error}</Banner>}

      <section className={`card sync-deck${running ? ' busy' : ''}`} aria-labelledby="deck-title" data-testid="sync-deck">
        <div className="spread">
          <div>
            <h2 id="deck-title">{running ? `Syncing · run #${running.id}` : d ? 'Idle' : 'Loading…'}</h2>
            <p className="muted small deck-sub">
              {running
                ? `Started ${formatInZone(running.started_at, tz)} by ${TRIGGER[running.trigger]}`
                : d?.sync.schedule?.next_run
                  ? `Next scheduled sync ${formatInZone(d.sync.schedule.next_run, d.sync.schedule.timezone)}`
                  : d
                    ? 'No scheduled sync.'
                    : ''}
            </p>
          </div>
          <SyncNowButton running={running !== null} onStarted={() => void live.refresh()} />
        </div>
        <p data-testid="last-sync">
          {lastFinished ? (
            <>
              <strong>Last sync</strong> #{lastFinished.id}
              {isImported(lastFinished) && (
                <>
                  {' '}
                  <span className="pill" data-testid="last-sync-imported">imported</span>
                </>
              )}
              , {formatInZone(lastFinished.finished_at ?? lastFinished.started_at, tz)}:{' '}
              <span className={`pill ${lastFinished.status}`}>{lastFinished.status}</span> {countsLine(lastFinished)}
              {lastFinished.summary?.error && <span className="error-text small"> — {lastFinished.summary.error}</span>}
            </>
          ) : d ? (
            <span className="muted">No sync has run yet.</span>
          ) : null}
        </p>
        {active.length > 0 && (
          <ul className="active-list" aria-label="In progress">
            {active.slice(0, 4).map((r) => {
              const name = `${r.show_title ?? ''} ${episodeLabel(r)} ${r.box_title}`.trim();
              return (
                <li key={r.box_id}>
                  <span className="small">
                    <strong>{r.show_title}</strong> {episodeLabel(r)} {r.box_title}
                  </span>
                  <ProgressBar progress={progressOf(r)!} name={name} />
                </li>
              );
            })}
            {active.length > 4 && <li className="muted small">and {active.length - 4} more on the <Link href="/recordings">Recordings</Link> page</li>}
          </ul>
        )}
      </section>

      <div className="tiles" data-testid="tiles">
        <Tile title="Followed shows" testId="tile-shows" href="/shows" linkText="Manage shows">
          <p className="tile-value">{shows ? shows.total : '…'}</p>
          <p className="muted small">{shows ? (shows.total === 0 ? 'None yet: follow a show to start.' : shows.paused ? `${shows.paused} paused` : 'all active') : ''}</p>
        </Tile>
        <Tile title="Recordings this week" testId="tile-week" href="/recordings" linkText="All recordings">
          <p className="tile-value">{week ? week.count : '…'}</p>
          <p className="muted small">{week ? (week.count ? `${formatBytes(week.bytes)} downloaded in the last 7 days` : 'nothing downloaded in the last 7 days') : ''}</p>
        </Tile>
        <Tile title="Recording box" testId="tile-box" href="/settings" linkText="Box settings">
          {!boxes ? (
            <p className="muted">Asking the box…</p>
          ) : boxes.length === 0 ? (
            <p>
              <span className="pill">not chosen</span> <span className="muted small">each sync searches the network</span>
            </p>
          ) : (
            boxes.map((b) => (
              <p key={b.address}>
                <span className={`pill ${b.reachable ? 'ok' : 'failed'}`}>{b.reachable ? 'connected' : 'not answering'}</span>{' '}
                <strong>{b.friendly_name ?? b.address}</strong>
                {b.model_name && <span className="muted small"> · {b.model_name}</span>}
                {!b.reachable && b.message && <span className="muted small"> — {b.message}</span>}
              </p>
            ))
          )}
        </Tile>
        <Tile title="Media server" testId="tile-media" href="/settings" linkText="Media server settings">
          {mediaUrl ? (
            <>
              <p>
                {/* Connected only after the server answered just now; an earlier (or imported) refresh proves nothing. */}
                <span className={`pill ${media ? MEDIA_PILL[media.state].kind : ''}`} data-testid="media-state">
                  {media ? MEDIA_PILL[media.state].text : 'asking…'}
                </span>{' '}
                <strong>{hostOf(mediaUrl)}</strong>
                {settings?.media_server_section_id ? (
                  <span className="muted small" data-testid="media-library">
                    {/* The name as the server gives it; the id only while it has not answered (or no longer lists it). */}
                    {media?.library?.id === String(settings.media_server_section_id) ? ` · library "${media.library.name}"` : ` · library ${String(settings.media_server_section_id)}`}
                  </span>
                ) : null}
                {media?.message && <span className="muted small"> — {media.message}</span>}
              </p>
              <p className="muted small">
                {refreshRun
                  ? refreshRun.summary?.media_server_refresh === 'ok'
                    ? `Library refreshed after sync #${refreshRun.id}, ${formatInZone(refreshRun.finished_at, tz)}.`
                    : `Refresh after sync #${refreshRun.id} failed: ${refreshRun.summary?.media_server_error ?? 'unknown error'}`
                  : mediaTokenSet
                    ? 'Refreshes its library after a sync that downloads something.'
                    : 'No token yet: the library cannot be refreshed.'}
              </p>
            </>
          ) : (
            <p>
              <span className="pill">not set up</span> <span className="muted small">the library is not refreshed after a sync</span>
            </p>
          )}
        </Tile>
        <Tile title="Box cloud" testId="tile-cloud" href="/settings" linkText="Cloud settings">
          {cloudUrl ? (
            <>
              <p>
                <span className={`pill ${deleteRun?.summary?.box_delete_failed ? 'failed' : deleteRun ? 'ok' : ''}`}>
                  {deleteRun ? (deleteRun.summary?.box_delete_failed ? 'last delete failed' : 'connected') : cloudReady ? 'set up' : 'incomplete'}
                </span>{' '}
                <strong>{hostOf(cloudUrl)}</strong>
              </p>
              <p className="muted small">
                {deleteRun
                  ? deleteRun.summary?.box_delete_failed
                    ? `Sync #${deleteRun.id}: ${deleteRun.summary.box_delete_error ?? 'a delete failed'}`
                    : `Sync #${deleteRun.id} deleted ${deleteRun.summary?.box_deleted} from the box.`
                  : cloudReady
                    ? 'Deletes downloaded episodes from the box for shows that ask for it.'
                    : 'Needs the activation code and PIN.'}
              </p>
            </>
          ) : (
            <p>
              <span className="pill">not set up</span> <span className="muted small">nothing is deleted from the box</span>
            </p>
          )}
        </Tile>
      </div>

      <Card title="Recent syncs" id="recent" actions={<Link href="/history">Sync history</Link>}>
        {d && d.runs.length === 0 && <p className="muted">No sync has run yet.</p>}
        {d && d.runs.length > 0 && (
          <ul className="recent-runs" data-testid="recent-syncs">
            {d.runs.slice(0, 5).map((r) => (
              <li key={r.id} data-run-id={r.id}>
                <span className={`pill ${r.status}`}>{r.status}</span>
                <span>
                  #{r.id} · {formatInZone(r.started_at, tz)} · {isImported(r) ? `imported from ${r.summary?.imported_from}` : (TRIGGER[r.trigger] ?? r.trigger)}
                </span>
                <span className="muted small">{countsLine(r, active.length)}</span>
              </li>
            ))}
          </ul>
        )}
      </Card>
    </>
  );
}

function Tile({ title, testId, href, linkText, children }: { title: string; testId: string; href: string; linkText: string; children: ReactNode }) {
  const id = `${testId}-title`;
  return (
    <section className="card tile" aria-labelledby={id} data-testid={testId}>
      <h2 id={id}>{title}</h2>
      {children}
      <Link href={href} className="tile-link">
        {linkText}
      </Link>
    </section>
  );
}
