import { useState } from 'react';
import { messageOf, rec } from '../api.js';

/** A button that runs a check on the server and shows its answer (only offered when the feature exists). */
export function CheckButton({ label, path, onDone }: { label: string; path: string; /** After an answer: the check may have saved settings. */ onDone?: () => void }) {
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async () => {
    setBusy(true);
    setResult(null);
    try {
      const res = await rec.post<Record<string, unknown>>(path);
      setResult({ ok: true, text: typeof res?.message === 'string' ? res.message : 'OK' });
    } catch (err) {
      setResult({ ok: false, text: messageOf(err) });
    } finally {
      setBusy(false);
      onDone?.();
    }
  };
  return (
    <span className="row">
      <button type="button" onClick={() => void run()} disabled={busy}>
        {busy ? 'Checking…' : label}
      </button>
      {result && (
        <span className={result.ok ? 'muted small' : 'error-text small'} role={result.ok ? 'status' : 'alert'}>
          {result.text}
        </span>
      )}
    </span>
  );
}
