import { AppError } from '../../core/errors.js';
import type { AdMode } from '../store/shows-store.js';
import { checkShowPaths } from '../sync/naming.js';
import type { FetcharrShowRow } from './fetcharr-source.js';
import { fetcharrTime } from './fetcharr-time.js';

/** A followed show as it will be stored here, with the fetcharr id it came from. */
export interface PlannedShow {
  source_id: number;
  name: string;
  dest_folder: string;
  season_template: string;
  enabled: boolean;
  delete_after_download: boolean;
  ad_mode: AdMode;
  created_at: number | null;
}

const truthy = (v: unknown) => v === 1 || v === true || v === '1' || v === 'true';
const AD_MODES: readonly AdMode[] = ['off', 'detect', 'cut'];

/**
 * fetcharr's `shows` rows → our shows. Its `fetch_show_pattern` is matched as a case-insensitive
 * substring of the box's show folders, as our `name` is; `{season}`, `{season_padded}` and
 * `{season_unpadded}` mean the same in both season templates. A show whose folder would not stay
 * inside the new media root is not carried (reason given).
 */
export function planShows(rows: readonly FetcharrShowRow[], mediaRoot: string): { shows: PlannedShow[]; refused: Array<{ what: string; reason: string }> } {
  const shows: PlannedShow[] = [];
  const refused: Array<{ what: string; reason: string }> = [];
  for (const r of rows) {
    const name = typeof r.fetch_show_pattern === 'string' ? r.fetch_show_pattern.trim() : '';
    if (!name || typeof r.dest_folder !== 'string') {
      refused.push({ what: `show ${r.id}`, reason: 'no show name or destination folder' });
      continue;
    }
    const seasonTemplate = typeof r.season_template === 'string' ? r.season_template.trim() : 'Season {season}';
    const destFolder = r.dest_folder.trim();
    try {
      checkShowPaths(mediaRoot, destFolder, seasonTemplate);
    } catch (err) {
      refused.push({ what: `show "${name.slice(0, 80)}"`, reason: err instanceof AppError ? err.message : String(err) });
      continue;
    }
    const mode = AD_MODES.includes(r.ad_removal as AdMode) ? (r.ad_removal as AdMode) : 'off';
    if (r.ad_removal && mode !== r.ad_removal) refused.push({ what: `show "${name.slice(0, 80)}" ad removal "${String(r.ad_removal).slice(0, 20)}"`, reason: 'unknown mode: imported as off' });
    shows.push({
      source_id: Number(r.id),
      name: name.slice(0, 200),
      dest_folder: destFolder,
      season_template: seasonTemplate,
      enabled: truthy(r.enabled),
      delete_after_download: truthy(r.delete_after_download),
      ad_mode: mode,
      created_at: fetcharrTime(r.created_at),
    });
  }
  return { shows, refused };
}
