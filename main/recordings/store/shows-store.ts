import type { Db } from '../../core/sqlite.js';
import type { AdMode, MarkChapters } from './show-ad-options.js';

export type { AdMode, MarkChapters };

export interface Show {
  id: number;
  name: string;
  dest_folder: string;
  season_template: string;
  enabled: boolean;
  ad_mode: AdMode;
  delete_after_download: boolean;
  /** Mark mode: whether a chaptered `.mkv` copy is written, beside the `.ts` or in its place (the EDL always is). */
  mark_chapters: MarkChapters;
  /** Mark mode: a marked recording may be deleted from the box like a verified cut. */
  mark_counts_as_cut: boolean;
  created_at: number;
  updated_at: number;
}

export type ShowInput = Omit<Show, 'id' | 'created_at' | 'updated_at'>;
/** A new show: Mark's two options default to none and no. */
export type ShowCreate = Omit<ShowInput, 'mark_chapters' | 'mark_counts_as_cut'> & Partial<Pick<ShowInput, 'mark_chapters' | 'mark_counts_as_cut'>>;

interface ShowDbRow extends Omit<Show, 'enabled' | 'delete_after_download' | 'mark_counts_as_cut' | 'mark_chapters'> {
  enabled: number;
  delete_after_download: number;
  mark_counts_as_cut: number;
  /** 'none' or 'beside' (the column's CHECK); with `mark_copy_place` 'in_place' the copy stands in place of the recording. */
  mark_chapters: 'none' | 'beside';
  mark_copy_place: 'beside' | 'in_place';
}

const fromDb = ({ mark_copy_place, ...r }: ShowDbRow): Show => ({
  ...r,
  enabled: r.enabled === 1,
  delete_after_download: r.delete_after_download === 1,
  mark_counts_as_cut: r.mark_counts_as_cut === 1,
  mark_chapters: r.mark_chapters === 'beside' && mark_copy_place === 'in_place' ? 'in_place' : r.mark_chapters,
});

export interface ShowsStore {
  list(): Show[];
  get(id: number): Show | undefined;
  create(input: ShowCreate, now: number): Show;
  update(id: number, patch: Partial<ShowInput>, now: number): Show | undefined;
  remove(id: number): boolean;
}

export function createShowsStore(db: Db): ShowsStore {
  const listStmt = db.prepare('SELECT * FROM shows ORDER BY id');
  const getStmt = db.prepare('SELECT * FROM shows WHERE id = ?');
  const insert = db.prepare(`INSERT INTO shows (name, dest_folder, season_template, enabled, ad_mode, delete_after_download, mark_chapters, mark_copy_place, mark_counts_as_cut, created_at, updated_at)
    VALUES (@name, @dest_folder, @season_template, @enabled, @ad_mode, @delete_after_download, @mark_chapters, @mark_copy_place, @mark_counts_as_cut, @now, @now)`);
  const updateStmt = db.prepare(`UPDATE shows SET name = @name, dest_folder = @dest_folder, season_template = @season_template,
    enabled = @enabled, ad_mode = @ad_mode, delete_after_download = @delete_after_download, mark_chapters = @mark_chapters,
    mark_copy_place = @mark_copy_place, mark_counts_as_cut = @mark_counts_as_cut, updated_at = @now WHERE id = @id`);
  const del = db.prepare('DELETE FROM shows WHERE id = ?');

  const get = (id: number) => {
    const r = getStmt.get(id) as ShowDbRow | undefined;
    return r ? fromDb(r) : undefined;
  };
  const toDb = (s: ShowInput) => ({
    ...s,
    enabled: s.enabled ? 1 : 0,
    delete_after_download: s.delete_after_download ? 1 : 0,
    mark_counts_as_cut: s.mark_counts_as_cut ? 1 : 0,
    mark_chapters: s.mark_chapters === 'none' ? 'none' : 'beside',
    mark_copy_place: s.mark_chapters === 'in_place' ? 'in_place' : 'beside',
  });

  return {
    list: () => (listStmt.all() as ShowDbRow[]).map(fromDb),
    get,
    create(input, now) {
      const info = insert.run({ ...toDb({ mark_chapters: 'none', mark_counts_as_cut: false, ...input }), now });
      return get(Number(info.lastInsertRowid))!;
    },
    update(id, patch, now) {
      const current = get(id);
      if (!current) return undefined;
      const next: ShowInput = { ...current, ...patch };
      updateStmt.run({ ...toDb(next), id, now });
      return get(id);
    },
    remove: (id) => del.run(id).changes > 0,
  };
}
