import { useId, useState } from 'react';
import { messageOf, rec } from '../api.js';
import { LockedWhy, useLocked } from '../locked.js';

/** A button that runs a check on the server and shows its answer (only offered when the feature exists). */
export function CheckButton({ label, path, onDone }: { label: string; path: string; /** After an answer: the check may have saved settings. */ onDone?: () => void }) {
  const [result, setResult] = useState<{ ok: boolean; text: string } | null>(null);
  const [busy, setBusy] = useState(false);
  const locked = useLocked();
  const whyId = useId();
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
      <button type="button" onClick={() => void run()} disabled={busy || locked === true} aria-describedby={locked ? whyId : undefined}>
        {busy ? 'Checking…' : label}
      </button>
      <LockedWhy id={whyId} locked={locked} what="run this check" />
      {result && (
        <span className={result.ok ? 'muted small' : 'error-text small'} role={result.ok ? 'status' : 'alert'}>
          {result.text}
        </span>
      )}
    </span>
  );
}
