import fs from 'node:fs';
import type { z } from 'zod';
import { writeFileAtomic } from './atomic-file.js';
import type { Logger } from './logger.js';

/**
 * A JSON settings file validated by one zod schema. Missing file → the seed (from the environment).
 * Writes are atomic; an invalid update throws before anything is written.
 */
export interface SettingsStore<T> {
  get(): T;
  /** Validates the whole candidate, writes it, then returns it. */
  replace(next: unknown): T;
  file: string;
}

export function createSettingsStore<S extends z.ZodType>(opts: {
  file: string;
  schema: S;
  seed: () => z.output<S>;
  logger: Logger;
}): SettingsStore<z.output<S>> {
  const { file, schema, seed, logger } = opts;
  let current: z.output<S>;

  const load = (): z.output<S> => {
    if (!fs.existsSync(file)) {
      const initial = schema.parse(seed());
      writeFileAtomic(file, JSON.stringify(initial, null, 2));
      return initial;
    }
    const raw = fs.readFileSync(file, 'utf8');
    const parsed = schema.safeParse(JSON.parse(raw));
    if (parsed.success) return parsed.data;
    const backup = `${file}.invalid-${Date.now()}`;
    fs.copyFileSync(file, backup);
    logger.error({ file, backup, issues: parsed.error.issues }, 'settings file invalid; kept a copy and started from the seeds');
    const initial = schema.parse(seed());
    writeFileAtomic(file, JSON.stringify(initial, null, 2));
    return initial;
  };

  current = load();
  return {
    file,
    get: () => current,
    replace(next) {
      const parsed = schema.parse(next);
      writeFileAtomic(file, JSON.stringify(parsed, null, 2));
      current = parsed;
      return parsed;
    },
  };
}
