import { useCallback, useEffect, useState } from 'react';
import { api, ApiError, messageOf } from '../../api.js';
import { Banner } from '../../kit/Banner.js';
import { Field } from '../../kit/Field.js';

/** GET /api/control/reserve (docs/battery-control.md, "Backup and cut-off SOCs"). */
type Reserve = { supported: true; backupSoc: number; chargeCutoffSoc: number; dischargeCutoffSoc: number } | { supported: false; message: string };
type Key = 'backupSoc' | 'chargeCutoffSoc' | 'dischargeCutoffSoc';

const FIELDS: Array<{ key: Key; label: string; hint: string }> = [
  { key: 'backupSoc', label: 'Backup SOC (%)', hint: 'Kept in the battery for a grid outage.' },
  { key: 'chargeCutoffSoc', label: 'Charge cut-off SOC (%)', hint: 'The battery stops charging here.' },
  { key: 'dischargeCutoffSoc', label: 'Discharge cut-off SOC (%)', hint: 'The battery stops discharging here.' },
];

/**
 * The plant's backup and cut-off SOCs on the control card: shown as the plant holds them, editable
 * by the owner (written through the controller's rails), or why the firmware has none.
 */
export function ReserveSocs() {
  const [reserve, setReserve] = useState<Reserve | null>(null);
  const [draft, setDraft] = useState<Record<Key, string>>({ backupSoc: '', chargeCutoffSoc: '', dischargeCutoffSoc: '' });
  const [note, setNote] = useState<{ kind: 'ok' | 'error'; text: string; field?: string | null } | null>(null);
  const [busy, setBusy] = useState(false);

  const load = useCallback(async () => {
    try {
      const r = await api.get<Reserve>('/api/control/reserve');
      setReserve(r);
      if (r.supported) setDraft({ backupSoc: String(r.backupSoc), chargeCutoffSoc: String(r.chargeCutoffSoc), dischargeCutoffSoc: String(r.dischargeCutoffSoc) });
    } catch (err) {
      setNote({ kind: 'error', text: messageOf(err) });
    }
  }, []);
  useEffect(() => void load(), [load]);

  if (!reserve) return note ? <Banner kind="error">{note.text}</Banner> : null;
  if (!reserve.supported) return <p className="small muted" data-testid="reserve-unsupported">{reserve.message}</p>;

  const save = async () => {
    // Only the values changed here: the others stay as the plant holds them.
    const body: Partial<Record<Key, number>> = {};
    for (const { key } of FIELDS) if (draft[key].trim() !== '' && Number(draft[key]) !== reserve[key]) body[key] = Number(draft[key]);
    setBusy(true);
    try {
      const r = await api.put<{ message: string }>('/api/control/reserve', body);
      setNote({ kind: 'ok', text: r.message });
      await load();
    } catch (err) {
      setNote({ kind: 'error', text: messageOf(err), field: err instanceof ApiError ? err.field : null });
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      data-testid="reserve"
      onSubmit={(e) => {
        e.preventDefault();
        void save();
      }}
    >
      {FIELDS.map(({ key, label, hint }) => (
        <Field key={key} label={label} hint={hint} error={note?.kind === 'error' && note.field === key ? note.text : null}>
          {(p) => <input {...p} type="number" min={0} max={100} step={0.1} value={draft[key]} onChange={(e) => setDraft({ ...draft, [key]: e.target.value })} data-testid={`reserve-${key}`} />}
        </Field>
      ))}
      <p>
        <button type="submit" className="button" disabled={busy} data-testid="reserve-save">
          Save the SOCs
        </button>
      </p>
      {note && !(note.kind === 'error' && note.field && FIELDS.some((f) => f.key === note.field)) && <Banner kind={note.kind}>{note.text}</Banner>}
    </form>
  );
}
