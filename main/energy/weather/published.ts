import { z } from 'zod';
import { snapshotEntities, snapshotGauges, type BlockOf } from '../feature.js';

/** What the weather publishes: its snapshot block (from the live state's reading), the outdoor temperature on MQTT and in the metrics. */
export const weatherBlock = {
  weather: z
    .object({ outdoorTemp: z.number().nullable(), weatherCode: z.number().int().nullable(), location: z.string(), latitude: z.number(), longitude: z.number() })
    .optional(),
};
export type WeatherBlock = BlockOf<typeof weatherBlock>;

/** A reading in the display unit the settings chose, in degrees Celsius (Prometheus' base unit). */
export function toCelsius(v: number | null | undefined, unit: 'celsius' | 'fahrenheit'): number | null {
  if (typeof v !== 'number') return null;
  return unit === 'fahrenheit' ? Math.round(((v - 32) * 5 * 1000) / 9) / 1000 : v;
}

export const weatherEntities = snapshotEntities<WeatherBlock>([
  {
    key: 'outdoor_temperature', component: 'sensor', name: 'Outdoor temperature', unit: '°C', deviceClass: 'temperature', stateClass: 'measurement',
    unitFrom: (u) => ({ unit: u.temperature === 'fahrenheit' ? '°F' : '°C', deviceClass: 'temperature' }),
    value: (s) => s.weather?.outdoorTemp ?? null,
  },
]);

export const weatherGauges = snapshotGauges<WeatherBlock>([
  { name: 'outdoor_temperature_celsius', help: 'Outdoor temperature, °C whatever unit the pages show (weather, when on).', value: (s) => toCelsius(s.weather?.outdoorTemp, s.units.temperature) },
]);
