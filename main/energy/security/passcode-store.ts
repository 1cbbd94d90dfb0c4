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
  })
  .strict();

/** `<dataDir>/energy/security.json`: kept apart from the settings so a settings reset keeps it. */
export const securityFileSchema = z.object({ passcode: hashSchema.nullable().default(null) }).strict();

type PasscodeHash = z.output<typeof hashSchema>;

function derive(passcode: string, salt: Buffer, params: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(passcode, salt, KEY_BYTES, { ...params, maxmem: 64 * 1024 * 1024 }, (err, key) => (err ? reject(err) : resolve(key)));
  });
}

export async function hashPasscode(passcode: string): Promise<PasscodeHash> {
  const salt = randomBytes(16);
  const key = await derive(passcode, salt, SCRYPT);
  return { algorithm: 'scrypt', ...SCRYPT, salt: salt.toString('base64'), hash: key.toString('base64') };
}

/** Timing-safe comparison of `passcode` with a stored hash. */
export async function verifyPasscode(passcode: string, stored: PasscodeHash): Promise<boolean> {
  const expected = Buffer.from(stored.hash, 'base64');
  const key = await derive(passcode, Buffer.from(stored.salt, 'base64'), { N: stored.N, r: stored.r, p: stored.p });
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
    async verify(passcode) {
      const stored = store.get().passcode;
      if (!stored || store.damaged) return false;
      return verifyPasscode(passcode, stored);
    },
  };
}
