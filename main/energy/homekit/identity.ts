import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

/**
 * The bridge's HomeKit identity: the MAC-style id controllers pair with and the 4-character setup
 * id in the setup URI. Kept in its own file so pairings (stored by hap-nodejs under the same id)
 * survive restarts and upgrades; only an explicit reset replaces it.
 */
export const identitySchema = z
  .object({
    username: z.string().regex(/^([0-9A-F]{2}:){5}[0-9A-F]{2}$/),
    setupId: z.string().regex(/^[0-9A-Z]{4}$/),
  })
  .strict();

export type BridgeIdentity = z.output<typeof identitySchema>;

const SETUP_ID_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

export function newIdentity(): BridgeIdentity {
  const mac = randomBytes(6);
  mac[0] = (mac[0]! & 0xfc) | 0x02; // locally administered, unicast
  const username = Array.from(mac, (b) => b.toString(16).padStart(2, '0').toUpperCase()).join(':');
  const setupId = Array.from(randomBytes(4), (b) => SETUP_ID_CHARS[b % 36]).join('');
  return { username, setupId };
}

/** Reads the identity file, creating it (atomically) when absent or unreadable. */
export function loadIdentity(file: string): BridgeIdentity {
  try {
    const parsed = identitySchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
    if (parsed.success) return parsed.data;
  } catch {
    // absent or unreadable: a new identity below
  }
  return saveIdentity(file, newIdentity());
}

export function saveIdentity(file: string, identity: BridgeIdentity): BridgeIdentity {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, JSON.stringify(identity, null, 2));
  fs.renameSync(tmp, file);
  return identity;
}
