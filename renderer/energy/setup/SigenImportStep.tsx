import { useEffect, useState } from 'react';
import type { ImportJob } from '../../../main/energy/import/import-routes.js';
import type { SigenPreview } from '../../../main/energy/import/sigen-import.js';
import { api, ApiError, messageOf, session } from '../../api.js';
import { Banner } from '../../kit/Banner.js';
import { Field } from '../../kit/Field.js';

const when = (t: number | null) => (t === null ? '–' : new Date(t).toLocaleString());
const base = (p: string) => p.split(/[\\/]/).pop() ?? p;
const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString()} ${n === 1 ? one : many}`;

/** The offer shown above the first step: people switching from sigen-home-bridge bring everything. */
export function SigenImportOffer({ onOpen }: { onOpen: () => void }) {
  return (
    <section className="card" aria-labelledby="import-offer">
      <h2 id="import-offer">Coming from sigen-home-bridge?</h2>
      <p className="small muted">Bring its history, settings, passcode and Home app pairing from its data folder instead of setting up again.</p>
      <button type="button" onClick={onOpen}>
        Import from sigen-home-bridge
      </button>
    </section>
  );
}

function PreviewView({ p }: { p: SigenPreview }) {
  return (
    <div data-testid="import-preview">
      <h3>History</h3>
      {p.history.files.length === 0 ? (
        <p>No history files in this folder.</p>
      ) : (
        <ul>
          {p.history.files.map((f) => (
            <li key={f.file}>
              <strong>{base(f.file)}</strong>: {plural(f.rows, 'row')}, {when(f.firstT)} to {when(f.lastT)}
              {f.damage ? <span className="error"> (damaged: {f.damage}; the readable rows come)</span> : null}
            </li>
          ))}
        </ul>
      )}
      <p className="small muted">
        Rows at the same time are kept once.{' '}
        {p.history.olderThanRetention > 0 ? `${plural(p.history.olderThanRetention, 'row')} older than ${p.history.retentionDays} days (the retention) stay behind.` : `All of it is inside the ${p.history.retentionDays}-day retention.`}
      </p>
      <h3>Settings</h3>
      {p.settings.found ? (
        <details>
          <summary>{plural(p.settings.carried.length, 'setting')} carried ({p.settings.changed.join(', ')})</summary>
          <ul className="small">
            {p.settings.carried.map((c) => (
              <li key={`${c.from}>${c.to}`}>
                {c.from} → {c.to}
              </li>
            ))}
          </ul>
        </details>
      ) : (
        <p>No settings.json in this folder: settings stay as they are.</p>
      )}
      <p data-testid="import-passcode">
        {p.passcode === 'carried'
          ? 'Its settings passcode comes too: the same passcode unlocks the settings here.'
          : p.passcode === 'kept-ours'
            ? 'This bridge keeps its own passcode.'
            : 'No passcode was set there.'}
      </p>
      <p data-testid="import-homekit">
        {p.homekit
          ? `Home app: the bridge “${p.homekit.bridgeName}” keeps its identity and its ${plural(p.homekit.pairedControllers, 'paired Home app')}, so nothing needs pairing again.`
          : 'Home app: nothing to carry.'}
        {p.homekit && p.homekit.replacesPairedHere > 0 ? ` ${plural(p.homekit.replacesPairedHere, 'Home app')} paired with this bridge so far will need pairing again.` : ''}
      </p>
      {p.notCarried.length > 0 && (
        <>
          <h3>What cannot be carried, and why</h3>
          <ul className="small" data-testid="import-not-carried">
            {p.notCarried.map((n, i) => (
              <li key={i}>
                <strong>{n.setting}</strong>: {n.reason}
              </li>
            ))}
          </ul>
        </>
      )}
    </div>
  );
}

/**
 * Import from a sigen-home-bridge data folder: its path on this computer, a preview of what comes
 * and what cannot (and why), the import with its progress, then on to the dashboard.
 */
export function SigenImportStep({ onCancel, onDone }: { onCancel: () => void; onDone: () => void }) {
  const [dir, setDir] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [preview, setPreview] = useState<SigenPreview | null>(null);
  const [busy, setBusy] = useState(false);
  const [job, setJob] = useState<ImportJob | null>(null);

  const body = () => ({ from: 'sigen-home-bridge', dir: dir.trim() });

  const runPreview = async () => {
    setBusy(true);
    setError(null);
    setPreview(null);
    try {
      setPreview(await api.post<SigenPreview>('/api/import/preview', body()));
    } catch (err) {
      setError(err instanceof ApiError && err.field === 'dir' ? err.message.replace(/^dir: /, '') : messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  const runImport = async () => {
    setBusy(true);
    setError(null);
    try {
      const started = await api.post<ImportJob & { token?: string }>('/api/import', body());
      // The import brought its passcode: this page stays unlocked with the session it was given.
      if (started.token) session.set(started.token);
      setJob(started);
    } catch (err) {
      setError(messageOf(err));
      setBusy(false);
    }
  };

  useEffect(() => {
    if (job?.state !== 'running') return;
    const timer = setTimeout(() => {
      api
        .get<ImportJob>('/api/import/status')
        .then(setJob)
        .catch((err: unknown) => setError(messageOf(err)));
    }, 400);
    return () => clearTimeout(timer);
  }, [job]);

  const running = job?.state === 'running';
  const progress = running ? job.history.filter((r) => r.progress) : [];

  return (
    <section className="card" aria-labelledby="step-import">
      <h2 id="step-import">Import from sigen-home-bridge</h2>
      {!job && (
        <>
          <Field
            label="sigen-home-bridge data folder"
            hint="The folder on this computer that holds its settings.json and history.db (its DATA_DIR). It is only read, never changed."
            error={error}
          >
            {(p) => <input type="text" value={dir} onChange={(e) => (setDir(e.target.value), setPreview(null))} placeholder="/home/me/sigen-home-bridge/data" {...p} />}
          </Field>
          <div className="row">
            <button type="button" onClick={onCancel}>
              Back
            </button>
            <button type="button" onClick={() => void runPreview()} disabled={busy || !dir.trim()}>
              {busy && !preview ? 'Reading…' : 'Preview'}
            </button>
            <button type="button" className="primary" onClick={() => void runImport()} disabled={busy || !preview}>
              Import
            </button>
          </div>
          {preview && <PreviewView p={preview} />}
        </>
      )}
      {running && (
        <Banner kind="info" testId="import-progress">
          Importing history…{' '}
          {progress.map((r) => (
            <span key={r.file}>
              {base(r.file)}: {r.progress!.total ? `${Math.round((100 * r.progress!.done) / r.progress!.total)}%` : 'reading'}{' '}
              <progress max={r.progress!.total || 1} value={r.progress!.done} aria-label={`${base(r.file)} imported`} />{' '}
            </span>
          ))}
        </Banner>
      )}
      {job?.state === 'done' && (
        <>
          <Banner kind={job.result.status === 'imported' ? 'ok' : job.result.status === 'partial' ? 'warn' : 'error'} testId="import-result">
            {job.result.message}
          </Banner>
          {job.result.restartRequired.includes('homekit') && <p className="small">The Home app bridge comes up under its old identity the next time this app starts.</p>}
          <div className="row">
            <button type="button" className="primary" onClick={onDone}>
              Open the dashboard
            </button>
          </div>
        </>
      )}
      {job?.state === 'failed' && <Banner kind="error" testId="import-result">The import stopped: {job.error}</Banner>}
      {job && error && <Banner kind="error">{error}</Banner>}
    </section>
  );
}
