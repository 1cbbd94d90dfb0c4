import fs from 'node:fs';
import { IMPORT_CAPS, jsonFailure, readImportText } from '../../core/import-file.js';
import path from 'node:path';
import { z } from 'zod';
import { identitySchema, saveIdentity, type BridgeIdentity } from '../homekit/identity.js';

/**
 * Its HomeKit identity, from `hap-persist/` (hap-nodejs storage, the same library and format this
 * bridge uses): `AccessoryInfo.<id>.json` holds the bridge's long-term keys (`signSk`, `signPk`),
 * setup code and id, and the paired controllers with their public keys. Carried into this bridge's
 * own store under the same id, a Home app paired with the old bridge verifies against the same
 * keys and keeps working without pairing again.
 */
const hex = (bytes: number) => z.string().regex(new RegExp(`^[0-9a-fA-F]{${bytes * 2}}$`), `must be ${bytes} bytes as hex`);

export const accessoryInfoSchema = z.looseObject({
  displayName: z.string().default(''),
  category: z.number().int().default(2),
  pincode: z.string().default(''),
  signSk: hex(64),
  signPk: hex(32),
  pairedClients: z.record(z.string(), hex(32)).default({}),
  pairedClientsPermission: z.record(z.string(), z.number().int()).default({}),
  configVersion: z.number().int().default(1),
  configHash: z.string().default(''),
  setupID: z.string().regex(/^[0-9A-Z]{4}$/).optional(),
  lastFirmwareVersion: z.string().optional(),
});
export type AccessoryInfoFile = z.output<typeof accessoryInfoSchema>;

export interface SigenIdentity {
  /** The file it came from (`AccessoryInfo.4A69F479A48F.json`). */
  file: string;
  username: string;
  setupId: string;
  displayName: string;
  pairedControllers: number;
  info: AccessoryInfoFile;
}

const FILE = /^AccessoryInfo\.([0-9A-F]{12})\.json$/;
const usernameOf = (id: string) => id.match(/../g)!.join(':');

/**
 * The identity to carry: the one whose setup code is the saved PIN (its bridge publishes under
 * that one; the others are left from earlier PINs), else the one with paired controllers.
 * `problems` lists files that could not be read.
 */
export function readSigenIdentity(dir: string, pin: string | null): { identity: SigenIdentity | null; problems: string[]; others: number } {
  const persist = path.join(dir, 'hap-persist');
  const problems: string[] = [];
  const found: SigenIdentity[] = [];
  let names: string[] = [];
  try {
    names = fs.readdirSync(persist).filter((n) => FILE.test(n));
  } catch {
    return { identity: null, problems, others: 0 };
  }
  for (const name of names.sort()) {
    try {
      const text = readImportText(path.join(persist, name), { inside: dir, maxBytes: IMPORT_CAPS.smallFile }, 'the file');
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch (err) {
        throw new Error(jsonFailure(err));
      }
      const info = accessoryInfoSchema.parse(json);
      const username = usernameOf(FILE.exec(name)![1]!);
      const setupId = info.setupID ?? '';
      found.push({ file: name, username, setupId, displayName: info.displayName, pairedControllers: Object.keys(info.pairedClients).length, info });
    } catch (err) {
      problems.push(`hap-persist/${name}: ${err instanceof z.ZodError ? err.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ') : (err as Error).message}`);
    }
  }
  const identity = found.find((f) => pin !== null && f.info.pincode === pin) ?? found.find((f) => f.pairedControllers > 0) ?? null;
  return { identity, problems, others: found.length - (identity ? 1 : 0) };
}

/**
 * Writes the identity into this bridge's HomeKit folder (`<data>/energy/homekit`): `identity.json`
 * (id and setup id) and hap-nodejs' `persist/AccessoryInfo.<id>.json` (keys and paired
 * controllers). Accessory ids are not carried: this bridge's accessories are its own, and the
 * controller finds them by asking the bridge. `writeItem` writes the store item through a running
 * bridge's hap-nodejs storage (else the file is written); it takes effect when the bridge (re)starts.
 */
export function writeSigenIdentity(homekitDir: string, id: SigenIdentity, writeItem?: (key: string, value: unknown) => void): BridgeIdentity {
  const setupId = identitySchema.shape.setupId.safeParse(id.setupId).success ? id.setupId : null;
  const current = readIdentityFile(path.join(homekitDir, 'identity.json'));
  const identity = identitySchema.parse({ username: id.username, setupId: setupId ?? current?.setupId ?? 'SIGN' });
  const persist = path.join(homekitDir, 'persist');
  const key = `AccessoryInfo.${identity.username.replace(/:/g, '')}.json`;
  const info = { ...id.info, setupID: identity.setupId };
  if (writeItem) writeItem(key, info);
  else {
    fs.mkdirSync(persist, { recursive: true });
    const file = path.join(persist, key);
    const tmp = `${file}.${process.pid}.tmp`;
    fs.writeFileSync(tmp, JSON.stringify(info));
    fs.renameSync(tmp, file);
  }
  return saveIdentity(path.join(homekitDir, 'identity.json'), identity);
}

function readIdentityFile(file: string): BridgeIdentity | null {
  try {
    const parsed = identitySchema.safeParse(JSON.parse(fs.readFileSync(file, 'utf8')));
    return parsed.success ? parsed.data : null;
  } catch {
    return null;
  }
}

/** How many controllers are paired with this bridge's current identity (read from its store files). */
export function pairedHere(homekitDir: string): number {
  const current = readIdentityFile(path.join(homekitDir, 'identity.json'));
  if (!current) return 0;
  try {
    const raw = JSON.parse(fs.readFileSync(path.join(homekitDir, 'persist', `AccessoryInfo.${current.username.replace(/:/g, '')}.json`), 'utf8')) as { pairedClients?: Record<string, unknown> };
    return Object.keys(raw.pairedClients ?? {}).length;
  } catch {
    return 0;
  }
}
