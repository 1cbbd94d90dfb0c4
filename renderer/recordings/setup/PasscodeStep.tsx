import { useState, type FormEvent, type ReactNode } from 'react';
import { Card } from '../../kit/Card.js';
import { Field } from '../../kit/Field.js';
import { passcodeInput } from '../../kit/PasscodeInput.js';
import { messageOf, rec } from '../api.js';
import { lockState, type LockState } from '../lock.js';

/**
 * Optional setup step (shown when this service runs beside the energy bridge): the owner's 4-digit
 * passcode, the same one the energy bridge uses. Once set, changes on both need it; this browser
 * stays unlocked.
 */
export function PasscodeStep({ state, nav }: { state: LockState; nav: ReactNode }) {
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [note, setNote] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const save = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await rec.post('/api/security/passcode', { passcode: code });
      setCode('');
      lockState.set({ ...state, passcodeSet: true, unlocked: true });
      setNote('Passcode set. Changes here and on the energy bridge now need it; this browser stays unlocked until you lock or the session ends.');
    } catch (err) {
      setError(messageOf(err));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Card title="5. Passcode (optional)" id="setup-passcode">
      {state.passcodeSet ? (
        <p data-testid="passcode-note">{note ?? 'A passcode is set (the energy bridge’s): anyone can look, but changes here and there need it.'}</p>
      ) : (
        <>
          <p className="small muted">
            Without a passcode anyone on your network can change settings, follow or drop shows, start syncs and delete recordings from the box. The
            passcode is shared with the energy bridge: one unlock serves both.
          </p>
          <form onSubmit={(e) => void save(e)} className="row">
            <Field label="Passcode (4 digits)" error={error}>
              {(p) => passcodeInput(p, code, setCode, 'new-password')}
            </Field>
            <button type="submit" className="primary" disabled={busy || code.length !== 4}>
              Set passcode
            </button>
          </form>
        </>
      )}
      {nav}
    </Card>
  );
}
