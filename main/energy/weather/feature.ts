import { z } from 'zod';
import { parseInput } from '../../core/validate.js';
import type { EnergyFeatureModule, FeatureFactory, IrradianceForecast } from '../feature.js';
import { PLACE_SEARCH_RATE, PROBE_RATE, registerProbeRoutes } from '../security/probe-limit.js';
import { fetchCurrent, fetchIrradiance, searchPlaces, WeatherError } from './open-meteo.js';
import { resolvePlace, WeatherPoller } from './weather-poller.js';
import { weatherSection } from './settings.js';
import { weatherBlock, weatherEntities, weatherGauges, type WeatherBlock } from './published.js';
import { weatherLive, weatherOf } from './live-fields.js';

const testBody = z
  .object({
    latitude: z.number().min(-90).max(90).optional(),
    longitude: z.number().min(-180).max(180).optional(),
    location: z.string().trim().max(120).optional(),
  })
  .strict()
  .superRefine((b, ctx) => {
    if ((b.latitude === undefined) !== (b.longitude === undefined)) ctx.addIssue({ code: 'custom', path: [b.latitude === undefined ? 'latitude' : 'longitude'], message: 'give both latitude and longitude' });
    if (b.latitude === undefined && !b.location) ctx.addIssue({ code: 'custom', path: ['location'], message: 'give a place name or coordinates' });
  });

const placesQuery = z.object({ name: z.string().trim().min(2, 'type at least 2 letters').max(120) }).strict();

const changed = (a: unknown, b: unknown) => JSON.stringify(a) !== JSON.stringify(b);

/**
 * Outdoor weather from Open-Meteo (or a local fake at the configured base URLs), merged into the
 * live state as `weather` while enabled.
 */
export const createWeatherFeature: FeatureFactory<typeof weatherSection> = (ctx) => {
  // Weather and geocoding are internet services: a home-network address only when the owner set
  // that very URL in the weather settings (the demo's and the tests' local fakes).
  const weatherFetch = ctx.outbound.fetcher(() => {
    const w = ctx.settings().weather;
    return { purpose: 'internet', configured: [w.forecastUrl, w.geocodingUrl] };
  });
  const log = ctx.logger.child({ component: 'weather' });
  /** The answer's error in plain words; the cause of a missing answer goes to the log only. */
  const failure = (err: unknown) => {
    if (err instanceof WeatherError && err.detail) log.info({ detail: err.detail }, `weather check: ${err.message}`);
    return err instanceof WeatherError ? err.message : (err as Error).message;
  };
  const poller = new WeatherPoller({
    clock: ctx.clock,
    fetch: weatherFetch,
    logger: log,
    settings: ctx.settings,
    onReading: (weather) => {
      if (ctx.settings().weather.enabled) ctx.state.update({ weather });
    },
  });

  /** The solar irradiance forecast for the weather place (the outlook's solar forecast). */
  const irradiance: IrradianceForecast = {
    enabled: () => ctx.settings().weather.enabled,
    key: () => JSON.stringify(ctx.settings().weather),
    async fetch(timeZone, pastDays, signal) {
      const w = ctx.settings().weather;
      const place = await resolvePlace(weatherFetch, w, undefined, signal);
      return fetchIrradiance(weatherFetch, w.forecastUrl, place.latitude, place.longitude, timeZone, signal, pastDays);
    },
  };

  const apply = () => {
    if (ctx.settings().weather.enabled) poller.restart();
    else {
      poller.stop();
      if (weatherOf(ctx.state.get())) ctx.state.update({ weather: null });
    }
  };

  return {
    name: 'weather',
    irradiance,
    snapshot() {
      const w = weatherOf(ctx.state.get());
      if (!w) return;
      const { outdoorTemp, weatherCode, location, latitude, longitude } = w;
      return { weather: { outdoorTemp, weatherCode, location, latitude, longitude } } satisfies WeatherBlock;
    },
    start: apply,
    stop: () => poller.stop(),
    onSettings(prev, next) {
      if (changed(prev.weather, next.weather) || prev.general.temperatureUnit !== next.general.temperatureUnit) apply();
    },
    routes(app) {
      app.get('/api/weather', async () => ({ enabled: ctx.settings().weather.enabled, reading: weatherOf(ctx.state.get()), ...poller.status }));

      // Rate-limited per client: the place search (as the user types) and the weather test.
      registerProbeRoutes(app, 'weather requests', (scope) => {
        // Place search for the settings page (geocoding at the configured URL).
        scope.get('/api/weather/places', { preHandler: ctx.gate, config: { rateLimit: PLACE_SEARCH_RATE } }, async (req) => {
          const { name } = parseInput(placesQuery, req.query, 'query');
          try {
            return { ok: true, places: await searchPlaces(weatherFetch, ctx.settings().weather.geocodingUrl, name, 5) };
          } catch (err) {
            return { ok: false, error: failure(err), places: [] };
          }
        });

        scope.post('/api/test/weather', { preHandler: ctx.gate, config: { rateLimit: PROBE_RATE } }, async (req) => {
          const body = parseInput(testBody, req.body ?? {}, 'body');
          const s = ctx.settings();
          try {
            const place = await resolvePlace(weatherFetch, { ...s.weather, location: body.location ?? '', latitude: body.latitude ?? null, longitude: body.longitude ?? null });
            const r = await fetchCurrent(weatherFetch, s.weather.forecastUrl, place.latitude, place.longitude, s.general.temperatureUnit);
            return { ok: true, ...r, unit: s.general.temperatureUnit, location: place.name, detail: place.detail, latitude: place.latitude, longitude: place.longitude };
          } catch (err) {
            return { ok: false, error: failure(err) };
          }
        });
      });
    },
  };
};

/** Outdoor weather: its settings section and its feature. */
export const weatherFeature: EnergyFeatureModule<typeof weatherSection, typeof weatherBlock, typeof weatherLive> = { name: 'weather', settings: [weatherSection], snapshot: weatherBlock, live: weatherLive, entities: weatherEntities, gauges: weatherGauges, create: createWeatherFeature };
