import { z } from 'zod';

/**
 * One section of the energy bridge's settings, owned by the feature folder it configures. The
 * service's settings are the sections of its feature list, in list order (main/energy/settings/energy-settings.ts).
 *
 * The schema carries everything the API publishes: defaults, `.meta({ applies })` (a change applies
 * live or after a restart), `.meta({ secret })` (`hidden` is never returned, `locked` is blanked
 * while a passcode is set and the request has no session), `.meta({ generated })` (a default drawn
 * at random on first start, left out of the published JSON Schema) and `.meta({ description })`,
 * written for a householder: the settings page shows it as the field's hint.
 */
export interface SettingsSection<K extends string = string, S extends z.ZodType = z.ZodType> {
  /** The section's key in the settings file and the API (`tariff`, `smartHome`). */
  readonly key: K;
  /** The section's schema with its default (an empty section is valid). */
  readonly schema: S;
  /** The section's part of the environment seeds (first start and a settings reset). */
  seed?(env: EnvSeeds): unknown;
  /** How GET shows the section; `blank` while a passcode is set and the request has no session. */
  publicView?(value: z.output<S>, blank: boolean): unknown;
  /** Fields only GET shows (such as a `…Set` flag); a client may echo them back and a write ignores them. */
  readonly readOnly?: readonly string[];
}

/** The environment, with the two readers every seed uses. */
export interface EnvSeeds {
  env: NodeJS.ProcessEnv;
  /** A whole number, or undefined when unset or not digits. */
  int(v: string | undefined): number | undefined;
  /** A trimmed string, or undefined when unset or blank. */
  str(v: string | undefined): string | undefined;
}

export function envSeeds(env: NodeJS.ProcessEnv): EnvSeeds {
  return {
    env,
    int: (v) => (v !== undefined && /^\d+$/.test(v.trim()) ? Number(v) : undefined),
    str: (v) => (v !== undefined && v.trim() !== '' ? v.trim() : undefined),
  };
}

/** Declares a section (keeps its key and schema types for the composed settings type). */
export function settingsSection<K extends string, S extends z.ZodType>(s: SettingsSection<K, S>): SettingsSection<K, S> {
  return s;
}

/** An object section whose default is the object with every field at its default. */
export function withDefaults<S extends z.ZodType>(schema: S) {
  return schema.default(() => schema.parse({}) as never);
}

export const live = { applies: 'live' } as const;
export const restart = { applies: 'restart' } as const;

export function isHttpUrl(v: string): boolean {
  try {
    const u = new URL(v);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}
export const httpUrl = z.string().trim().max(2048).refine(isHttpUrl, 'must be an http(s) URL');
export const httpUrlOrBlank = z
  .string()
  .trim()
  .max(2048)
  .refine((v) => v === '' || isHttpUrl(v), 'must be blank or an http(s) URL')
  .default('');
