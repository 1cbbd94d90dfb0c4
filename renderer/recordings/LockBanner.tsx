import { useEffect, useState, useSyncExternalStore, type FormEvent } from 'react';
import { Banner } from '../kit/Banner.js';
import { Field } from '../kit/Field.js';
import { passcodeInput } from '../kit/PasscodeInput.js';
import { messageOf, rec } from './api.js';
import { lockState, type LockState } from './lock.js';

/** The current lock state, fetched once and kept up to date by writes that answer 401. */
export function useLockState(): LockState | null {
  const state = useSyncExternalStore(lockState.subscribe, lockState.get);
  useEffect(() => {
    rec
      .get<LockState>('/api/session')
      .then((s) => lockState.set(s))
      .catch(() => undefined);
  }, []);
  return state;
}

/**
 * Above every recordings page: while the owner's passcode is set and this browser has no session,
 * "Locked — unlock with the passcode" with an unlock form (the same passcode and session as the
 * energy bridge); once unlocked, a Lock button.
 */
export function LockBanner() {
  const state = useLockState();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!state?.passcodeSet) return null;

  const unlock = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await rec.post('/api/unlock', { passcode: code });
      setCode('');
      lockState.set({ ...state, unlocked: true });
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };
  const lock = async () => {
    setBusy(true);
    try {
      await rec.post('/api/lock');
      lockState.set({ ...state, unlocked: false });
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  if (state.unlocked) {
    return (
      <div className="row lock-status" data-testid="lock-status">
        <span className="small muted">🔓 Unlocked: changes allowed in this browser (here and on the energy bridge).</span>
        <button type="button" onClick={() => void lock()} disabled={busy}>
          Lock
        </button>
      </div>
    );
  }
  return (
    <Banner kind="warn" testId="locked-banner">
      <strong>🔒 Locked — unlock with the passcode.</strong> Anyone can look; changes (settings, shows, sync, deletions) need the passcode set on the
      energy bridge. One unlock serves both.
      <form onSubmit={(e) => void unlock(e)} className="row">
        <Field label="Passcode" error={error}>
          {(p) => passcodeInput(p, code, setCode, 'current-password')}
        </Field>
        <button type="submit" className="primary" disabled={busy || code.length !== 4}>
          Unlock
        </button>
      </form>
    </Banner>
  );
}
