import path from 'node:path';

/** Most folders one refresh names (a sync downloads a few shows); more: the whole library is refreshed. */
export const MAX_UPDATED_PATHS = 100;

/** Whether `folder` is `location` or inside it (same path on both sides: the server runs on this PC or mounts the same path). */
function inside(location: string, folder: string): boolean {
  const rel = path.relative(path.resolve(location), path.resolve(folder));
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * The folders of the new files, when every one lies inside one of the library's folders as the
 * server names them (Plex: the section's locations; Jellyfin and Emby: the library's Locations);
 * null when any does not (another machine or a container mounting another path: the paths mean
 * nothing there, and only the whole refresh is sure to find them), or when there are too many.
 */
export function foldersToUpdate(library: { locations: readonly string[] } | undefined, files: readonly string[]): string[] | null {
  if (!library || !files.length) return null;
  const folders = [...new Set(files.map((f) => path.dirname(path.resolve(f))))];
  if (folders.length > MAX_UPDATED_PATHS) return null;
  return folders.every((f) => library.locations.some((l) => inside(l, f))) ? folders.sort() : null;
}
