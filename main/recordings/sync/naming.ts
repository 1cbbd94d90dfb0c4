import path from 'node:path';
import { invalid } from '../../core/errors.js';

const pad2 = (n: number) => String(n).padStart(2, '0');

/** `{season}` and `{season_padded}` → `01`, `{season_unpadded}` → `1`; a missing season gives `00` / `0`. */
export function renderSeasonFolder(template: string, season: number | null): string {
  const padded = season === null ? '00' : pad2(season);
  const unpadded = season === null ? '0' : String(season);
  return template.replaceAll('{season_padded}', padded).replaceAll('{season_unpadded}', unpadded).replaceAll('{season}', padded);
}

/** Makes a box title safe as a file or folder name on every platform. */
export function cleanName(s: string): string {
  const cleaned = [...s]
    .map((ch) => (ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f ? ' ' : ch))
    .join('')
    .replace(/[/\\:*?"<>|]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+|[.\s]+$/g, '');
  const cut = cleaned.slice(0, 180).trim();
  return cut || 'Untitled';
}

/** `<Show> - S01E02 - <episode title>.ts` when season and episode parse, else the cleaned box title. */
export function recordingFileName(show: string, boxTitle: string, season: number | null, episode: number | null, episodeTitle: string): string {
  if (season !== null && episode !== null) {
    const se = `S${pad2(season)}E${pad2(episode)}`;
    const title = episodeTitle.trim() ? ` - ${cleanName(episodeTitle)}` : '';
    return `${cleanName(show)} - ${se}${title}.ts`;
  }
  return `${cleanName(boxTitle)}.ts`;
}

/**
 * A folder relative to the media root, as a user types it: no leading slash or drive, no `..`
 * segment, no NUL. Throws a 400 naming `field`.
 */
export function checkRelativeFolder(field: string, value: string, opts: { allowEmpty: boolean }): void {
  if (value.includes('\0')) throw invalid(field, 'must not contain NUL');
  if (!value.trim()) {
    if (opts.allowEmpty) return;
    throw invalid(field, 'must not be empty');
  }
  if (/^[/\\]/.test(value) || /^[A-Za-z]:/.test(value)) throw invalid(field, 'must be relative to the media root (no leading slash or drive)');
  if (value.split(/[/\\]+/).some((seg) => seg.trim() === '..')) throw invalid(field, 'must not contain ".." segments');
}

/** True when `target` is `root` itself or inside it (lexically, after resolving). */
export function isInside(root: string, target: string): boolean {
  const rel = path.relative(path.resolve(root), path.resolve(target));
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

/**
 * Validates a show's `dest_folder` and `season_template` on write: relative, no `..`, and the
 * destination for any season must resolve inside the media root.
 */
export function checkShowPaths(mediaRoot: string, destFolder: string, seasonTemplate: string): void {
  checkRelativeFolder('dest_folder', destFolder, { allowEmpty: false });
  checkRelativeFolder('season_template', seasonTemplate, { allowEmpty: true });
  for (const season of [1, null]) {
    const rendered = renderSeasonFolder(seasonTemplate, season);
    checkRelativeFolder('season_template', rendered, { allowEmpty: true });
    if (!isInside(mediaRoot, path.join(mediaRoot, destFolder))) throw invalid('dest_folder', 'must stay inside the media root');
    if (!isInside(mediaRoot, path.join(mediaRoot, destFolder, rendered))) throw invalid('season_template', 'must stay inside the media root');
  }
}

/** Absolute destination of a recording; throws when it would leave the media root. */
export function destinationPath(opts: {
  mediaRoot: string;
  destFolder: string;
  seasonTemplate: string;
  show: string;
  boxTitle: string;
  season: number | null;
  episode: number | null;
  episodeTitle: string;
}): string {
  const folder = path.join(opts.mediaRoot, opts.destFolder, renderSeasonFolder(opts.seasonTemplate, opts.season));
  const file = path.join(folder, recordingFileName(opts.show, opts.boxTitle, opts.season, opts.episode, opts.episodeTitle));
  if (!isInside(opts.mediaRoot, file)) throw new Error(`destination ${file} is outside the media root`);
  return file;
}
