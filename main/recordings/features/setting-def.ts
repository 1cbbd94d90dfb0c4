import type { z } from 'zod';

/** How a secret is shown on read; writing this value back leaves the stored secret unchanged. */
export const SECRET_MASK = '••••••••';

/**
 * One recording-sync setting: its validator, default, environment seed, secrecy, when it applies and
 * its hint. The description is written for a householder: the settings page shows it as is.
 */
export interface SettingDef {
  schema: z.ZodType;
  default: unknown;
  /** Environment variable consulted when the setting is not stored. */
  env?: string;
  secret?: boolean;
  /** `live`: takes effect on save; `restart`: read at start. */
  applies: 'live' | 'restart';
  /** The setting's name in words, as refusals and the pages say it ("Folder for TV shows"). */
  label: string;
  /** One or two plain sentences for the settings page. */
  description: string;
}

/** The values a group of setting definitions holds (number, boolean or string, after its default). */
export type ValuesOf<D> = {
  [K in keyof D]: D[K] extends { default: number } ? number : D[K] extends { default: boolean } ? boolean : string;
};

/** The secret settings of a group of definitions. */
export type SecretKeysOf<D> = { [K in keyof D]: D[K] extends { secret: true } ? K : never }[keyof D] & string;

/**
 * The settings as one feature sees them: the values it may read (its own and the core's), the
 * secrets it owns, and the owner's patch. The service hands each feature its one settings store;
 * the type keeps a feature to its own keys.
 */
export interface FeatureSettings<V, S extends string = never> {
  /** Effective values (stored → env → default), secrets in clear. */
  get(): V;
  /** Validates and stores a patch (400 naming the field); `cleared`: secrets cleared because their destination changed. */
  patch(body: Partial<Record<keyof V & string, unknown>>, now: number, by?: { owner?: boolean }): { cleared: readonly string[] };
  /** Whether the destination `key` names now is one the owner set. */
  ownerSet(key: keyof V & string): boolean;
  /** The secret to attach to a request for `url`, '' when the secret was not given for it. */
  secretFor(key: S, url: string): string;
}
