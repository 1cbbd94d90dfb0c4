import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { localMinute, startOfLocalDay } from '../tariff/local-time.js';

/**
 * A local stand-in for Open-Meteo (forecast `/v1/forecast` and geocoding `/v1/search`) speaking the
 * same JSON, for tests and `npm run demo`. Binds to loopback only.
 */
export interface FakeWeather {
  readonly forecastUrl: string;
  readonly geocodingUrl: string;
  /** Current conditions it answers with. */
  temperature: number;
  weatherCode: number;
  /** Places the search knows (matched case-insensitively by prefix). */
  places: Array<{ name: string; latitude: number; longitude: number; country: string; admin1?: string }>;
  /**
   * Hourly irradiance it answers with (`hourly=shortwave_radiation`): W/m² at instant `t` (the
   * hour's value is this at the middle of the hour). Null: a clear day at the requested longitude.
   */
  irradiance: ((t: number) => number) | null;
  /** The fake's "now" (the first hour served is local midnight `past_days` before it). */
  now: () => number;
  /** The next `n` requests answer HTTP 503. */
  failNext(n: number): void;
  /** Requests seen, oldest first: path and query. */
  readonly requests: Array<{ path: string; query: URLSearchParams; at: number }>;
  close(): Promise<void>;
}

/** A clear day at longitude `lon`: a half-sine from 06:00 to 18:00 solar time peaking at 800 W/m². */
export const clearSky =
  (lon: number, peak = 800) =>
  (t: number): number => {
    const solarHour = ((((t / 3_600_000 + lon / 15) % 24) + 24) % 24);
    return solarHour <= 6 || solarHour >= 18 ? 0 : Math.round(peak * Math.sin((Math.PI * (solarHour - 6)) / 12) * 10) / 10;
  };

export async function startFakeWeather(opts: { host?: string; temperature?: number; weatherCode?: number; irradiance?: (t: number) => number; now?: () => number } = {}): Promise<FakeWeather> {
  let failures = 0;
  const requests: FakeWeather['requests'] = [];
  const fake = {
    temperature: opts.temperature ?? 21.4,
    weatherCode: opts.weatherCode ?? 2,
    irradiance: (opts.irradiance ?? null) as ((t: number) => number) | null,
    now: opts.now ?? (() => Date.now()),
    places: [
      { name: 'Sydney', latitude: -33.86785, longitude: 151.20732, country: 'Australia', admin1: 'New South Wales' },
      { name: 'Melbourne', latitude: -37.814, longitude: 144.96332, country: 'Australia', admin1: 'Victoria' },
      { name: 'Berlin', latitude: 52.52437, longitude: 13.41053, country: 'Germany', admin1: 'Land Berlin' },
    ],
  };
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://fake');
    requests.push({ path: u.pathname, query: u.searchParams, at: Date.now() });
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    if (failures > 0) {
      failures--;
      return send(503, { error: true, reason: 'fake outage' });
    }
    if (u.pathname === '/v1/forecast') {
      const lat = Number(u.searchParams.get('latitude'));
      const lon = Number(u.searchParams.get('longitude'));
      if (!Number.isFinite(lat) || !Number.isFinite(lon) || Math.abs(lat) > 90 || Math.abs(lon) > 180) return send(400, { error: true, reason: 'Latitude must be in range of -90 to 90°.' });
      if (u.searchParams.get('hourly') === 'shortwave_radiation') {
        const tz = u.searchParams.get('timezone') ?? 'UTC';
        let first: number;
        try {
          first = startOfLocalDay(localMinute(fake.now(), tz).date, tz);
        } catch {
          return send(400, { error: true, reason: `Invalid timezone ${tz}` });
        }
        const past = Math.min(92, Number(u.searchParams.get('past_days') ?? 0) || 0);
        const days = Math.min(16, Number(u.searchParams.get('forecast_days') ?? 7) || 7);
        const curve = fake.irradiance ?? clearSky(lon);
        const time: number[] = [];
        const radiation: number[] = [];
        for (let t = first - past * 86_400_000, end = first + days * 86_400_000; t < end; t += 3_600_000) {
          time.push(t / 1000);
          radiation.push(curve(t - 1_800_000));
        }
        return send(200, { latitude: lat, longitude: lon, timezone: tz, hourly_units: { time: 'unixtime', shortwave_radiation: 'W/m²' }, hourly: { time, shortwave_radiation: radiation } });
      }
      const f = u.searchParams.get('temperature_unit') === 'fahrenheit';
      const temperature = f ? Math.round((fake.temperature * 9) / 5 * 10 + 320) / 10 : fake.temperature;
      return send(200, {
        latitude: lat,
        longitude: lon,
        current_units: { time: 'iso8601', interval: 'seconds', temperature_2m: f ? '°F' : '°C', weather_code: 'wmo code' },
        current: { time: new Date().toISOString().slice(0, 16), interval: 900, temperature_2m: temperature, weather_code: fake.weatherCode },
      });
    }
    if (u.pathname === '/v1/search') {
      const name = (u.searchParams.get('name') ?? '').trim().toLowerCase();
      const count = Math.min(100, Number(u.searchParams.get('count') ?? 10) || 10);
      const results = fake.places.filter((p) => name.length >= 2 && p.name.toLowerCase().startsWith(name)).slice(0, count).map((p, i) => ({ id: i + 1, ...p }));
      return send(200, results.length ? { results, generationtime_ms: 0.1 } : { generationtime_ms: 0.1 });
    }
    send(404, { error: true, reason: 'not found' });
  });
  await new Promise<void>((resolve) => server.listen(0, opts.host ?? '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const base = `http://${opts.host ?? '127.0.0.1'}:${port}`;
  return Object.assign(fake, {
    forecastUrl: `${base}/v1/forecast`,
    geocodingUrl: `${base}/v1/search`,
    failNext(n: number) {
      failures = n;
    },
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  });
}
