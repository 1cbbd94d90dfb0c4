import { useId } from 'react';
import { ListErrors, ListHeading } from '../../settings/FieldErrors.js';
import type { EditorProps } from '../../settings/SettingField.js';

/** A list of host names: one text box per entry, add and remove. */
export function HostListEditor({ path, schema, value, errors, disabled, set }: EditorProps) {
  const list = (Array.isArray(value) ? value : []) as string[];
  const id = useId();
  return (
    <fieldset disabled={disabled} data-testid="allowed-hosts">
      <ListHeading schema={schema} />
      {list.map((h, i) => (
        <div key={i} className="row list-row">
          <label htmlFor={`${id}-${i}`} className="sr-only">
            Host name {i + 1}
          </label>
          <input id={`${id}-${i}`} type="text" value={h} placeholder="pc.home.lan" onChange={(e) => set(path, list.map((x, j) => (j === i ? e.target.value : x)))} />
          <button type="button" aria-label={`Remove host name ${i + 1}`} onClick={() => set(path, list.filter((_, j) => j !== i))}>
            Remove
          </button>
        </div>
      ))}
      <ListErrors errors={errors} path={path} />
      <button type="button" disabled={list.length >= 32} onClick={() => set(path, [...list, ''])}>
        Add host name
      </button>
    </fieldset>
  );
}
