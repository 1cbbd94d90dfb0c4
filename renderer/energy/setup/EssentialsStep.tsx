import { Field } from '../../kit/Field.js';
import type { JsonSchema } from '../settings/schema.js';
import { schemaAt } from '../settings/form-values.js';
import { ownField } from '../settings/plain.js';

export interface Essentials {
  capacityKwh: string;
  reserveSoc: string;
  currency: string;
  importRate: string;
  feedInRate: string;
  dailySupplyCharge: string;
  location: string;
  weather: boolean;
}

type Errors = Partial<Record<keyof Essentials, string>>;

/** Each wizard field's setting: its label, hint and unit are the server schema's (the settings page shows the same). */
export const ESSENTIALS_PATHS: Record<keyof Essentials, string> = {
  capacityKwh: 'battery.capacityKwh',
  reserveSoc: 'battery.reserveSoc',
  currency: 'general.currency',
  importRate: 'tariff.importRate',
  feedInRate: 'tariff.feedInRate',
  dailySupplyCharge: 'tariff.dailySupplyCharge',
  location: 'weather.location',
  weather: 'weather.enabled',
};

/** Step 2: battery, tariff basics and location; every field can stay blank/default. */
export function EssentialsStep({ value, set, errors, onBack, onSave, saving, schema }: { value: Essentials; set: (patch: Partial<Essentials>) => void; errors: Errors; onBack: () => void; onSave: () => void; saving: boolean; schema: JsonSchema | null }) {
  const words = (key: keyof Essentials) => ownField(ESSENTIALS_PATHS[key], schema ? schemaAt(schema, ESSENTIALS_PATHS[key]) : undefined);
  const text = (key: keyof Essentials, mode: 'decimal' | 'text' = 'decimal') => {
    const w = words(key);
    return (
      <Field label={w.label} hint={w.hint} error={errors[key]}>
        {(p) => (
          <span className="with-unit">
            <input type="text" inputMode={mode} value={String(value[key])} onChange={(e) => set({ [key]: e.target.value })} {...p} />
            {w.unit && <span className="unit">{w.unit}</span>}
          </span>
        )}
      </Field>
    );
  };
  const weather = words('weather');
  return (
    <section className="card" aria-labelledby="step-essentials">
      <h2 id="step-essentials">2. The essentials</h2>
      <fieldset>
        <legend>Battery</legend>
        {text('capacityKwh')}
        {text('reserveSoc')}
      </fieldset>
      <fieldset>
        <legend>Tariff</legend>
        {text('currency', 'text')}
        {text('importRate')}
        {text('feedInRate')}
        {text('dailySupplyCharge')}
        <p className="small muted">Time-of-use windows and credits can be added later in Settings.</p>
      </fieldset>
      <fieldset>
        <legend>Location</legend>
        <Field label={weather.label} hint={weather.hint} checkbox error={errors.weather}>
          {(p) => <input type="checkbox" checked={value.weather} onChange={(e) => set({ weather: e.target.checked })} {...p} />}
        </Field>
        {/* The place is only used for the temperature, so it is asked only when that is on. */}
        {value.weather && text('location', 'text')}
      </fieldset>
      <div className="row">
        <button type="button" onClick={onBack}>
          Back
        </button>
        <button type="button" className="primary" onClick={onSave} disabled={saving}>
          {saving ? 'Saving…' : 'Save and continue'}
        </button>
      </div>
    </section>
  );
}
