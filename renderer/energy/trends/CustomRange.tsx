import { useState, type FormEvent } from 'react';
import { Field } from '../../kit/Field.js';
import { fromLocalInput, toLocalInput } from './ranges.js';

/** From/to pickers for a custom range; the chart updates on Apply. */
export function CustomRange({ from, to, onApply }: { from: number; to: number; onApply: (from: number, to: number) => void }) {
  const [a, setA] = useState(toLocalInput(from));
  const [b, setB] = useState(toLocalInput(to));
  const [error, setError] = useState<string | null>(null);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    const f = fromLocalInput(a);
    const t = fromLocalInput(b);
    if (f === null || t === null) return setError('Enter both dates.');
    if (f >= t) return setError('"From" must be before "to".');
    setError(null);
    onApply(f, t);
  };
  return (
    <form className="card row" onSubmit={submit} aria-label="Custom range">
      <Field label="From">{(p) => <input type="datetime-local" value={a} onChange={(e) => setA(e.target.value)} {...p} />}</Field>
      <Field label="To" error={error}>
        {(p) => <input type="datetime-local" value={b} onChange={(e) => setB(e.target.value)} {...p} />}
      </Field>
      <button type="submit" className="primary">
        Apply
      </button>
    </form>
  );
}
