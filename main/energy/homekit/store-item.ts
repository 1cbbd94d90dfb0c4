import fs from 'node:fs';
import path from 'node:path';
import { writeFileAtomic } from '../../core/atomic-file.js';

/**
 * Writes one item of hap-nodejs' store (e.g. `AccessoryInfo.<id>.json`), for an identity imported
 * while the service runs. Once hap-nodejs' store in this process points at `dir`, the item goes through
 * hap-nodejs' own storage, so the copy it holds in memory and the file stay the same; before that
 * (HomeKit not loaded: hap-nodejs is loaded only when HomeKit is used) the file is written, and
 * hap-nodejs reads it when the bridge starts. This module does not load hap-nodejs itself.
 */
let storeWriter: { dir: string; write: (key: string, value: unknown) => void } | null = null;

/** Called by `useHapStorage` once hap-nodejs' store points at `dir`. */
export function setHapStoreWriter(dir: string, write: (key: string, value: unknown) => void): void {
  storeWriter = { dir, write };
}

export function writeHapItem(dir: string, key: string, value: unknown): void {
  // Through hap-nodejs only when its store is this folder (it may point at a stopped bridge's).
  if (storeWriter?.dir === path.resolve(dir)) return storeWriter.write(key, value);
  fs.mkdirSync(dir, { recursive: true });
  writeFileAtomic(path.join(dir, key), JSON.stringify(value));
}
