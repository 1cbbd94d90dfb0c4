import { z } from 'zod';
import { parseInput } from '../../core/validate.js';
import type { FeatureFactory } from '../features/feature.js';
import { fetchCurrent, searchPlaces, WeatherError } from './open-meteo.js';
import { resolvePlace, WeatherPoller } from './weather-poller.js';

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
export const createWeatherFeature: FeatureFactory = (ctx) => {
  const poller = new WeatherPoller({
    clock: ctx.clock,
    fetch: ctx.fetch,
    logger: ctx.logger.child({ component: 'weather' }),
    settings: ctx.settings,
    onReading: (weather) => {
      if (ctx.settings().weather.enabled) ctx.state.update({ weather });
    },
  });

  const apply = () => {
    if (ctx.settings().weather.enabled) poller.restart();
    else {
      poller.stop();
      if (ctx.state.get().weather) ctx.state.update({ weather: null });
    }
  };

  return {
    name: 'weather',
    start: apply,
    stop: () => poller.stop(),
    onSettings(prev, next) {
      if (changed(prev.weather, next.weather) || prev.general.temperatureUnit !== next.general.temperatureUnit) apply();
    },
    routes(app) {
      app.get('/api/weather', async () => ({ enabled: ctx.settings().weather.enabled, reading: ctx.state.get().weather, ...poller.status }));

      // Place search for the settings page (geocoding at the configured URL).
      app.get('/api/weather/places', { preHandler: ctx.gate }, async (req) => {
        const { name } = parseInput(placesQuery, req.query, 'query');
        try {
          return { ok: true, places: await searchPlaces(ctx.fetch, ctx.settings().weather.geocodingUrl, name, 5) };
        } catch (err) {
          return { ok: false, error: (err as Error).message, places: [] };
        }
      });

      app.post('/api/test/weather', { preHandler: ctx.gate }, async (req) => {
        const body = parseInput(testBody, req.body ?? {}, 'body');
        const s = ctx.settings();
        try {
          const place = await resolvePlace(ctx.fetch, { ...s.weather, location: body.location ?? '', latitude: body.latitude ?? null, longitude: body.longitude ?? null });
          const r = await fetchCurrent(ctx.fetch, s.weather.forecastUrl, place.latitude, place.longitude, s.general.temperatureUnit);
          return { ok: true, ...r, unit: s.general.temperatureUnit, location: place.name, detail: place.detail, latitude: place.latitude, longitude: place.longitude };
        } catch (err) {
          return { ok: false, error: err instanceof WeatherError ? err.message : (err as Error).message };
        }
      });
    },
  };
};
