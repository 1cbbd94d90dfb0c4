import { useState } from 'react';
import { messageOf, rec, RecApiError } from './api.js';
import type { SyncRun } from './types.js';

/** "Sync now": starts a sync (202) or says one is running already (409); the caller refreshes. */
export function SyncNowButton({ running, onStarted, label = 'Sync now', path = '/api/sync' }: { running: boolean; onStarted: () => void; label?: string; path?: string }) {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const start = async () => {
    setBusy(true);
    setMessage(null);
    try {
      const res = await rec.post<{ run: SyncRun }>(path);
      setMessage({ kind: 'ok', text: `Sync #${res.run.id} started` });
    } catch (err) {
      if (err instanceof RecApiError && err.code === 'sync_running') setMessage({ kind: 'ok', text: 'A sync is already running' });
      else setMessage({ kind: 'error', text: messageOf(err) });
    } finally {
      setBusy(false);
      onStarted();
    }
  };
  return (
    <span className="row">
      <button type="button" className="primary" onClick={() => void start()} disabled={busy || running}>
        {running ? 'Syncing…' : label}
      </button>
      {message && (
        <span className={message.kind === 'error' ? 'error-text' : 'muted small'} role={message.kind === 'error' ? 'alert' : 'status'}>
          {message.text}
        </span>
      )}
    </span>
  );
}
