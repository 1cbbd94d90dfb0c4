import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../core/atomic-file.js';

/**
 * Writes one item of hap-nodejs' store (e.g. `AccessoryInfo.<id>.json`), for an identity imported
 * while the service runs. Once a bridge in this process has opened the store, the item goes through
 * hap-nodejs' own storage, so the copy it holds in memory and the file stay the same; before that
 * (HomeKit not loaded: hap-nodejs is loaded only when HomeKit is used) the file is written, and
 * hap-nodejs reads it when the bridge starts. This module does not load hap-nodejs itself.
 */
let storeWriter: ((key: string, value: unknown) => void) | null = null;

/** Called by `useHapStorage` once hap-nodejs' store is open. */
export function setHapStoreWriter(write: (key: string, value: unknown) => void): void {
  storeWriter = write;
}

export function writeHapItem(dir: string, key: string, value: unknown): void {
  if (storeWriter) return storeWriter(key, value);
  fs.mkdirSync(dir, { recursive: true });
  writeFileAtomic(path.join(dir, key), JSON.stringify(value));
}
