import { z } from 'zod';
import { httpUrl, live, settingsSection, withDefaults } from '../features/section.js';

export const weatherSettings = z
  .object({
    enabled: z.boolean().default(false).meta(live),
    location: z.string().trim().max(120).default('').meta({ ...live, description: 'Place name shown with the temperature (and looked up when no coordinates are set).' }),
    latitude: z.number().min(-90).max(90).nullable().default(null).meta(live),
    longitude: z.number().min(-180).max(180).nullable().default(null).meta(live),
    refreshMinutes: z.number().int().min(5).max(180).default(10).meta(live),
    forecastUrl: httpUrl.default('https://api.open-meteo.com/v1/forecast').meta({ ...live, description: 'Forecast API base URL (tests and the demo point it at a local fake).' }),
    geocodingUrl: httpUrl.default('https://geocoding-api.open-meteo.com/v1/search').meta({ ...live, description: 'Geocoding API base URL.' }),
  })
  .strict();

export const weatherSection = settingsSection({
  key: 'weather',
  schema: withDefaults(weatherSettings),
  seed: ({ env, str }) => ({
    ...(str(env.WEATHER_FORECAST_URL) ? { forecastUrl: str(env.WEATHER_FORECAST_URL) } : {}),
    ...(str(env.WEATHER_GEOCODING_URL) ? { geocodingUrl: str(env.WEATHER_GEOCODING_URL) } : {}),
  }),
  publicView: (w, blank) => (blank ? { ...w, forecastUrl: '', geocodingUrl: '' } : w),
});
