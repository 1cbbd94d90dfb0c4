import { describe, expect, it } from 'vitest';
import { openDatabase } from '../../core/sqlite.js';
import { recordingMigrations } from './migrations.js';
import { createRecordingsStore } from './recordings-store.js';

describe('recordings store', () => {
  it('lists rows as JSON with exact ISO timestamps and string ids, newest first', () => {
    const db = openDatabase(':memory:', recordingMigrations);
    const store = createRecordingsStore(db);
    const base = { show_id: null, box_udn: null, show_title: 'S', season: null, episode: null, expected_size: 10 };
    store.writeOutcome({ ...base, box_id: '585587764', box_title: 'A & "B"', status: 'done', error: null, size: 10, downloaded_at: 1_700_000_000_999, file_path: '/m/a.ts' }, 1_700_000_001_001);
    store.writeOutcome({ ...base, box_id: '000042', box_title: 'C', status: 'skipped', error: 'currently recording' }, 1_600_000_000_000);
    const rows = store.listJson().map((r) => [r.id, JSON.parse(r.json)]);
    expect(rows.map((r) => r[0])).toEqual(['585587764', '000042']);
    expect(rows[0]![1]).toMatchObject({ box_id: '585587764', box_title: 'A & "B"', downloaded_at: new Date(1_700_000_000_999).toISOString(), updated_at: new Date(1_700_000_001_001).toISOString(), purged_at: null, ad_status: 'unscanned' });
    expect(rows[1]![1]).toMatchObject({ box_id: '000042', size: null, downloaded_at: null, updated_at: '2020-09-13T12:26:40.000Z' });
  });

  it('leaves size, path and download time alone when an outcome does not set them', () => {
    const db = openDatabase(':memory:', recordingMigrations);
    const store = createRecordingsStore(db);
    const base = { box_id: '1', show_id: null, box_udn: null, show_title: 'S', box_title: 'T', season: 1, episode: 2, expected_size: 10 };
    store.writeOutcome({ ...base, status: 'partial', error: 'short', size: 4, file_path: '/m/t.ts' }, 1);
    store.writeOutcome({ ...base, status: 'failed', error: 'the box answered HTTP 500' }, 2);
    expect(store.get('1')).toMatchObject({ status: 'failed', size: 4, file_path: '/m/t.ts', error: 'the box answered HTTP 500' });
  });
});

describe('recordings list cache', () => {
  it('keeps the same order as a fresh query after many writes', () => {
    const db = openDatabase(':memory:', recordingMigrations);
    const store = createRecordingsStore(db);
    const base = { show_id: null, box_udn: null, show_title: 'S', box_title: 'T', season: null, episode: null, expected_size: 10, error: null };
    for (let i = 0; i < 50; i++) store.writeOutcome({ ...base, box_id: String(i), status: 'skipped' }, 1000 + (i % 7));
    store.listJson();
    for (let i = 0; i < 50; i += 3) store.writeOutcome({ ...base, box_id: String(i), status: 'done', downloaded_at: 500 + i }, 2000);
    store.writeOutcome({ ...base, box_id: 'new', status: 'partial' }, 1003);
    const cached = store.listJson().map((r) => r.json);
    store.invalidate();
    expect(cached).toEqual(store.listJson().map((r) => r.json));
    expect(cached).toHaveLength(51);
  });

  it('reflects every write made through the store', () => {
    const db = openDatabase(':memory:', recordingMigrations);
    const store = createRecordingsStore(db);
    const base = { show_id: null, box_udn: null, show_title: 'S', box_title: 'T', season: null, episode: null, expected_size: 10 };
    store.writeOutcome({ ...base, box_id: '1', status: 'partial', error: 'download in progress' }, 1);
    expect(JSON.parse(store.listJson()[0]!.json).status).toBe('partial');
    store.writeOutcome({ ...base, box_id: '1', status: 'done', error: null, size: 10 }, 2);
    expect(JSON.parse(store.listJson()[0]!.json)).toMatchObject({ status: 'done', size: 10 });
    db.prepare(`UPDATE recordings SET ad_status = 'cut'`).run();
    store.invalidate();
    expect(JSON.parse(store.listJson()[0]!.json).ad_status).toBe('cut');
  });
});

describe('tombstone housekeeping', () => {
  it('purges rows deleted from the box before the cut-off only', () => {
    const db = openDatabase(':memory:', recordingMigrations);
    const store = createRecordingsStore(db);
    const base = { show_id: null, box_udn: null, show_title: 'S', box_title: 'T', season: null, episode: null, expected_size: 10, status: 'done' as const, error: null };
    for (const id of ['old', 'new', 'live']) store.writeOutcome({ ...base, box_id: id }, 1);
    db.prepare(`UPDATE recordings SET purged_at = CASE box_id WHEN 'old' THEN 100 WHEN 'new' THEN 300 END`).run();
    expect(store.purgeTombstones(200)).toBe(1);
    expect(store.listJson().map((r) => r.id).sort()).toEqual(['live', 'new']);
  });
});

describe('identity migration (2)', () => {
  it('adds recorded_start to a state file written before it, keeping every row, and old rows still match their recording', async () => {
    const { migrate } = await import('../../core/sqlite.js');
    const { sameRecording } = await import('../sync/identity.js');
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(':memory:');
    migrate(db, recordingMigrations.slice(0, 1));
    db.prepare(`INSERT INTO recordings (box_id, box_udn, show_title, box_title, status, expected_size, file_path, updated_at)
      VALUES ('903106335', 'uuid:box', '2 Broke Girls', 'S4 E2 - And the DJ Face - Wed 01 Jul', 'done', 930528256, '/m/a.ts', 1)`).run();
    expect(migrate(db, recordingMigrations)).toBe(recordingMigrations.length);
    const store = createRecordingsStore(db);
    const row = store.get('903106335')!;
    expect(row).toMatchObject({ status: 'done', file_path: '/m/a.ts', recorded_start: null });
    const listed = { folderTitle: '2 Broke Girls', boxUdn: 'uuid:box', item: { id: '5', title: 'S4 E2 - And the DJ Face - Wed 01 Jul', recordedStart: 'Wednesday 01 July 2020 09:05 PM', size: 930528256 } };
    expect(sameRecording(row, listed)).toBe(true);
    expect(sameRecording(row, { ...listed, item: { ...listed.item, size: 930528257 } })).toBe(false);
    expect(sameRecording(row, { ...listed, folderTitle: 'Other Show' })).toBe(false);
    expect(store.withTitle('S4 E2 - And the DJ Face - Wed 01 Jul').map((r) => r.box_id)).toEqual(['903106335']);
  });
});

describe('mark migration (4)', () => {
  it('widens the ad mode and status checks keeping every show, recording, id and link', async () => {
    const { migrate } = await import('../../core/sqlite.js');
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, recordingMigrations.slice(0, 3));
    const addShow = db.prepare(`INSERT INTO shows (name, dest_folder, season_template, ad_mode, delete_after_download, created_at, updated_at) VALUES (?, ?, 'Season {season}', ?, 1, 1, 2)`);
    addShow.run('Gone', 'Gone', 'off');
    const cutShow = Number(addShow.run('Gardening Australia', 'Gardening', 'cut').lastInsertRowid);
    const detectShow = Number(addShow.run('Landline', 'Landline', 'detect').lastInsertRowid);
    const gone = addShow.run('Gone too', 'Gone', 'off').lastInsertRowid;
    db.prepare('DELETE FROM shows WHERE id IN (1, ?)').run(gone);
    const addRec = db.prepare(`INSERT INTO recordings (box_id, show_id, box_title, status, file_path, ad_status, ad_breaks_json, ad_error, recorded_start, updated_at)
      VALUES (?, ?, ?, 'done', ?, ?, ?, ?, 'Mon 01 Jul', 3)`);
    addRec.run('11', cutShow, 'S1 E1', '/m/g.ts', 'cut', '[{"start":40,"end":63}]', null);
    addRec.run('12', detectShow, 'S1 E2', '/m/l.ts', 'detect_failed', null, 'the detector did not finish');
    expect(migrate(db, recordingMigrations)).toBe(recordingMigrations.length);

    expect(db.prepare('SELECT id, name, ad_mode, delete_after_download, mark_chapters, mark_counts_as_cut FROM shows ORDER BY id').all()).toEqual([
      { id: cutShow, name: 'Gardening Australia', ad_mode: 'cut', delete_after_download: 1, mark_chapters: 'none', mark_counts_as_cut: 0 },
      { id: detectShow, name: 'Landline', ad_mode: 'detect', delete_after_download: 1, mark_chapters: 'none', mark_counts_as_cut: 0 },
    ]);
    expect(db.prepare('SELECT box_id, show_id, ad_status, ad_breaks_json, ad_error, recorded_start, file_path FROM recordings ORDER BY box_id').all()).toEqual([
      { box_id: '11', show_id: cutShow, ad_status: 'cut', ad_breaks_json: '[{"start":40,"end":63}]', ad_error: null, recorded_start: 'Mon 01 Jul', file_path: '/m/g.ts' },
      { box_id: '12', show_id: detectShow, ad_status: 'detect_failed', ad_breaks_json: null, ad_error: 'the detector did not finish', recorded_start: 'Mon 01 Jul', file_path: '/m/l.ts' },
    ]);
    // The new values are accepted, unknown ones still refused.
    db.prepare("UPDATE shows SET ad_mode = 'mark', mark_chapters = 'beside' WHERE id = ?").run(cutShow);
    db.prepare("UPDATE recordings SET ad_status = 'marked' WHERE box_id = '11'").run();
    db.prepare("UPDATE recordings SET ad_status = 'mark_failed' WHERE box_id = '12'").run();
    expect(() => db.prepare("UPDATE shows SET ad_mode = 'skip' WHERE id = ?").run(cutShow)).toThrow(/CHECK/);
    expect(() => db.prepare("UPDATE recordings SET ad_status = 'bogus' WHERE box_id = '11'").run()).toThrow(/CHECK/);
    // A deleted show's id is not handed out again, and the link still follows a show's deletion.
    expect(Number(addShow.run('New', 'New', 'off').lastInsertRowid)).toBe(Number(gone) + 1);
    db.prepare('DELETE FROM shows WHERE id = ?').run(detectShow);
    expect(db.prepare("SELECT show_id FROM recordings WHERE box_id = '12'").get()).toEqual({ show_id: null });
    expect(() => db.prepare("UPDATE recordings SET show_id = 999 WHERE box_id = '11'").run()).toThrow(/FOREIGN KEY/);
    expect(db.pragma('foreign_key_check')).toEqual([]);
  });
});

describe('mark in place migration (5)', () => {
  it('keeps every show\u2019s chapters option, stores "in place of" beside it, and gives recordings an empty original_path', async () => {
    const { migrate } = await import('../../core/sqlite.js');
    const { createShowsStore } = await import('./shows-store.js');
    const Database = (await import('better-sqlite3')).default;
    const db = new Database(':memory:');
    db.pragma('foreign_keys = ON');
    migrate(db, recordingMigrations.slice(0, 4));
    const addShow = db.prepare(`INSERT INTO shows (name, dest_folder, season_template, ad_mode, mark_chapters, created_at, updated_at) VALUES (?, ?, 'Season {season}', 'mark', ?, 1, 2)`);
    const beside = Number(addShow.run('Gardening Australia', 'Gardening', 'beside').lastInsertRowid);
    const none = Number(addShow.run('Landline', 'Landline', 'none').lastInsertRowid);
    db.prepare(`INSERT INTO recordings (box_id, show_id, box_title, status, file_path, ad_status, updated_at) VALUES ('11', ?, 'S1 E1', 'done', '/m/g.ts', 'marked', 3)`).run(beside);
    expect(migrate(db, recordingMigrations)).toBe(5);

    const shows = createShowsStore(db);
    expect([shows.get(beside)!.mark_chapters, shows.get(none)!.mark_chapters]).toEqual(['beside', 'none']);
    expect(db.prepare("SELECT original_path FROM recordings WHERE box_id = '11'").get()).toEqual({ original_path: null });
    expect(shows.update(beside, { mark_chapters: 'in_place' }, 5)!.mark_chapters).toBe('in_place');
    expect(db.prepare('SELECT mark_chapters, mark_copy_place FROM shows WHERE id = ?').get(beside)).toEqual({ mark_chapters: 'beside', mark_copy_place: 'in_place' });
    // Back to none: no copy, and no stale "in place" left to come back with it.
    expect(shows.update(beside, { mark_chapters: 'none' }, 6)!.mark_chapters).toBe('none');
    expect(db.prepare('SELECT mark_chapters, mark_copy_place FROM shows WHERE id = ?').get(beside)).toEqual({ mark_chapters: 'none', mark_copy_place: 'beside' });
    expect(() => db.prepare("UPDATE shows SET mark_copy_place = 'inside' WHERE id = ?").run(beside)).toThrow(/CHECK/);
  });
});
