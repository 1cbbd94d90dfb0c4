import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { z } from 'zod';
import type { Logger } from '../../core/logger.js';
import { createSettingsStore } from '../../core/settings-store.js';

/** scrypt cost: about 16 MB and a few tens of ms per check, so guessing stays slow. */
const SCRYPT = { N: 16384, r: 8, p: 1 } as const;
const KEY_BYTES = 32;

const hashSchema = z
  .object({
    algorithm: z.literal('scrypt'),
    N: z.number().int().positive(),
    r: z.number().int().positive(),
    p: z.number().int().positive(),
    salt: z.string().min(1),
    hash: z.string().min(1),
    /**
     * How `salt` and `hash` are written. Absent: both base64 (this bridge's own hashes). `text-hex`:
     * the salt is used as its UTF-8 text and the hash is hex, as sigen-home-bridge stores its
     * passcode (`scrypt(passcode, salt text, N=16384, r=8, p=1, 64 bytes)`), so an imported
     * passcode keeps working unchanged. The key length is the stored hash's length.
     */
    encoding: z.literal('text-hex').optional(),
  })
  .strict();

/** `<dataDir>/energy/security.json`: kept apart from the settings so a settings reset keeps it. */
export const securityFileSchema = z.object({ passcode: hashSchema.nullable().default(null) }).strict();

export type PasscodeHash = z.output<typeof hashSchema>;

function derive(passcode: string, salt: Buffer, params: ScryptOptions, keyBytes = KEY_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(passcode, salt, keyBytes, { ...params, maxmem: 64 * 1024 * 1024 }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export async function hashPasscode(passcode: string): Promise<PasscodeHash> {
  const salt = randomBytes(16);
  const key = await derive(passcode, salt, SCRYPT);
  return { algorithm: 'scrypt', ...SCRYPT, salt: salt.toString('base64'), hash: key.toString('base64') };
}

/** Timing-safe comparison of `passcode` with a stored hash. */
export async function verifyPasscode(passcode: string, stored: PasscodeHash): Promise<boolean> {
  const text = stored.encoding === 'text-hex';
  const expected = Buffer.from(stored.hash, text ? 'hex' : 'base64');
  if (expected.length < 16 || expected.length > 128) return false;
  const salt = text ? Buffer.from(stored.salt, 'utf8') : Buffer.from(stored.salt, 'base64');
  const key = await derive(passcode, salt, { N: stored.N, r: stored.r, p: stored.p }, expected.length);
  return key.length === expected.length && timingSafeEqual(key, expected);
}

export interface PasscodeStore {
  /** True when a passcode is set, and also when the file holding it was found damaged (fail closed). */
  readonly isSet: boolean;
  /**
   * The kept copy of a damaged `security.json` (not JSON, or not a valid passcode record), else null.
   * The gate then stays locked and no passcode unlocks it until the file is deleted: a damaged file
   * must not quietly open the settings to the whole LAN.
   */
  readonly damaged: string | null;
  /** Stores the salted hash of `passcode` (atomically); the passcode itself is never kept. */
  set(passcode: string): Promise<void>;
  clear(): void;
  /**
   * Stores a hash made elsewhere (an import from another program), checked against the schema;
   * the passcode that made it unlocks from now on.
   */
  adopt(hash: PasscodeHash): void;
  /** Whether the stored hash is exactly `hash` (an import run twice finds its own passcode). */
  holds(hash: PasscodeHash): boolean;
  /** False when no passcode is set. */
  verify(passcode: string): Promise<boolean>;
}

export function createPasscodeStore(opts: { file: string; logger: Logger }): PasscodeStore {
  const store = createSettingsStore({ file: opts.file, schema: securityFileSchema, seed: () => ({ passcode: null }), logger: opts.logger, onUnreadable: 'keep' });
  if (store.damaged) {
    opts.logger.error(
      { file: opts.file, copy: store.damaged },
      'the passcode file is damaged: settings stay locked and no passcode unlocks them; stop the bridge, delete the file (a copy was kept) and start it again to set a new passcode',
    );
  }
  return {
    get isSet() {
      return store.damaged !== null || store.get().passcode !== null;
    },
    get damaged() {
      return store.damaged;
    },
    async set(passcode) {
      store.replace({ passcode: await hashPasscode(passcode) });
    },
    clear() {
      store.replace({ passcode: null });
    },
    adopt(hash) {
      store.replace({ passcode: hash });
    },
    holds(hash) {
      const stored = store.get().passcode;
      return !store.damaged && stored !== null && JSON.stringify(stored) === JSON.stringify(hashSchema.parse(hash));
    },
    async verify(passcode) {
      const stored = store.get().passcode;
      if (!stored || store.damaged) return false;
      return verifyPasscode(passcode, stored);
    },
  };
}
