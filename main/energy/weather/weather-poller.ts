import type { Clock, Timer } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { FeatureSettings, FetchLike } from '../feature.js';
import type { z } from 'zod';
import type { weatherSection, weatherSettings } from './settings.js';
import { fetchCurrent, searchPlaces, WeatherError, type Place } from './open-meteo.js';
import type { WeatherReading } from './live-fields.js';

export type { WeatherReading };

export type WeatherSettings = z.output<typeof weatherSettings>;

/** Until the first reading lands, a failed fetch (or place lookup) is retried this often. */
export const FIRST_READING_RETRY_MS = 30_000;


export interface WeatherStatus {
  lastError: string | null;
  lastAttemptAt: number | null;
  nextAttemptAt: number | null;
}

export interface WeatherPollerDeps {
  clock: Clock;
  fetch: FetchLike;
  logger: Logger;
  settings: () => FeatureSettings<typeof weatherSection>;
  onReading(r: WeatherReading): void;
}

/** Resolves the configured place: coordinates when set, else a geocoding search for the name. */
export async function resolvePlace(fetchFn: FetchLike, w: WeatherSettings, cache?: Map<string, Place>, cancel?: AbortSignal): Promise<Place> {
  if (w.latitude !== null && w.longitude !== null) return { name: w.location || `${w.latitude}, ${w.longitude}`, latitude: w.latitude, longitude: w.longitude, detail: '' };
  const name = w.location.trim();
  if (!name) throw new WeatherError('set a place name or coordinates');
  const hit = cache?.get(name);
  if (hit) return hit;
  const [place] = await searchPlaces(fetchFn, w.geocodingUrl, name, 1, cancel);
  if (!place) throw new WeatherError(`no place called "${name}" was found`);
  cache?.set(name, place);
  return place;
}

/**
 * Fetches the outdoor temperature on a timer. A failed fetch gets one immediate second attempt;
 * until the first reading lands it retries every 30 s, then refreshes every `refreshMinutes`.
 */
export class WeatherPoller {
  private timer: Timer | null = null;
  private generation = 0;
  private hasReading = false;
  private readonly places = new Map<string, Place>();
  /** Aborted on stop/restart, so a request in flight does not outlive its cycle. */
  private cancel = new AbortController();
  readonly status: WeatherStatus = { lastError: null, lastAttemptAt: null, nextAttemptAt: null };

  constructor(private readonly deps: WeatherPollerDeps) {}

  /** (Re)starts from scratch: forgets the first reading and fetches now. */
  restart(): void {
    this.stop();
    this.hasReading = false;
    this.places.clear();
    this.status.lastError = null;
    const gen = ++this.generation;
    this.schedule(gen, 0);
  }

  stop(): void {
    this.generation++;
    this.cancel.abort();
    this.cancel = new AbortController();
    if (this.timer) this.deps.clock.clear(this.timer);
    this.timer = null;
    this.status.nextAttemptAt = null;
  }

  private schedule(gen: number, ms: number): void {
    if (gen !== this.generation) return;
    this.status.nextAttemptAt = this.deps.clock.now() + ms;
    this.timer = this.deps.clock.setTimeout(() => void this.cycle(gen), ms);
    this.timer.unref?.();
  }

  private async once(): Promise<WeatherReading> {
    const s = this.deps.settings();
    const signal = this.cancel.signal;
    const place = await resolvePlace(this.deps.fetch, s.weather, this.places, signal);
    const r = await fetchCurrent(this.deps.fetch, s.weather.forecastUrl, place.latitude, place.longitude, s.general.temperatureUnit, signal);
    return { ...r, location: s.weather.location || place.name, latitude: place.latitude, longitude: place.longitude, updatedAt: this.deps.clock.now() };
  }

  private async cycle(gen: number): Promise<void> {
    this.timer = null;
    this.status.lastAttemptAt = this.deps.clock.now();
    let reading: WeatherReading | null = null;
    for (let attempt = 1; attempt <= 2 && !reading; attempt++) {
      try {
        reading = await this.once();
      } catch (err) {
        if (gen !== this.generation) return;
        this.status.lastError = err instanceof WeatherError ? err.message : (err as Error).message;
        this.deps.logger.warn({ attempt, error: this.status.lastError }, 'weather fetch failed');
      }
    }
    if (gen !== this.generation) return;
    const refreshMs = this.deps.settings().weather.refreshMinutes * 60_000;
    if (!reading) return this.schedule(gen, this.hasReading ? refreshMs : FIRST_READING_RETRY_MS);
    this.hasReading = true;
    this.status.lastError = null;
    this.deps.onReading(reading);
    this.schedule(gen, refreshMs);
  }
}
