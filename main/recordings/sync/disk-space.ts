import fs from 'node:fs';

/** Bytes available to this process on the filesystem holding `dir` (a dependency, so it can be swapped). */
export type FreeSpaceProbe = (dir: string) => number;

export const statfsFreeBytes: FreeSpaceProbe = (dir) => {
  const s = fs.statfsSync(dir);
  return s.bavail * s.bsize;
};

const UNITS = ['bytes', 'KiB', 'MiB', 'GiB', 'TiB'];

/** `512 bytes`, `7.9 MiB`, `1.25 GiB`: sizes as a user reads them (binary units, as `df -h` counts). */
export function formatBytes(n: number): string {
  let v = Math.max(0, n);
  let u = 0;
  while (v >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  if (u === 0) return `${Math.round(v)} bytes`;
  return `${v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)} ${UNITS[u]}`;
}

export const NOT_ENOUGH_SPACE = 'not enough space';

/**
 * Whether `remaining` more bytes fit in `dir` while leaving `marginBytes` free. Returns null when
 * they fit (or the probe fails: the write itself then reports a full disk), else the row's error.
 */
export function spaceShortfall(probe: FreeSpaceProbe, dir: string, remaining: number, marginBytes: number): string | null {
  let free: number;
  try {
    free = probe(dir);
  } catch {
    return null;
  }
  const needs = remaining + marginBytes;
  if (free >= needs) return null;
  return (
    `${NOT_ENOUGH_SPACE} (needs ${formatBytes(needs)}, free ${formatBytes(free)}) in ${dir}: ` +
    `${formatBytes(remaining)} to download plus the ${formatBytes(marginBytes)} kept free (free_space_margin_mb); ` +
    `free up space there or choose another media_root; the next sync tries again`
  );
}
