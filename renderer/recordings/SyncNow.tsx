import { useState } from 'react';
import { messageOf, rec, RecApiError } from './api.js';
import { useLockState } from './LockBanner.js';
import { announceStarted } from './sync-status.js';
import type { SyncRun } from './types.js';

/**
 * "Sync now": starts a sync (202) or says one is running already (409); the caller refreshes. While
 * the page is locked it is disabled and points to the unlock form (the lock banner above).
 */
export function SyncNowButton({ running, onStarted, label = 'Sync now', path = '/api/sync' }: { running: boolean; onStarted: () => void; label?: string; path?: string }) {
  const [busy, setBusy] = useState(false);
  const [message, setMessage] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const lock = useLockState();
  const locked = Boolean(lock?.passcodeSet && !lock.unlocked);
  const start = async () => {
    setBusy(true);
    setMessage(null);
    try {
      const res = await rec.post<{ run: SyncRun }>(path);
      setMessage({ kind: 'ok', text: `Sync #${res.run.id} started` });
      announceStarted(res.run);
    } catch (err) {
      if (err instanceof RecApiError && err.code === 'sync_running') setMessage({ kind: 'ok', text: 'A sync is already running' });
      // Locked (the page did not know yet): the lock banner's form and the note beside the button say what to do.
      else if (err instanceof RecApiError && err.code === 'locked') setMessage(null);
      else setMessage({ kind: 'error', text: messageOf(err) });
    } finally {
      setBusy(false);
      onStarted();
    }
  };
  return (
    <span className="row">
      <button type="button" className="primary" onClick={() => void start()} disabled={busy || running || locked} aria-describedby={locked ? 'sync-locked-note' : undefined}>
        {running ? 'Syncing…' : label}
      </button>
      {locked && !running && (
        <span id="sync-locked-note" className="muted small" data-testid="sync-locked-note">
          Unlock with the passcode above to sync.
        </span>
      )}
      {message && (
        <span className={message.kind === 'error' ? 'error-text' : 'muted small'} role={message.kind === 'error' ? 'alert' : 'status'}>
          {message.text}
        </span>
      )}
    </span>
  );
}
