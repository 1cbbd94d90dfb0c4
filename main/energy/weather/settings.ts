import { z } from 'zod';
import { httpUrl, live, settingsSection, withDefaults } from '../settings-section.js';

export const weatherSettings = z
  .object({
    enabled: z.boolean().default(false).meta({ ...live, label: 'Weather', description: 'Show the outdoor temperature beside your readings.' }),
    location: z.string().trim().max(120).default('').meta({ ...live, label: 'Place', description: 'The place whose temperature is shown; it is looked up by name when no coordinates are set.' }),
    latitude: z.number().min(-90).max(90).nullable().default(null).meta({ ...live, label: 'Latitude' }),
    longitude: z.number().min(-180).max(180).nullable().default(null).meta({ ...live, label: 'Longitude' }),
    refreshMinutes: z.number().int().min(5).max(180).default(10).meta({ ...live, label: 'Refresh every', description: 'How often, in minutes, the weather is fetched.' }),
    forecastUrl: httpUrl.default('https://api.open-meteo.com/v1/forecast').meta({ ...live, label: 'Forecast service', description: 'The weather service asked for the temperature. Leave it as it is unless you run your own.' }),
    geocodingUrl: httpUrl.default('https://geocoding-api.open-meteo.com/v1/search').meta({ ...live, label: 'Place search service', description: 'The service that finds a place by its name. Leave it as it is unless you run your own.' }),
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
