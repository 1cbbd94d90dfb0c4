import { Field } from '../../kit/Field.js';

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

/** Step 2: battery, tariff basics and location; every field can stay blank/default. */
export function EssentialsStep({ value, set, errors, onBack, onSave, saving }: { value: Essentials; set: (patch: Partial<Essentials>) => void; errors: Errors; onBack: () => void; onSave: () => void; saving: boolean }) {
  const text = (key: keyof Essentials, label: string, hint?: string, mode: 'decimal' | 'text' = 'decimal') => (
    <Field label={label} hint={hint} error={errors[key]}>
      {(p) => <input type="text" inputMode={mode} value={String(value[key])} onChange={(e) => set({ [key]: e.target.value })} {...p} />}
    </Field>
  );
  return (
    <section className="card" aria-labelledby="step-essentials">
      <h2 id="step-essentials">2. The essentials</h2>
      <fieldset>
        <legend>Battery</legend>
        {text('capacityKwh', 'Battery capacity (kWh)', 'Blank uses the capacity the gateway reports.')}
        {text('reserveSoc', 'Reserve (%)', 'Blank uses the gateway’s backup reserve.')}
      </fieldset>
      <fieldset>
        <legend>Tariff</legend>
        {text('currency', 'Currency', '3-letter code such as AUD, EUR, USD.', 'text')}
        {text('importRate', 'Import price per kWh')}
        {text('feedInRate', 'Feed-in credit per kWh')}
        {text('dailySupplyCharge', 'Daily supply charge')}
        <p className="small muted">Time-of-use windows and credits can be added later in Settings.</p>
      </fieldset>
      <fieldset>
        <legend>Location</legend>
        <Field label="Show the outdoor temperature" checkbox error={errors.weather}>
          {(p) => <input type="checkbox" checked={value.weather} onChange={(e) => set({ weather: e.target.checked })} {...p} />}
        </Field>
        {/* The place is only used for the temperature, so it is asked only when that is on. */}
        {value.weather && text('location', 'Town or place', 'Looked up once to find the local forecast.', 'text')}
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
