import { z } from 'zod';
import { noHttpAnswer, OutboundRefused } from '../../core/outbound.js';
import type { FetchLike, IrradianceHour } from '../feature.js';

/** A weather request gives up after this long; answers are read up to this many bytes. */
export const WEATHER_TIMEOUT_MS = 10_000;
const MAX_BYTES = 256 * 1024;

export interface Place {
  name: string;
  latitude: number;
  longitude: number;
  /** "Region, Country" when the geocoder gives them. */
  detail: string;
}

export interface Reading {
  outdoorTemp: number | null;
  weatherCode: number | null;
}

/** A weather failure safe to show; `detail` (the socket error) is for the log only. */
export class WeatherError extends Error {
  constructor(
    message: string,
    readonly detail?: string,
  ) {
    super(message);
  }
}

const forecastAnswer = z.object({
  current: z.object({
    temperature_2m: z.number().nullable().optional(),
    weather_code: z.number().int().nullable().optional(),
  }),
});

const geocodeAnswer = z.object({
  results: z
    .array(
      z.object({
        name: z.string().max(200),
        latitude: z.number().min(-90).max(90),
        longitude: z.number().min(-180).max(180),
        country: z.string().max(200).optional(),
        admin1: z.string().max(200).optional(),
      }),
    )
    .optional(),
});

/** GET a JSON document with a timeout and a size bound; the answer is validated by the caller. */
async function getJson(fetchFn: FetchLike, url: string, cancel?: AbortSignal): Promise<unknown> {
  let res: Response;
  try {
    const signal = cancel ? AbortSignal.any([AbortSignal.timeout(WEATHER_TIMEOUT_MS), cancel]) : AbortSignal.timeout(WEATHER_TIMEOUT_MS);
    res = await fetchFn(url, { headers: { accept: 'application/json' }, redirect: 'error', signal });
  } catch (err) {
    if (err instanceof OutboundRefused) throw new WeatherError(err.message);
    // A closed port, a silent host and a service that does not speak HTTP read the same.
    const e = err as Error & { cause?: { code?: string; message?: string } };
    throw new WeatherError(noHttpAnswer(url), e.name === 'TimeoutError' ? `no answer within ${WEATHER_TIMEOUT_MS / 1000} s` : (e.cause?.code ?? e.cause?.message ?? e.message));
  }
  if (!res.ok) {
    void res.body?.cancel().catch(() => {});
    throw new WeatherError(`${new URL(url).host} answered HTTP ${res.status}`);
  }
  const reader = res.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  if (reader) {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      size += value.byteLength;
      if (size > MAX_BYTES) {
        void reader.cancel().catch(() => {});
        throw new WeatherError('the weather answer is too large');
      }
      chunks.push(value);
    }
  }
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new WeatherError('the weather answer is not JSON');
  }
}

/** Open-Meteo forecast: the current temperature (in `unit`) and WMO weather code. */
export async function fetchCurrent(fetchFn: FetchLike, baseUrl: string, lat: number, lon: number, unit: 'celsius' | 'fahrenheit', cancel?: AbortSignal): Promise<Reading> {
  const u = new URL(baseUrl);
  u.searchParams.set('latitude', String(lat));
  u.searchParams.set('longitude', String(lon));
  u.searchParams.set('current', 'temperature_2m,weather_code');
  u.searchParams.set('temperature_unit', unit);
  const parsed = forecastAnswer.safeParse(await getJson(fetchFn, u.toString(), cancel));
  if (!parsed.success) throw new WeatherError('the forecast answer has no current temperature');
  return { outdoorTemp: parsed.data.current.temperature_2m ?? null, weatherCode: parsed.data.current.weather_code ?? null };
}

/** Open-Meteo geocoding search: up to `count` places matching a name. */
export async function searchPlaces(fetchFn: FetchLike, baseUrl: string, name: string, count = 5, cancel?: AbortSignal): Promise<Place[]> {
  const u = new URL(baseUrl);
  u.searchParams.set('name', name);
  u.searchParams.set('count', String(count));
  u.searchParams.set('language', 'en');
  u.searchParams.set('format', 'json');
  const parsed = geocodeAnswer.safeParse(await getJson(fetchFn, u.toString(), cancel));
  if (!parsed.success) throw new WeatherError('the place search answer is not understood');
  return (parsed.data.results ?? []).slice(0, count).map((r) => ({
    name: r.name,
    latitude: r.latitude,
    longitude: r.longitude,
    detail: [r.admin1, r.country].filter(Boolean).join(', '),
  }));
}

/** At most this many hours are read from one answer (16 days, Open-Meteo's longest forecast). */
/** The most hours read from one answer: past days for the plant fit (up to 16) plus the three ahead. */
const MAX_HOURS = 20 * 24;

const irradianceAnswer = z.object({
  hourly: z.object({
    time: z.array(z.number().int()).max(MAX_HOURS),
    shortwave_radiation: z.array(z.number().min(0).max(2000).nullable()).max(MAX_HOURS),
  }),
});

/**
 * Open-Meteo hourly global horizontal irradiance (`shortwave_radiation`, W/m², mean of the preceding
 * hour) from `pastDays` days back (1: yesterday) to the day after tomorrow in zone `timeZone`. Hours
 * without a value are left out.
 */
export async function fetchIrradiance(fetchFn: FetchLike, baseUrl: string, lat: number, lon: number, timeZone: string, cancel?: AbortSignal, pastDays = 1): Promise<IrradianceHour[]> {
  const u = new URL(baseUrl);
  u.searchParams.set('latitude', String(lat));
  u.searchParams.set('longitude', String(lon));
  u.searchParams.set('hourly', 'shortwave_radiation');
  u.searchParams.set('past_days', String(Math.min(16, Math.max(1, Math.round(pastDays)))));
  // Hours are labelled by their end: three days make tomorrow's last hour (labelled 00:00 after it) complete.
  u.searchParams.set('forecast_days', '3');
  u.searchParams.set('timezone', timeZone);
  u.searchParams.set('timeformat', 'unixtime');
  const parsed = irradianceAnswer.safeParse(await getJson(fetchFn, u.toString(), cancel));
  if (!parsed.success || parsed.data.hourly.time.length !== parsed.data.hourly.shortwave_radiation.length) throw new WeatherError('the forecast answer has no hourly irradiance');
  const { time, shortwave_radiation: rad } = parsed.data.hourly;
  const out: IrradianceHour[] = [];
  for (let i = 0; i < time.length; i++) if (rad[i] !== null && rad[i] !== undefined) out.push({ t: time[i]! * 1000, wm2: rad[i]! });
  return out;
}
