import fs from 'node:fs';
import { HAPStorage } from 'hap-nodejs';
import { setHapStoreWriter } from './store-item.js';

let storagePath: string | null = null;

/**
 * hap-nodejs keeps its store (identity keys, pairings, accessory ids) in one process-wide folder
 * that can be set only before first use. Set it once, at the first bridge start; a second bridge in
 * the same process with another data folder is refused with a clear message instead of silently
 * sharing (or losing) pairings.
 */
export function useHapStorage(dir: string): void {
  if (storagePath === dir) return;
  if (storagePath !== null) throw new Error(`HomeKit storage is already at ${storagePath}; one HomeKit bridge per process`);
  fs.mkdirSync(dir, { recursive: true });
  HAPStorage.setCustomStoragePath(dir);
  storagePath = dir;
  setHapStoreWriter((key, value) => HAPStorage.storage().setItemSync(key, value));
}
