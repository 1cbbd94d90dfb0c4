import fs from 'node:fs';
import path from 'node:path';

/**
 * Writes a file so that a crash at any point leaves either the old or the new content:
 * write a temporary sibling, fsync it, rename over the target, fsync the folder.
 */
export function writeFileAtomic(file: string, data: string | Buffer): void {
  const dir = path.dirname(file);
  fs.mkdirSync(dir, { recursive: true });
  const tmp = path.join(dir, `.${path.basename(file)}.${process.pid}.${Date.now()}.tmp`);
  const fd = fs.openSync(tmp, 'w', 0o600);
  try {
    fs.writeSync(fd, typeof data === "string" ? Buffer.from(data) : data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
  try {
    fs.renameSync(tmp, file);
  } catch (err) {
    fs.rmSync(tmp, { force: true });
    throw err;
  }
  try {
    const dfd = fs.openSync(dir, 'r');
    try {
      fs.fsyncSync(dfd);
    } finally {
      fs.closeSync(dfd);
    }
  } catch {
    // Directories cannot be fsynced on every platform (Windows); the rename is still atomic.
  }
}

/** The temporary siblings `writeFileAtomic` names `.<base>.<pid>.<ms>.tmp`. */
function tempFilesOf(file: string): Array<{ name: string; pid: number }> {
  const dir = path.dirname(file);
  const prefix = `.${path.basename(file)}.`;
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return [];
  }
  const out: Array<{ name: string; pid: number }> = [];
  for (const name of names) {
    if (!name.startsWith(prefix) || !name.endsWith('.tmp')) continue;
    const m = /^(\d+)\.(\d+)\.tmp$/.exec(name.slice(prefix.length));
    if (m) out.push({ name, pid: Number(m[1]) });
  }
  return out;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: it exists but belongs to someone else.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Removes the temporary files a kill in the middle of `writeFileAtomic(file)` left behind: those of
 * this process (its writes are synchronous, so none is in progress) and of processes no longer
 * running. Returns the names removed.
 */
export function removeStaleTempFiles(file: string): string[] {
  const removed: string[] = [];
  for (const t of tempFilesOf(file)) {
    if (t.pid !== process.pid && processAlive(t.pid)) continue;
    try {
      fs.rmSync(path.join(path.dirname(file), t.name), { force: true });
      removed.push(t.name);
    } catch {
      // Not ours to remove (permissions): leave it.
    }
  }
  return removed;
}
