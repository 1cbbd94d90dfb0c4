import { z } from 'zod';
import { liveOf, type LiveOf } from '../feature.js';

/** The weather's live-state field: the last reading while the weather is on, null otherwise. */
export const weatherLive = {
  weather: z
    .object({ outdoorTemp: z.number().nullable(), weatherCode: z.number().int().nullable(), location: z.string(), latitude: z.number(), longitude: z.number(), updatedAt: z.number() })
    .nullable()
    .default(null),
};
export type WeatherLive = LiveOf<typeof weatherLive>;
export type WeatherReading = NonNullable<WeatherLive['weather']>;
/** The weather's own field of a live state (null while none is published). */
export const weatherOf = (state: object): WeatherReading | null => liveOf<WeatherLive>(state).weather ?? null;
