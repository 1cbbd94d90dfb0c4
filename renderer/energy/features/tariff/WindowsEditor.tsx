import { Err, Labelled, ListHeading, numText, toNumber } from '../../settings/FieldErrors.js';
import { itemField } from '../../settings/plain.js';
import type { EditorProps } from '../../settings/SettingField.js';

type Obj = Record<string, unknown>;
const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
const DAY_LABEL: Record<string, string> = { mon: 'Mon', tue: 'Tue', wed: 'Wed', thu: 'Thu', fri: 'Fri', sat: 'Sat', sun: 'Sun' };

/** Time-of-use windows: name, start/end time pickers, weekday toggles and rates; first match wins. */
export function WindowsEditor({ path, schema, value, errors, disabled, set }: EditorProps) {
  const f = (key: string) => itemField(schema, key);
  const list = (Array.isArray(value) ? value : []) as Obj[];
  const update = (i: number, patch: Obj) => set(path, list.map((w, j) => (j === i ? { ...w, ...patch } : w)));
  return (
    <fieldset disabled={disabled} data-testid="tou-windows">
      <ListHeading schema={schema} />
      <p className="small muted">Each period applies on the days it starts; outside every period the usual rates apply.</p>
      <Err errors={errors} path={path} />
      {list.map((w, i) => {
        const p = `${path}.${i}`;
        const days = (w.days as string[] | undefined) ?? [...DAYS];
        return (
          <div key={i} className="card" data-testid={`tou-window-${i}`}>
            <div className="row">
              <Labelled field={f('name')} errors={errors} path={`${p}.name`}>
                {(id, d) => <input id={id} aria-describedby={d} type="text" value={String(w.name ?? '')} onChange={(e) => update(i, { name: e.target.value })} />}
              </Labelled>
              <Labelled field={f('start')} errors={errors} path={`${p}.start`}>
                {(id, d) => <input id={id} aria-describedby={d} type="time" value={String(w.start ?? '')} onChange={(e) => update(i, { start: e.target.value })} />}
              </Labelled>
              <Labelled field={f('end')} errors={errors} path={`${p}.end`}>
                {(id, d) => <input id={id} aria-describedby={d} type="time" value={String(w.end ?? '')} onChange={(e) => update(i, { end: e.target.value })} />}
              </Labelled>
              <Labelled field={f('importRate')} errors={errors} path={`${p}.importRate`}>
                {(id, d) => <input id={id} aria-describedby={d} type="number" step="0.0001" min="0" value={numText(w.importRate)} onChange={(e) => update(i, { importRate: toNumber(e.target.value) ?? 0 })} />}
              </Labelled>
              <Labelled field={f('feedInRate')} errors={errors} path={`${p}.feedInRate`}>
                {(id, d) => <input id={id} aria-describedby={d} type="number" step="0.0001" min="0" value={numText(w.feedInRate)} onChange={(e) => update(i, { feedInRate: toNumber(e.target.value) })} />}
              </Labelled>
            </div>
            <div className="row" role="group" aria-label={`Days of ${String(w.name ?? 'window')}`}>
              {DAYS.map((d) => (
                <label key={d} className="small">
                  <input
                    type="checkbox"
                    checked={days.includes(d)}
                    onChange={(e) => update(i, { days: e.target.checked ? DAYS.filter((x) => x === d || days.includes(x)) : days.filter((x) => x !== d) })}
                  />{' '}
                  {DAY_LABEL[d]}
                </label>
              ))}
              <Err errors={errors} path={`${p}.days`} />
              <button type="button" onClick={() => set(path, list.filter((_, j) => j !== i))}>
                Remove window
              </button>
            </div>
          </div>
        );
      })}
      <button type="button" onClick={() => set(path, [...list, { name: `Window ${list.length + 1}`, start: '07:00', end: '10:00', days: [...DAYS], importRate: 0, feedInRate: null }])} disabled={list.length >= 24}>
        Add a window
      </button>
    </fieldset>
  );
}
