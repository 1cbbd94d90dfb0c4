import { api } from '../../../api.js';

/** Probes the weather service with the place or coordinates being edited (not yet saved). */
export async function testWeather(w: Record<string, unknown>): Promise<string> {
  const lat = typeof w.latitude === 'number' ? w.latitude : null;
  const lon = typeof w.longitude === 'number' ? w.longitude : null;
  const location = typeof w.location === 'string' ? w.location.trim() : '';
  const body = lat !== null && lon !== null ? { latitude: lat, longitude: lon, ...(location ? { location } : {}) } : { location };
  if (lat === null && !location) throw new Error('Enter a place name or coordinates first.');
  const r = await api.post<{ ok: boolean; error?: string; outdoorTemp?: number | null; unit?: string; location?: string; detail?: string }>('/api/test/weather', body);
  if (!r.ok) throw new Error(`The weather service did not answer: ${r.error ?? 'unknown error'}`);
  const temp = r.outdoorTemp === null || r.outdoorTemp === undefined ? 'no temperature' : `${r.outdoorTemp} °${r.unit === 'fahrenheit' ? 'F' : 'C'}`;
  return `Weather answered: ${temp} at ${r.location ?? location}${r.detail ? `, ${r.detail}` : ''}.`;
}
