import { useId, useState } from 'react';
import { ListErrors, ListHeading } from '../../settings/FieldErrors.js';
import type { EditorProps } from '../../settings/SettingField.js';

/** The server's limit on addresses (its schema: at most 8). */
const MAX_ENTRIES = 8;

/**
 * HomeKit's network connections (`homekit.bind`, a list of addresses or interface names; empty:
 * all of them) as a choice: every network connection, or only the ones listed, added and removed
 * one at a time. The value sent stays the server's list.
 */
export function NetworkConnectionsEditor({ path, schema, value, errors, disabled, set }: EditorProps) {
  const list = (Array.isArray(value) ? value : []) as string[];
  const [only, setOnly] = useState(list.length > 0);
  const id = useId();
  const choose = (next: boolean) => {
    setOnly(next);
    if (!next) set(path, []);
    else if (list.length === 0) set(path, ['']);
  };
  return (
    <fieldset disabled={disabled} data-testid="homekit-bind">
      <ListHeading schema={schema} />
      <label className="row">
        <input type="radio" name={`${id}-choice`} checked={!only} onChange={() => choose(false)} /> All network connections
      </label>
      <label className="row">
        <input type="radio" name={`${id}-choice`} checked={only} onChange={() => choose(true)} /> Only these addresses
      </label>
      {only && (
        <>
          {list.map((h, i) => (
            <div key={i} className="row list-row">
              <label htmlFor={`${id}-${i}`} className="sr-only">
                Address {i + 1}
              </label>
              <input id={`${id}-${i}`} type="text" value={h} placeholder="192.168.1.20 or eth0" onChange={(e) => set(path, list.map((x, j) => (j === i ? e.target.value : x)))} />
              <button type="button" aria-label={`Remove address ${i + 1}`} onClick={() => set(path, list.filter((_, j) => j !== i))}>
                Remove
              </button>
            </div>
          ))}
          <p className="small muted">An address of this computer (such as 192.168.1.20) or the name of a network connection (such as eth0).</p>
          <button type="button" disabled={list.length >= MAX_ENTRIES} onClick={() => set(path, [...list, ''])}>
            Add address
          </button>
        </>
      )}
      <ListErrors errors={errors} path={path} />
    </fieldset>
  );
}
