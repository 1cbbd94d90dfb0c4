import fs from 'node:fs';
import type { z } from 'zod';
import { removeStaleTempFiles, writeFileAtomic } from './atomic-file.js';
import type { Logger } from './logger.js';

/**
 * A JSON settings file validated by one zod schema. Missing file → the seed (from the environment).
 * Writes are atomic; an invalid update throws before anything is written.
 *
 * A file that cannot be used (not JSON, e.g. truncated, or not matching the schema) never stops the
 * service: a copy is kept beside it (`<file>.corrupt-<ms>` or `<file>.invalid-<ms>`), the error is
 * logged, and, by default, the store starts from the seed. With `onUnreadable: 'keep'` the file is
 * left as it is and `damaged` names the copy, for stores where a fallback would weaken protection
 * (the passcode): the caller decides what a damaged file means.
 */
export interface SettingsStore<T> {
  get(): T;
  /** Validates the whole candidate, writes it, then returns it. */
  replace(next: unknown): T;
  file: string;
  /** With `onUnreadable: 'keep'`: the kept copy of an unusable file found at start, else null. */
  readonly damaged: string | null;
}

export function createSettingsStore<S extends z.ZodType>(opts: {
  file: string;
  schema: S;
  seed: () => z.output<S>;
  logger: Logger;
  /** `reseed` (default): start from the seed and rewrite the file. `keep`: leave the file alone, mark `damaged`. */
  onUnreadable?: 'reseed' | 'keep';
  /** Epoch ms for the name of a kept copy (default Date.now). */
  now?: () => number;
}): SettingsStore<z.output<S>> {
  const { file, schema, seed, logger } = opts;
  const now = opts.now ?? Date.now;
  let current: z.output<S>;
  let damaged: string | null = null;

  const unusable = (kind: 'corrupt' | 'invalid', detail: Record<string, unknown>): z.output<S> => {
    let backup = `${file}.${kind}-${now()}`;
    for (let i = 1; fs.existsSync(backup); i++) backup = `${file}.${kind}-${now()}-${i}`;
    fs.copyFileSync(file, backup);
    const initial = schema.parse(seed());
    if (opts.onUnreadable === 'keep') {
      damaged = backup;
      logger.error({ file, backup, ...detail }, `settings file ${kind}; kept a copy and left the file in place`);
      return initial;
    }
    logger.error({ file, backup, ...detail }, `settings file ${kind}; kept a copy and started from the seeds`);
    writeFileAtomic(file, JSON.stringify(initial, null, 2));
    return initial;
  };

  const load = (): z.output<S> => {
    const stale = removeStaleTempFiles(file);
    if (stale.length) logger.warn({ file, removed: stale }, 'removed temporary files left by an interrupted write');
    if (!fs.existsSync(file)) {
      const initial = schema.parse(seed());
      writeFileAtomic(file, JSON.stringify(initial, null, 2));
      return initial;
    }
    let json: unknown;
    try {
      json = JSON.parse(fs.readFileSync(file, 'utf8'));
    } catch (err) {
      return unusable('corrupt', { error: (err as Error).message });
    }
    const parsed = schema.safeParse(json);
    if (parsed.success) return parsed.data;
    return unusable('invalid', { issues: parsed.error.issues });
  };

  current = load();
  return {
    file,
    get damaged() {
      return damaged;
    },
    get: () => current,
    replace(next) {
      const parsed = schema.parse(next);
      writeFileAtomic(file, JSON.stringify(parsed, null, 2));
      current = parsed;
      damaged = null;
      return parsed;
    },
  };
}
