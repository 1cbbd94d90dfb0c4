import path from 'node:path';

/**
 * Maps a path fetcharr wrote inside its container (`/media/Show/Season 01/x.mpg`) onto this
 * computer: `from` (the media root then, a POSIX path) is replaced by `to` (the media root now).
 * Null when the path is not under `from` (or would climb out of it).
 */
export function mapMediaPath(written: string, from: string, to: string): string | null {
  const p = path.posix.normalize(written.replace(/\\/g, '/'));
  const root = path.posix.normalize(from.replace(/\\/g, '/')).replace(/\/+$/, '') || '/';
  if (!path.posix.isAbsolute(p) || !path.posix.isAbsolute(root)) return null;
  const rel = path.posix.relative(root, p);
  if (rel === '..' || rel.startsWith('../') || path.posix.isAbsolute(rel)) return null;
  return rel ? path.join(to, ...rel.split('/')) : path.resolve(to);
}
