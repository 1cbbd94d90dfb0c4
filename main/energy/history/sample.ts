import type { LiveState } from '../live-state.js';
import type { SharedLiveFields } from '../live/shared-fields.js';

/** The snapshot's power fields, in watts, signed. Downsampled rows carry their min and max too. */
export const POWER_FIELDS = ['solar', 'solarNative', 'solarThirdParty', 'home', 'homeGeneral', 'smartPort', 'grid', 'battery'] as const;
/** Every numeric field of a sample after `t`, in column order (CSV, SQLite table). */
export const SAMPLE_FIELDS = [...POWER_FIELDS, 'soc', 'outdoorTemp'] as const;

export type PowerField = (typeof POWER_FIELDS)[number];
export type SampleField = (typeof SAMPLE_FIELDS)[number];

/** One history sample per poll: `t` in epoch ms plus the readings (null where unsupported). */
export type HistorySample = { t: number } & Record<SampleField, number | null>;

/** One downsampled row: bucket start, means, min/max of power fields, and the sample count. */
export type DownsampledRow = { t: number; n: number } & Record<SampleField | `${PowerField}Min` | `${PowerField}Max`, number | null>;

export const isPowerField = (f: SampleField): f is PowerField => (POWER_FIELDS as readonly string[]).includes(f);

/** The history sample of a freshly polled live state; `outdoorTemp` is null with weather off. */
export function sampleFromState(state: LiveState & Readonly<Pick<SharedLiveFields, 'weather'>>, t = state.lastUpdated ?? 0): HistorySample {
  const power = Object.fromEntries(POWER_FIELDS.map((f) => [f, state.power[f]])) as Record<PowerField, number | null>;
  return { t, ...power, soc: state.battery.soc, outdoorTemp: state.weather?.outdoorTemp ?? null };
}

/** Epoch ms from an integer string or an ISO 8601 timestamp; null when unparseable. */
export function parseTime(value: unknown): number | null {
  if (typeof value === 'number') return Number.isSafeInteger(value) ? value : null;
  if (typeof value !== 'string') return null;
  const s = value.trim();
  if (/^-?\d+$/.test(s)) {
    const n = Number(s);
    return Number.isSafeInteger(n) ? n : null;
  }
  // ISO 8601 only (a date, optionally with time and zone); Date.parse alone accepts too much.
  if (!/^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})?)?$/.test(s)) return null;
  const t = Date.parse(s);
  return Number.isFinite(t) ? t : null;
}

export const round4 = (v: number | null): number | null => (v === null ? null : Math.round(v * 10_000) / 10_000);
