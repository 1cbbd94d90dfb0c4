import { Err, Labelled, numText, toNumber } from '../../settings/FieldErrors.js';
import type { EditorProps } from '../../settings/SettingField.js';

type Obj = Record<string, unknown>;
const DAYS = ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'] as const;
const DAY_LABEL: Record<string, string> = { mon: 'Mon', tue: 'Tue', wed: 'Wed', thu: 'Thu', fri: 'Fri', sat: 'Sat', sun: 'Sun' };

/** Time-of-use windows: name, start/end time pickers, weekday toggles and rates; first match wins. */
export function WindowsEditor({ path, value, errors, disabled, set }: EditorProps) {
  const list = (Array.isArray(value) ? value : []) as Obj[];
  const update = (i: number, patch: Obj) => set(path, list.map((w, j) => (j === i ? { ...w, ...patch } : w)));
  return (
    <fieldset disabled={disabled} data-testid="tou-windows">
      <legend>Time-of-use windows</legend>
      <p className="small muted">Each window applies on the days it starts; an end before the start runs past midnight, an end equal to the start covers the whole day. Windows may not overlap. Outside every window the fallback rates apply.</p>
      <Err errors={errors} path={path} />
      {list.map((w, i) => {
        const p = `${path}.${i}`;
        const days = (w.days as string[] | undefined) ?? [...DAYS];
        return (
          <div key={i} className="card" data-testid={`tou-window-${i}`}>
            <div className="row">
              <Labelled label="Name" errors={errors} path={`${p}.name`}>
                {(id) => <input id={id} type="text" value={String(w.name ?? '')} onChange={(e) => update(i, { name: e.target.value })} />}
              </Labelled>
              <Labelled label="Start" errors={errors} path={`${p}.start`}>
                {(id) => <input id={id} type="time" value={String(w.start ?? '')} onChange={(e) => update(i, { start: e.target.value })} />}
              </Labelled>
              <Labelled label="End" errors={errors} path={`${p}.end`}>
                {(id) => <input id={id} type="time" value={String(w.end ?? '')} onChange={(e) => update(i, { end: e.target.value })} />}
              </Labelled>
              <Labelled label="Import rate (per kWh)" errors={errors} path={`${p}.importRate`}>
                {(id) => <input id={id} type="number" step="0.0001" min="0" value={numText(w.importRate)} onChange={(e) => update(i, { importRate: toNumber(e.target.value) ?? 0 })} />}
              </Labelled>
              <Labelled label="Feed-in rate (blank = fallback)" errors={errors} path={`${p}.feedInRate`}>
                {(id) => <input id={id} type="number" step="0.0001" min="0" value={numText(w.feedInRate)} onChange={(e) => update(i, { feedInRate: toNumber(e.target.value) })} />}
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
