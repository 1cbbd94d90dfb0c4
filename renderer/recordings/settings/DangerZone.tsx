import { useState } from 'react';
import { Banner } from '../../kit/Banner.js';
import { ConfirmDialog } from '../../kit/ConfirmDialog.js';
import { messageOf, rec } from '../api.js';
import { announceSync } from '../sync-status.js';
import type { SyncState } from '../types.js';
import { useServerSettings } from '../use-server.js';
import { LockedWhy, useLocked } from '../locked.js';

/** The word the reset asks for (the server checks it too: POST /api/reset { confirm }). */
const RESET_WORD = 'RESET';

/**
 * Reset the recording sync: forget the followed shows, the recordings list, the sync history and the
 * settings. Behind the owner's passcode (the server's gate) and a typed confirmation.
 */
export function DangerZone() {
  const { reload } = useServerSettings();
  const [open, setOpen] = useState(false);
  const locked = useLocked();
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<{ kind: 'ok' | 'error'; text: string } | null>(null);
  const reset = async () => {
    setBusy(true);
    try {
      const res = await rec.post<{ message: string }>('/api/reset', { confirm: RESET_WORD });
      setResult({ kind: 'ok', text: res.message });
      await reload();
      announceSync(await rec.get<SyncState>('/api/sync'));
    } catch (err) {
      setResult({ kind: 'error', text: messageOf(err) });
    } finally {
      setBusy(false);
      setOpen(false);
    }
  };
  return (
    <section className="card danger-zone" aria-labelledby="danger-title" id="danger" data-testid="danger-zone">
      <h2 id="danger-title">Danger zone</h2>
      <p className="small">
        <strong>Reset the recording sync</strong> forgets the followed shows, the list of recordings (what was downloaded and what was deleted from the box), the sync history and every setting here (back to
        the defaults). Files in your media folder are not touched. Shows you follow again download their episodes again.
      </p>
      {result && <Banner kind={result.kind}>{result.text}</Banner>}
      <button type="button" className="danger" onClick={() => setOpen(true)} disabled={locked === true} aria-describedby={locked ? 'reset-locked' : undefined}>
        Reset the recording sync…
      </button>
      <LockedWhy id="reset-locked" locked={locked} what="reset the recording sync" />
      <ConfirmDialog
        open={open}
        title="Reset the recording sync?"
        confirmLabel="Reset everything"
        danger
        requireText={RESET_WORD}
        busy={busy}
        onCancel={() => setOpen(false)}
        onConfirm={() => void reset()}
      >
        <p>This forgets followed shows, the recordings list, the sync history and the settings. It cannot be undone. Files in the media folder stay.</p>
      </ConfirmDialog>
    </section>
  );
}
