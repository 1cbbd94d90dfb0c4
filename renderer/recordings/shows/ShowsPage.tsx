import { useCallback, useEffect, useState } from 'react';
import { Banner } from '../../kit/Banner.js';
import { Card } from '../../kit/Card.js';
import { messageOf, rec, RecApiError } from '../api.js';
import type { BoxShows, Recording, Show, SyncRun } from '../types.js';
import { useServerSettings } from '../use-server.js';
import { seasonFolderLabel } from './path-preview.js';
import { draftOf, emptyDraft, ShowForm, type ShowDraft } from './ShowForm.js';
import { LockedWhy, useLocked } from '../locked.js';

/**
 * Followed shows: follow one from the box's list or typed, edit, enable/disable, sync one, unfollow.
 * `inSetup`: the setup wizard's step (no page heading; the wizard has its own).
 */
export function ShowsPage({ inSetup = false }: { inSetup?: boolean } = {}) {
  const { view } = useServerSettings();
  const [shows, setShows] = useState<Show[] | null>(null);
  const [seasons, setSeasons] = useState<Map<number, number[]>>(new Map());
  const [error, setError] = useState<string | null>(null);
  const [notice, setNotice] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const [draft, setDraft] = useState<ShowDraft>(emptyDraft());
  const [formKey, setFormKey] = useState(0);
  const [box, setBox] = useState<BoxShows | null>(null);
  const [boxBusy, setBoxBusy] = useState(false);
  const [boxError, setBoxError] = useState<string | null>(null);
  const [confirmDelete, setConfirmDelete] = useState<number | null>(null);
  const caps = view?.capabilities;
  const locked = useLocked();
  const lockedDesc = locked ? 'shows-locked' : undefined;
  const mediaRoot = String(view?.settings.media_root ?? '');

  const load = useCallback(async () => {
    try {
      const [list, recs] = await Promise.all([rec.get<{ shows: Show[] }>('/api/shows'), rec.get<{ recordings: Recording[] }>('/api/recordings')]);
      // The seasons each show's files went to (downloaded rows only): the list shows the truth, not Season 01.
      const bySeason = new Map<number, number[]>();
      for (const r of recs.recordings) {
        if (r.show_id === null || r.season === null || !r.file_path) continue;
        const arr = bySeason.get(r.show_id) ?? [];
        arr.push(r.season);
        bySeason.set(r.show_id, arr);
      }
      setSeasons(bySeason);
      setShows(list.shows);
      setError(null);
    } catch (err) {
      setError(messageOf(err));
    }
  }, []);
  useEffect(() => void load(), [load]);

  const act = async (fn: () => Promise<string>) => {
    setNotice(null);
    try {
      setNotice({ kind: 'ok', text: await fn() });
    } catch (err) {
      setNotice({ kind: 'error', text: err instanceof RecApiError && err.code === 'sync_running' ? 'A sync is already running; try again when it has finished.' : messageOf(err) });
    }
    await load();
  };

  const loadBox = async () => {
    setBoxBusy(true);
    setBoxError(null);
    try {
      setBox(await rec.post<BoxShows>('/api/box-shows'));
    } catch (err) {
      setBoxError(messageOf(err));
    } finally {
      setBoxBusy(false);
    }
  };

  const edit = (d: ShowDraft) => {
    setDraft(d);
    setFormKey((k) => k + 1);
    document.getElementById('show-form')?.scrollIntoView({ block: 'start' });
  };

  return (
    <>
      {!inSetup && <h1>Shows</h1>}
      {error && <Banner kind="error">{error}</Banner>}
      {notice && <Banner kind={notice.kind}>{notice.text}</Banner>}
      <Card title={draft.id === null ? 'Follow a show' : `Edit “${draft.name}”`} id="show-form">
        {view ? (
          <ShowForm
            key={formKey}
            draft={draft}
            mediaRoot={mediaRoot}
            caps={caps}
            onChange={setDraft}
            onCancel={() => edit(emptyDraft())}
            onSaved={(s) => {
              setNotice({ kind: 'ok', text: draft.id === null ? `Following “${s.name}”.` : `Saved “${s.name}”.` });
              edit(emptyDraft());
              void load();
              setBox(null);
            }}
          />
        ) : (
          <p className="muted">Loading…</p>
        )}
      </Card>

      <Card
        title="Shows on the box"
        id="box-shows"
        actions={
          <button type="button" onClick={() => void loadBox()} disabled={boxBusy || locked === true} aria-describedby={locked ? 'box-shows-locked' : undefined}>
            {boxBusy ? 'Asking the box…' : box ? 'Refresh' : 'Load shows from the box'}
          </button>
        }
      >
        <LockedWhy id="box-shows-locked" locked={locked} what="ask the box for its shows" />
        {boxError && (
          <p className="error-text" role="alert">
            {boxError}
          </p>
        )}
        {!box && !boxError && <p className="muted small">Pick a show folder from the recording box instead of typing its name.</p>}
        {box?.boxes.map((b) => (
          <div key={b.box.udn}>
            {box.boxes.length > 1 && <h3>{b.box.friendly_name}</h3>}
            {b.error && <p className="error-text">{b.error}</p>}
            <ul className="box-shows" data-testid="box-shows">
              {b.shows.map((s) => (
                <li key={s.id}>
                  <span>
                    {s.title} <span className="muted small">({s.item_count})</span>
                  </span>
                  {s.followed_show_id !== null ? (
                    <span className="badge">followed</span>
                  ) : (
                    <button type="button" className="small-button" onClick={() => edit(emptyDraft(s.title, s.title))} aria-label={`Follow ${s.title}`}>
                      Follow
                    </button>
                  )}
                </li>
              ))}
            </ul>
          </div>
        ))}
      </Card>

      <Card title="Followed shows" id="followed">
        {shows && shows.length > 0 && <LockedWhy id="shows-locked" locked={locked} what="pause, sync or unfollow a show" />}
        {shows && shows.length === 0 && <p className="muted">No followed shows yet.</p>}
        <ul className="show-list" data-testid="followed-shows">
          {shows?.map((s) => (
            <li key={s.id} data-show-id={s.id}>
              <div className="meta">
                <strong>
                  {s.name} {!s.enabled && <span className="badge">paused</span>}
                  {caps?.ad_scan && s.ad_mode !== 'off' && <span className="badge">ads: {s.ad_mode}</span>}
                </strong>
                <span className="muted small">
                  {s.dest_folder}
                  {s.season_template && `/${seasonFolderLabel(s.season_template, seasons.get(s.id) ?? [])}`}
                </span>
              </div>
              <div className="row">
                <button type="button" className="small-button" onClick={() => edit(draftOf(s))}>
                  Edit
                </button>
                <button
                  type="button"
                  className="small-button"
                  disabled={locked === true}
                  aria-describedby={lockedDesc}
                  onClick={() => void act(async () => (await rec.patch<{ show: Show }>(`/api/shows/${s.id}`, { enabled: !s.enabled }), `${s.enabled ? 'Paused' : 'Resumed'} “${s.name}”.`))}
                >
                  {s.enabled ? 'Pause' : 'Resume'}
                </button>
                <button
                  type="button"
                  className="small-button"
                  disabled={locked === true}
                  aria-describedby={lockedDesc}
                  onClick={() => void act(async () => `Sync #${(await rec.post<{ run: SyncRun }>(`/api/shows/${s.id}/sync`)).run.id} started for “${s.name}”.`)}
                >
                  Sync this show
                </button>
                {confirmDelete === s.id ? (
                  <button
                    type="button"
                    className="small-button danger"
                    onClick={() => {
                      setConfirmDelete(null);
                      void act(async () => (await rec.del(`/api/shows/${s.id}`), `Stopped following “${s.name}”; its recordings stay.`));
                    }}
                  >
                    Confirm unfollow
                  </button>
                ) : (
                  <button type="button" className="small-button" onClick={() => setConfirmDelete(s.id)} disabled={locked === true} aria-describedby={lockedDesc}>
                    Unfollow
                  </button>
                )}
              </div>
            </li>
          ))}
        </ul>
      </Card>
    </>
  );
}
