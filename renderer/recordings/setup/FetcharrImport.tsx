import { useState } from 'react';
import type { ImportReport } from '../../../main/recordings/import/fetcharr-apply.js';
import type { FetcharrPreview } from '../../../main/recordings/import/fetcharr-plan.js';
import { navigate } from '../../app/router.js';
import { Banner } from '../../kit/Banner.js';
import { Card } from '../../kit/Card.js';
import { Field } from '../../kit/Field.js';
import { messageOf, rec, RecApiError } from '../api.js';
import { useServerSettings } from '../use-server.js';
import { LockedWhy, useLocked } from '../locked.js';

type FieldName = 'dir' | 'media_root_from' | 'media_root_to';

const AD_MODE: Record<string, string> = { off: 'off', detect: 'detect breaks', cut: 'cut breaks out' };

/** What the preview shows: counts, settings carried, shows with their options, files not found, what is not carried and why. */
function PreviewView({ p }: { p: FetcharrPreview }) {
  const r = p.counts.recordings;
  return (
    <div data-testid="fetcharr-preview">
      <h3>What will be imported</h3>
      <ul data-testid="fetcharr-counts">
        <li>
          <strong>{r.done}</strong> downloaded recordings ({r.files_found} files found under {p.media_root.to}): never downloaded again
        </li>
        <li>
          <strong>{r.retry}</strong> that did not download: the next sync tries again
        </li>
        {r.skipped > 0 && (
          <li>
            <strong>{r.skipped}</strong> still recording when fetcharr last looked
          </li>
        )}
        {r.deleted_from_box > 0 && (
          <li>
            <strong>{r.deleted_from_box}</strong> deleted from the box: stay deleted, never downloaded again
          </li>
        )}
        <li>
          <strong>{p.counts.shows}</strong> followed shows, <strong>{p.counts.sync_runs}</strong> past syncs, <strong>{p.counts.settings}</strong> settings
        </li>
      </ul>
      <h3>Shows</h3>
      <div className="table-scroll">
        <table data-testid="fetcharr-shows">
          <thead>
            <tr>
              <th>Show</th>
              <th>Folder</th>
              <th>Season folder</th>
              <th>Sync</th>
              <th>Delete from box</th>
              <th>Ad removal</th>
            </tr>
          </thead>
          <tbody>
            {p.shows.map((s) => (
              <tr key={s.name}>
                <td>{s.name}</td>
                <td>{s.dest_folder}</td>
                <td>{s.season_template || '(none)'}</td>
                <td>{s.enabled ? 'on' : 'paused'}</td>
                <td>{s.delete_after_download ? 'after download' : 'no'}</td>
                <td>{AD_MODE[s.ad_mode] ?? s.ad_mode}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <h3>Settings</h3>
      <ul className="small" data-testid="fetcharr-settings">
        {p.settings.map((s) => (
          <li key={s.to}>
            <code>{s.to}</code> = {String(s.value)} <span className="muted">(from {s.from})</span>
          </li>
        ))}
      </ul>
      {p.missing_files.length > 0 && (
        <Banner kind="warn" testId="fetcharr-missing">
          {p.missing_files.length} downloaded file(s) not found (still counted as downloaded):
          <ul>
            {p.missing_files.map((m) => (
              <li key={m.box_id}>
                {m.title}: {m.looked_for ?? `${m.written ?? '?'} is not under ${p.media_root.from}`}
              </li>
            ))}
          </ul>
        </Banner>
      )}
      {p.not_carried.length > 0 && (
        <>
          <h3>Not carried, and why</h3>
          <ul className="small" data-testid="fetcharr-not-carried">
            {p.not_carried.map((n) => (
              <li key={n.what}>
                <strong>{n.what}</strong>: {n.reason}
              </li>
            ))}
          </ul>
        </>
      )}
      {p.problems.length > 0 && (
        <Banner kind="warn" testId="fetcharr-problems">
          Parts of fetcharr's state could not be read (the rest imports):
          <ul>
            {p.problems.map((x) => (
              <li key={x}>{x}</li>
            ))}
          </ul>
        </Banner>
      )}
    </div>
  );
}

/**
 * The setup's "Coming from fetcharr?" step: fetcharr's config folder and its media root then and
 * now, a preview of what will be carried (and what cannot, and why), then the import; it lands on
 * the recordings list.
 */
export function FetcharrImport({ mediaRoot, onCancel }: { mediaRoot: string; onCancel: () => void }) {
  const { reload } = useServerSettings();
  const [form, setForm] = useState<Record<FieldName, string>>({ dir: '', media_root_from: '/media', media_root_to: mediaRoot });
  const [errors, setErrors] = useState<Partial<Record<FieldName, string>>>({});
  const [general, setGeneral] = useState<string | null>(null);
  const [preview, setPreview] = useState<FetcharrPreview | null>(null);
  const [busy, setBusy] = useState(false);
  const locked = useLocked();
  const set = (k: FieldName, v: string) => {
    setForm((f) => ({ ...f, [k]: v }));
    setErrors((e) => ({ ...e, [k]: undefined }));
    setPreview(null);
  };
  const call = async <T,>(url: string, then: (res: T) => void | Promise<void>) => {
    setBusy(true);
    setErrors({});
    setGeneral(null);
    try {
      await then(await rec.post<T>(url, form));
    } catch (err) {
      if (err instanceof RecApiError && err.field && err.field in form) setErrors({ [err.field as FieldName]: err.message });
      else setGeneral(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title="Coming from fetcharr?" id="setup-fetcharr">
      <p className="small muted">
        Bring fetcharr's followed shows, settings, sync history and the list of what it already downloaded. Its folder is only read, never changed. fetcharr wrote
        its paths as it saw them in its container (usually <code>/media</code>); say where those files are on this computer now.
      </p>
      <form
        aria-label="Import from fetcharr"
        onSubmit={(e) => {
          e.preventDefault();
          void call<{ preview: FetcharrPreview }>('/api/import/preview', (res) => setPreview(res.preview));
        }}
      >
        <div className="form-grid">
          <Field label="fetcharr config folder" hint="The folder holding fetcharr's state.db (its /app/config mount), or the folder above config/." error={errors.dir}>
            {(p) => <input {...p} value={form.dir} onChange={(e) => set('dir', e.target.value)} placeholder="/srv/fetcharr/config" autoComplete="off" required />}
          </Field>
          <Field label="Media root then" hint="Where fetcharr saw the media folder (its container path)." error={errors.media_root_from}>
            {(p) => <input {...p} value={form.media_root_from} onChange={(e) => set('media_root_from', e.target.value)} autoComplete="off" />}
          </Field>
          <Field label="Media root now" hint="Where those files are on this computer: becomes the media folder here." error={errors.media_root_to}>
            {(p) => <input {...p} value={form.media_root_to} onChange={(e) => set('media_root_to', e.target.value)} autoComplete="off" />}
          </Field>
        </div>
        {general && (
          <p className="error-text" role="alert">
            {general}
          </p>
        )}
        <div className="row">
          <button type="submit" className={preview ? '' : 'primary'} disabled={busy || locked === true} aria-describedby={locked ? 'fetcharr-locked' : undefined}>
            Preview
          </button>
          <LockedWhy id="fetcharr-locked" locked={locked} what="import from fetcharr" />
          <button type="button" onClick={onCancel}>
            Back to the setup
          </button>
        </div>
      </form>
      {preview && (
        <>
          <PreviewView p={preview} />
          <div className="row">
            <button
              type="button"
              className="primary"
              disabled={busy || locked === true}
              aria-describedby={locked ? 'fetcharr-locked' : undefined}
              onClick={() =>
                void call<{ report: ImportReport }>('/api/import', async () => {
                  await reload();
                  navigate('/recordings');
                  window.scrollTo(0, 0);
                })
              }
            >
              Import from fetcharr
            </button>
          </div>
        </>
      )}
    </Card>
  );
}
