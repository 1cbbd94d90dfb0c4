import fs from 'node:fs';
import path from 'node:path';
import { HAPStorage } from 'hap-nodejs';
import { setHapStoreWriter } from './store-item.js';

let storagePath: string | null = null;
/** Whether a published bridge is using the store now (it may not move under it). */
let held = false;

/**
 * hap-nodejs keeps its store (identity keys, pairings, accessory ids) in one process-wide folder.
 * Points it at `dir`. While a published bridge holds the store, another folder is refused with a
 * clear message instead of silently sharing (or losing) pairings; once that bridge has stopped, the
 * store moves (a service stopped and another started in the same process, as the tests do).
 */
export function useHapStorage(dir: string): void {
  if (storagePath === dir) return;
  if (held) throw new Error(`HomeKit storage is in use at ${storagePath}; one HomeKit bridge per process`);
  fs.mkdirSync(dir, { recursive: true });
  // hap-nodejs sets the folder only before its store is first opened: forget the closed one's handle.
  (HAPStorage as unknown as { INSTANCE: { localStore?: unknown } }).INSTANCE.localStore = undefined;
  HAPStorage.setCustomStoragePath(dir);
  storagePath = dir;
  setHapStoreWriter(path.resolve(dir), (key, value) => HAPStorage.storage().setItemSync(key, value));
}

/** A published bridge takes the store at `dir` until it calls the returned release. */
export function holdHapStorage(dir: string): () => void {
  useHapStorage(dir);
  held = true;
  let released = false;
  return () => {
    if (released) return;
    released = true;
    held = false;
  };
}
