import path from 'node:path';
import { invalid } from '../../core/errors.js';
import { isInside } from '../../core/real-path.js';

const pad2 = (n: number) => String(n).padStart(2, '0');

/** `{season}` and `{season_padded}` → `01`, `{season_unpadded}` → `1`; a missing season gives `00` / `0`. */
export function renderSeasonFolder(template: string, season: number | null): string {
  const padded = season === null ? '00' : pad2(season);
  const unpadded = season === null ? '0' : String(season);
  return template.replaceAll('{season_padded}', padded).replaceAll('{season_unpadded}', unpadded).replaceAll('{season}', padded);
}

/** Longest file or folder name made from box text (well under the 255-byte limit of common file systems). */
export const MAX_NAME = 180;

/**
 * Makes box text (a title, a show name, an id) safe as ONE file or folder name on every platform:
 * control characters (NUL included), path separators and characters Windows forbids become spaces,
 * leading and trailing dots and spaces go (so never `.`, `..` or a hidden name), the length is capped.
 */
export function cleanName(s: string): string {
  const cleaned = s
    .slice(0, MAX_NAME * 4)
    // eslint-disable-next-line no-control-regex -- removing control characters is the point
    .replace(/[\u0000-\u001f\u007f]/g, ' ')
    .replace(/[/\\:*?"<>|]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+|[.\s]+$/g, '');
  const cut = [...cleaned].slice(0, MAX_NAME).join('').trim().replace(/[.\s]+$/, '');
  return cut || 'Untitled';
}

/** Most UTF-8 bytes of a file name's stem: with ` [<id>]` and `.ts.partial` it stays under 255 bytes. */
export const MAX_STEM_BYTES = 180;

/** Cuts `s` to at most `max` UTF-8 bytes without splitting a character. */
function capBytes(s: string, max: number): string {
  if (Buffer.byteLength(s) <= max) return s;
  let out = '';
  let bytes = 0;
  for (const ch of s) {
    const n = Buffer.byteLength(ch);
    if (bytes + n > max) break;
    out += ch;
    bytes += n;
  }
  return out.trim().replace(/[.\s]+$/, '') || 'Untitled';
}

/** The ` [<box id>]` that tells two recordings with the same name apart; the id is cleaned like a title. */
export function withIdSuffix(file: string, boxId: string): string {
  const id = capBytes(cleanName(boxId).replace(/[[\]]/g, '_'), 32);
  return `${file.replace(/\.ts$/, '')} [${id}].ts`;
}

/** `Name.ts` → `Name (2).ts`: the name a download takes when a file the app did not create has its name. */
export function numberedName(file: string, n: number): string {
  return `${file.replace(/\.ts$/, '')} (${n}).ts`;
}

/** `<Show> - S01E02 - <episode title>.ts` when season and episode parse, else the cleaned box title. */
export function recordingFileName(show: string, boxTitle: string, season: number | null, episode: number | null, episodeTitle: string): string {
  if (season !== null && episode !== null) {
    const se = `S${pad2(season)}E${pad2(episode)}`;
    const title = episodeTitle.trim() ? ` - ${cleanName(episodeTitle)}` : '';
    return `${capBytes(`${capBytes(cleanName(show), 80)} - ${se}${title}`, MAX_STEM_BYTES)}.ts`;
  }
  return `${capBytes(cleanName(boxTitle), MAX_STEM_BYTES)}.ts`;
}

/**
 * A folder relative to the media root, as a user types it: no leading slash or drive, no `..`
 * segment, no NUL. Throws a 400 naming `field`.
 */
export function checkRelativeFolder(field: string, value: string, opts: { allowEmpty: boolean }): void {
  const label = FOLDER_LABELS[field];
  if (value.includes('\0')) throw invalid(field, 'must not contain NUL', label);
  if (!value.trim()) {
    if (opts.allowEmpty) return;
    throw invalid(field, 'must not be empty', label);
  }
  if (/^[/\\]/.test(value) || /^[A-Za-z]:/.test(value)) throw invalid(field, 'must be relative to the media root (no leading slash or drive)', label);
  if (value.split(/[/\\]+/).some((seg) => seg.trim() === '..')) throw invalid(field, 'must not contain ".." segments', label);
}

/** The show fields checked here, in the words the show form uses. */
export const FOLDER_LABELS: Record<string, string> = { dest_folder: 'Folder name', season_template: 'Season folder' };

export { isInside };

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
    if (!isInside(mediaRoot, path.join(mediaRoot, destFolder))) throw invalid('dest_folder', 'must stay inside the media root', FOLDER_LABELS.dest_folder);
    if (!isInside(mediaRoot, path.join(mediaRoot, destFolder, rendered))) throw invalid('season_template', 'must stay inside the media root', FOLDER_LABELS.season_template);
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
