import { useState, type FormEvent } from 'react';
import { api, messageOf, session } from '../../api.js';
import { Field } from '../../kit/Field.js';
import { passcodeInput } from '../../kit/PasscodeInput.js';

/**
 * The wizard's last, optional step: a 4-digit passcode that guards every change on this bridge
 * and on the recording sync of the same computer (one owner for both). Skipping leaves the LAN trusted.
 */
export function PasscodeStep({ passcodeSet, onDone }: { passcodeSet: boolean; onDone: () => void }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const r = await api.post<{ token: string }>('/api/security/passcode', { passcode: code });
      session.set(r.token);
      onDone();
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card" aria-labelledby="setup-passcode-title" data-testid="setup-passcode">
      <h2 id="setup-passcode-title">3. Passcode (optional)</h2>
      {passcodeSet ? (
        <>
          <p>A passcode is already set: changes here and on the recording sync need it. Change or clear it in Settings.</p>
          <div className="row">
            <button type="button" className="primary" onClick={onDone}>
              Finish
            </button>
          </div>
        </>
      ) : (
        <>
          <p className="small muted">
            Without a passcode, anyone on your network (a guest’s phone, a smart TV) can change these settings and the recording sync’s: shows, syncs,
            deletions. With one, they can still look, but every change needs it. It is a deterrent on a shared network, not strong security.
          </p>
          <form onSubmit={(e) => void save(e)} className="row">
            <Field label="Passcode (4 digits)" error={error}>
              {(p) => passcodeInput(p, code, setCode, 'new-password')}
            </Field>
            <button type="submit" className="primary" disabled={busy || code.length !== 4}>
              Set passcode and finish
            </button>
            <button type="button" onClick={onDone} disabled={busy}>
              Finish without a passcode
            </button>
          </form>
        </>
      )}
    </section>
  );
}
