import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';
import { writeFileAtomic } from '../../core/atomic-file.js';
import { realPathInside } from '../../core/real-path.js';
import type { PriceInterval } from './price-book.js';

/**
 * The last known prices on disk (`<data>/energy/prices.json`), so a restart or an outage keeps
 * pricing from the last fetched and forecast intervals. Written atomically; only a file this code
 * wrote (it carries `kind: "price-cache"`) is ever replaced, and only inside the data folder
 * (DESIGN rule 12). `key` names the source it came from (site, tariffs): another source's cache is
 * not used.
 */
const MAX_INTERVALS = 5000;
const MAX_FILE_BYTES = 4 * 1024 * 1024;

const intervalSchema = z.object({
  start: z.number().int(),
  end: z.number().int(),
  importPerKwh: z.number(),
  feedInPerKwh: z.number().nullable(),
  descriptor: z.enum(['negative', 'extremelyLow', 'veryLow', 'low', 'neutral', 'high', 'spike']).nullable(),
  kind: z.enum(['actual', 'current', 'forecast']),
  estimate: z.boolean(),
  spike: z.boolean(),
});

const cacheSchema = z.object({
  kind: z.literal('price-cache'),
  version: z.literal(1),
  key: z.string(),
  fetchedAt: z.number().int().nullable(),
  intervals: z.array(intervalSchema).max(MAX_INTERVALS),
});

export interface PriceCacheContent {
  key: string;
  fetchedAt: number | null;
  intervals: PriceInterval[];
}

export const priceCacheFile = (dataDir: string) => path.join(dataDir, 'energy', 'prices.json');

/** Reads the cache; null when there is none, it is unreadable, or not ours. */
export function readPriceCache(dataDir: string): PriceCacheContent | null {
  const file = priceCacheFile(dataDir);
  try {
    if (!realPathInside(dataDir, file)) return null;
    const st = fs.statSync(file, { throwIfNoEntry: false });
    if (!st?.isFile() || st.size > MAX_FILE_BYTES) return null;
    const parsed = cacheSchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
    return parsed.success ? { key: parsed.data.key, fetchedAt: parsed.data.fetchedAt, intervals: parsed.data.intervals } : null;
  } catch {
    return null;
  }
}

/** Whether an existing file at the cache's name is one this code wrote (or there is none). */
function ours(file: string): boolean {
  const st = fs.lstatSync(file, { throwIfNoEntry: false });
  if (!st) return true;
  if (!st.isFile() || st.size > MAX_FILE_BYTES) return false;
  try {
    return (JSON.parse(fs.readFileSync(file, 'utf8')) as { kind?: unknown }).kind === 'price-cache';
  } catch {
    return false;
  }
}

/** Writes the cache; throws (plain words) when the place is not ours to write. */
export function writePriceCache(dataDir: string, content: PriceCacheContent): void {
  const file = priceCacheFile(dataDir);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  if (!realPathInside(dataDir, file)) throw new Error(`${file} leads outside the data folder: the price cache is not written`);
  if (!ours(file)) throw new Error(`${file} was not written by this app: the price cache is not written over it`);
  const intervals = content.intervals.slice(-MAX_INTERVALS);
  writeFileAtomic(file, JSON.stringify({ kind: 'price-cache', version: 1, key: content.key, fetchedAt: content.fetchedAt, intervals }));
}
