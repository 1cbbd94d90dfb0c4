import { useState, type FormEvent } from 'react';
import { api, ApiError, messageOf, session } from '../../api.js';
import { Banner } from '../../kit/Banner.js';
import { Field } from '../../kit/Field.js';
import { passcodeInput } from '../../kit/PasscodeInput.js';

interface Props {
  passcodeSet: boolean;
  unlocked: boolean;
  onChange: () => void;
}

/** Unlock/lock the settings session and set, change or clear the 4-digit passcode. */
export function PasscodePanel({ passcodeSet, unlocked, onChange }: Props) {
  const [code, setCode] = useState('');
  const [next, setNext] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async (fn: () => Promise<string | null>) => {
    setBusy(true);
    setError(null);
    setNote(null);
    try {
      setNote(await fn());
      onChange();
    } catch (err) {
      if (err instanceof ApiError && err.code === 'locked_out') setError(`${err.message}`);
      else setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  const unlock = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const r = await api.post<{ token: string; expiresAt: string }>('/api/unlock', { passcode: code });
      session.set(r.token);
      setCode('');
      return 'Unlocked in this browser (the recording sync on this computer too).';
    });
  };
  const lock = () =>
    run(async () => {
      await api.post('/api/lock');
      session.set(null);
      return 'Locked.';
    });
  const setPasscode = (e: FormEvent) => {
    e.preventDefault();
    void run(async () => {
      const r = await api.post<{ token: string }>('/api/security/passcode', { passcode: next });
      session.set(r.token);
      setNext('');
      return 'Passcode saved. Settings now need it after a lock or restart.';
    });
  };
  const clear = () =>
    run(async () => {
      await api.del('/api/security/passcode');
      return 'Passcode cleared: settings are open to anyone on the network.';
    });

  const locked = passcodeSet && !unlocked;
  return (
    <section className="card" aria-labelledby="passcode-title" data-testid="passcode-panel">
      <h2 id="passcode-title">{locked ? '🔒 Settings are locked' : passcodeSet ? '🔓 Settings unlocked' : 'Passcode'}</h2>
      {locked ? (
        <form onSubmit={unlock} className="row">
          <Field label="Passcode" error={error} hint="The 4-digit settings passcode.">
            {(p) => passcodeInput(p, code, setCode, 'current-password')}
          </Field>
          <button type="submit" className="primary" disabled={busy || code.length !== 4}>
            Unlock
          </button>
        </form>
      ) : (
        <>
          <p className="small muted">
            {passcodeSet
              ? 'Changes are allowed in this browser, here and on the recording sync, until you lock or the session ends (12 hours or a restart).'
              : 'No passcode is set: anyone on your network can change settings here and on the recording sync. A passcode is a deterrent on a shared LAN, not strong security.'}
          </p>
          <form onSubmit={setPasscode} className="row">
            <Field label={passcodeSet ? 'New passcode' : 'Set a passcode'} error={error}>
              {(p) => passcodeInput(p, next, setNext, 'new-password')}
            </Field>
            <button type="submit" disabled={busy || next.length !== 4}>
              {passcodeSet ? 'Change passcode' : 'Set passcode'}
            </button>
            {passcodeSet && (
              <>
                <button type="button" onClick={() => void clear()} disabled={busy}>
                  Clear passcode
                </button>
                <button type="button" onClick={() => void lock()} disabled={busy}>
                  Lock now
                </button>
              </>
            )}
          </form>
        </>
      )}
      {note && <Banner kind="ok">{note}</Banner>}
    </section>
  );
}
