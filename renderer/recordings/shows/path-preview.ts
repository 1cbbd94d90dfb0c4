/**
 * The path a recording of a show will get, as the sync builds it (main/recordings/sync/naming.ts):
 * `<media root>/<dest folder>/<season folder>/<Show> - S01E02 - <episode title>.ts`. A preview only:
 * the server validates `dest_folder` and `season_template` when the show is saved.
 */
const pad2 = (n: number) => String(n).padStart(2, '0');

export function renderSeasonFolder(template: string, season: number | null): string {
  const padded = season === null ? '00' : pad2(season);
  const unpadded = season === null ? '0' : String(season);
  return template.replaceAll('{season_padded}', padded).replaceAll('{season_unpadded}', unpadded).replaceAll('{season}', padded);
}

export function cleanName(s: string): string {
  const cleaned = [...s]
    .map((ch) => (ch.charCodeAt(0) < 0x20 || ch.charCodeAt(0) === 0x7f ? ' ' : ch))
    .join('')
    .replace(/[/\\:*?"<>|]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .replace(/^[.\s]+|[.\s]+$/g, '');
  return cleaned.slice(0, 180).trim() || 'Untitled';
}

export function previewPath(opts: { mediaRoot: string; destFolder: string; seasonTemplate: string; show: string; season: number | null; episode: number; episodeTitle: string }): string {
  const sep = opts.mediaRoot.includes('\\') && !opts.mediaRoot.includes('/') ? '\\' : '/';
  const parts = [opts.mediaRoot.replace(/[/\\]+$/, ''), opts.destFolder, renderSeasonFolder(opts.seasonTemplate, opts.season)]
    .map((p, i) => (i === 0 ? p : p.replace(/^[/\\]+|[/\\]+$/g, '')))
    .filter((p, i) => i === 0 || p !== '');
  const show = cleanName(opts.show || 'Show');
  const file = opts.season === null ? '<box title>.ts' : `${show} - S${pad2(opts.season)}E${pad2(opts.episode)} - ${cleanName(opts.episodeTitle)}.ts`;
  return [...parts, file].join(sep);
}

/**
 * The season folder a followed show's files are in, as the list shows it: the newest season it has
 * downloaded (`Season 04`, "+ 3 earlier" when there are more), or the template with `NN` for the
 * number while nothing is downloaded yet. Never a made-up season.
 */
export function seasonFolderLabel(template: string, seasons: readonly number[]): string {
  if (!template) return '';
  const distinct = [...new Set(seasons)].sort((a, b) => a - b);
  if (distinct.length === 0) return template.replaceAll('{season_padded}', 'NN').replaceAll('{season_unpadded}', 'N').replaceAll('{season}', 'NN');
  const latest = renderSeasonFolder(template, distinct.at(-1)!);
  const earlier = distinct.length - 1;
  return earlier ? `${latest} (+ ${earlier} earlier season${earlier === 1 ? '' : 's'})` : latest;
}
