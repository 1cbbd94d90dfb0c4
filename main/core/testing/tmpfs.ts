import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** Mounts a tmpfs of `size` at `dir`; returns why it cannot when it cannot (not Linux, not root, refused). */
export function tryMountTmpfs(dir: string, size: string): string | null {
  if (process.platform !== 'linux') return `tmpfs mounts need Linux (this is ${process.platform})`;
  if (process.getuid?.() !== 0) return 'tmpfs mounts need root (CI runs as root)';
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${size}`, 'tmpfs', dir], { stdio: 'pipe' });
    return null;
  } catch (err) {
    return `mount -t tmpfs failed: ${String((err as { stderr?: Buffer }).stderr ?? err).trim()}`;
  }
}

export function unmount(dir: string): void {
  execFileSync('umount', ['-l', dir]);
}

/** Whether this process can mount a tmpfs here (a 1 MiB probe); null when it can, else why not. */
export function tmpfsUnavailable(probeParent: string): string | null {
  const probe = fs.mkdtempSync(path.join(probeParent, 'tmpfs-probe-'));
  const why = tryMountTmpfs(probe, '1m');
  if (!why) unmount(probe);
  fs.rmSync(probe, { recursive: true, force: true });
  return why;
}

/** Fills the file system holding `dir` with one file until the disk refuses (ENOSPC); returns the file. */
export function fillDisk(dir: string): string {
  const file = path.join(dir, 'filler.bin');
  const fd = fs.openSync(file, 'w');
  const chunk = Buffer.alloc(64 * 1024, 1);
  try {
    for (;;) {
      try {
        fs.writeSync(fd, chunk);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
        break;
      }
    }
    // The last partial block too: byte by byte until nothing more fits.
    const one = Buffer.alloc(1, 1);
    for (;;) {
      try {
        fs.writeSync(fd, one);
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'ENOSPC') throw err;
        break;
      }
    }
  } finally {
    fs.closeSync(fd);
  }
  return file;
}
