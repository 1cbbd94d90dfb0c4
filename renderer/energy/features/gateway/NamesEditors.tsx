import { useId } from 'react';
import { Err, ListErrors, ListHeading } from '../../settings/FieldErrors.js';
import type { EditorProps } from '../../settings/SettingField.js';

const SLOTS = Array.from({ length: 24 }, (_, i) => String(i + 1));

/** Smart-load names by slot (1 to 24): a slot picker and a name per row, add and remove. */
export function SmartLoadNamesEditor({ path, schema, value, errors, disabled, set }: EditorProps) {
  const names = (typeof value === 'object' && value !== null ? value : {}) as Record<string, string>;
  const rows = Object.entries(names).sort(([a], [b]) => Number(a) - Number(b));
  const id = useId();
  const put = (entries: Array<[string, string]>) => set(path, Object.fromEntries(entries));
  const free = SLOTS.filter((s) => !(s in names));
  return (
    <fieldset disabled={disabled} data-testid="smart-load-names">
      <ListHeading schema={schema} />
      {rows.map(([slot, name], i) => (
        <div key={slot} className="row list-row" data-testid={`smart-load-${slot}`}>
          <label htmlFor={`${id}-slot-${i}`}>Slot</label>
          <select id={`${id}-slot-${i}`} value={slot} onChange={(e) => put(rows.map(([s, n]) => (s === slot ? [e.target.value, n] : [s, n])))}>
            {[slot, ...free].sort((a, b) => Number(a) - Number(b)).map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
          <label htmlFor={`${id}-name-${i}`}>Name</label>
          <input id={`${id}-name-${i}`} type="text" maxLength={40} value={name} aria-label={`Name of smart load ${slot}`} onChange={(e) => put(rows.map(([s, n]) => (s === slot ? [s, e.target.value] : [s, n])))} />
          <button type="button" aria-label={`Remove smart load ${slot}`} onClick={() => put(rows.filter(([s]) => s !== slot))}>
            Remove
          </button>
          <Err errors={errors} path={`${path}.${slot}`} />
        </div>
      ))}
      <Err errors={errors} path={path} />
      <button type="button" disabled={free.length === 0} onClick={() => put([...rows, [free[0]!, `Load ${free[0]}`]])}>
        Add smart-load name
      </button>
    </fieldset>
  );
}

/** PV string names: inverter serial, string number (1 to 16) and a name per row, add and remove. */
export function StringNamesEditor({ path, schema, value, errors, disabled, set }: EditorProps) {
  const bySerial = (typeof value === 'object' && value !== null ? value : {}) as Record<string, Record<string, string>>;
  const rows: Array<[string, string, string]> = Object.entries(bySerial).flatMap(([serial, m]) => Object.entries(m).map(([n, name]) => [serial, n, name] as [string, string, string]));
  const id = useId();
  const put = (next: Array<[string, string, string]>) => {
    const out: Record<string, Record<string, string>> = {};
    for (const [serial, n, name] of next) (out[serial] ??= {})[n] = name;
    set(path, out);
  };
  const update = (i: number, patch: Partial<{ serial: string; n: string; name: string }>) =>
    put(rows.map((r, j) => (j === i ? [patch.serial ?? r[0], patch.n ?? r[1], patch.name ?? r[2]] : r)));
  return (
    <fieldset disabled={disabled} data-testid="string-names">
      <ListHeading schema={schema} />
      <p className="small muted">An inverter&apos;s serial number is on the dashboard’s Inverters and smart loads card.</p>
      {rows.map(([serial, n, name], i) => (
        <div key={i} className="row list-row">
          <label htmlFor={`${id}-serial-${i}`}>Inverter serial</label>
          <input id={`${id}-serial-${i}`} type="text" maxLength={64} value={serial} onChange={(e) => update(i, { serial: e.target.value })} />
          <label htmlFor={`${id}-n-${i}`}>String</label>
          <select id={`${id}-n-${i}`} value={n} onChange={(e) => update(i, { n: e.target.value })}>
            {Array.from({ length: 16 }, (_, k) => String(k + 1)).map((s) => (
              <option key={s} value={s}>
                {s}
              </option>
            ))}
          </select>
          <label htmlFor={`${id}-name-${i}`}>Name</label>
          <input id={`${id}-name-${i}`} type="text" maxLength={40} value={name} onChange={(e) => update(i, { name: e.target.value })} />
          <button type="button" aria-label={`Remove string name ${i + 1}`} onClick={() => put(rows.filter((_, j) => j !== i))}>
            Remove
          </button>
          <Err errors={errors} path={`${path}.${serial}.${n}`} />
        </div>
      ))}
      <ListErrors errors={errors} path={path} />
      <button type="button" onClick={() => put([...rows, [rows[rows.length - 1]?.[0] ?? '', String(Math.min(16, Number(rows[rows.length - 1]?.[1] ?? 0) + 1)), 'String']])}>
        Add string name
      </button>
    </fieldset>
  );
}
