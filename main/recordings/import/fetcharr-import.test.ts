import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../core/errors.js';
import { applyFetcharrPlan } from './fetcharr-apply.js';
import { planFetcharrImport, previewOf } from './fetcharr-plan.js';
import { FETCHARR_FIXTURE, copyFixture, fixtureAvailable, hashTree, openTarget, readFacts } from './testing.js';

if (!fixtureAvailable()) console.warn(`fetcharr import tests skipped: the anchor fixture is not at ${FETCHARR_FIXTURE} (set FETCHARR_FIXTURE)`);
const suite = fixtureAvailable() ? describe : describe.skip;

/** 2026-11-26T00:00:00Z: a day after the fixture's sync. */
const NOW = Date.UTC(2026, 10, 26);

suite('fetcharr import on a copy of the real fetcharr folder', () => {
  const cleanups: Array<() => void> = [];
  afterEach(() => {
    while (cleanups.length) cleanups.pop()!();
  });
  const setup = () => {
    const copy = copyFixture();
    const ours = path.join(copy.root, 'ours');
    fs.mkdirSync(ours);
    const target = openTarget(ours, () => NOW);
    cleanups.push(() => {
      target.close();
      fs.rmSync(copy.root, { recursive: true, force: true });
    });
    const plan = () => planFetcharrImport({ dir: copy.config, mediaRootFrom: '/media', mediaRootTo: copy.media, now: NOW });
    return { copy, target, plan, run: () => applyFetcharrPlan(plan(), target) };
  };

  it('carries every setting we have an equal for, with the values fetcharr stored', () => {
    const { target, run, copy } = setup();
    const facts = readFacts();
    const src = Object.fromEntries(facts.settings_rows.map((r) => [r.key, r.value]));
    run();
    const s = target.settings.get();
    expect(s.box_address).toBe(`${src.fetch_ip}:${src.fetch_port}`);
    expect(s.box_address).toBe('127.0.0.1:18402');
    expect(s.media_root).toBe(copy.media);
    expect(s.sync_cron).toBe('15 */6 * * *');
    expect(s.media_server_url).toBe('http://127.0.0.1:18403');
    expect(s.media_server_token).toBe('fxPlexToken-9QwErTy');
    expect(s.media_server_section_id).toBe('2');
    expect(s.cloud_activation_code).toBe('ACTV8Q2ZK4MX7RT');
    expect(s.cloud_pin).toBe('48291736');
    expect(s.ad_removal_enabled).toBe(true);
    expect(s.ad_original_retention_days).toBe(14);
    // Secrets never shown back.
    expect(target.settings.view().settings.media_server_token).toBe('••••••••');
  });

  it('lists what cannot be carried, each with its reason', () => {
    const { plan } = setup();
    const p = previewOf(plan());
    const what = p.not_carried.map((n) => n.what);
    // The terminal id is blank in the fixture: nothing to say about it; the Plex prefs path is blank too.
    expect(what).toEqual(["the schedule's time zone", "the vendor cloud's addresses"]);
    for (const n of p.not_carried) expect(n.reason.length).toBeGreaterThan(10);
    // Carried settings: secrets masked in the preview.
    const token = p.settings.find((c) => c.to === 'media_server_token');
    expect(token?.value).toBe('••••••••');
    expect(p.settings.find((c) => c.to === 'box_address')?.value).toBe('127.0.0.1:18402');
  });

  it('follows both shows with their options', () => {
    const { target, run } = setup();
    run();
    const shows = target.shows.list();
    expect(shows.map((s) => ({ name: s.name, dest: s.dest_folder, season: s.season_template, enabled: s.enabled, del: s.delete_after_download, ad: s.ad_mode }))).toEqual([
      { name: 'Garden Makeover', dest: 'Garden Makeover', season: 'Season {season}', enabled: true, del: true, ad: 'detect' },
      { name: 'Quiz Night', dest: 'Quiz Night (2019)', season: 'Season {season_unpadded}', enabled: true, del: false, ad: 'off' },
    ]);
    expect(new Date(shows[0]!.created_at).toISOString()).toBe('2026-11-25T04:47:18.000Z');
  });

  it('knows the four downloads with their files under the new media root, and the failed one as not downloaded', () => {
    const { target, run, copy } = setup();
    const report = run();
    expect(report.counts.recordings).toMatchObject({ total: 5, done: 4, files_found: 4, retry: 1, deleted_from_box: 0 });
    expect(report.missing_files).toEqual([]);
    const facts = readFacts();
    const shows = target.shows.list();
    for (const f of facts.recordings) {
      const row = target.recordings.get(f.fetch_id)!;
      expect(row, f.fetch_id).toBeDefined();
      expect(row.box_title).toBe(f.fetch_title);
      expect([row.season, row.episode]).toEqual([f.season, f.episode]);
      expect(row.show_id).toBe(shows.find((s) => s.name === facts.shows.find((fs_) => fs_.id === f.show_id)!.fetch_show_pattern)!.id);
      if (f.status === 'done') {
        expect(row.status).toBe('done');
        expect(row.file_path).toBe(path.join(copy.media, ...f.file_path.replace(/^\/media\//, '').split('/')));
        expect(fs.statSync(row.file_path!).size).toBe(f.size);
        expect(row.size).toBe(f.size);
        expect(row.error).toBeNull();
        expect(row.downloaded_at).not.toBeNull();
      } else {
        expect(row.status).toBe('failed');
        expect(row.error).toContain('404');
        expect(row.file_path).toBeNull();
        expect(row.downloaded_at).toBeNull();
      }
    }
    const garden1 = target.recordings.get('64$0$0$0')!;
    expect(garden1.ad_status).toBe('no_breaks');
    expect(new Date(garden1.downloaded_at!).toISOString()).toBe('2026-11-25T04:47:19.000Z');
    expect(target.recordings.get('64$0$2$0')!.ad_status).toBe('unscanned');
  });

  it("brings fetcharr's sync history as our sync runs", () => {
    const { target, run } = setup();
    run();
    const runs = target.runs.list(10);
    expect(runs).toHaveLength(1);
    const r = runs[0]!;
    expect(r.trigger).toBe('manual');
    expect(r.status).toBe('partial');
    expect(new Date(r.started_at).toISOString()).toBe('2026-11-25T04:47:18.000Z');
    expect(new Date(r.finished_at!).toISOString()).toBe('2026-11-25T04:47:20.000Z');
    expect(r.summary).toMatchObject({ downloaded: 4, failed: 1, skipped: 0, media_server_refresh: 'ok', box_delete_failed: 3 });
    expect(r.summary!.box_delete_error).toContain('No terminal_id configured');
  });

  it('never changes a fixture file: every file hashes the same before and after', () => {
    const { copy, run } = setup();
    const originalBefore = hashTree(FETCHARR_FIXTURE);
    const before = hashTree(copy.fetcharr);
    run();
    run();
    expect(hashTree(copy.fetcharr)).toEqual(before);
    expect(hashTree(FETCHARR_FIXTURE)).toEqual(originalBefore);
    // No journal, WAL or shm file appeared next to the source state.db.
    expect(fs.readdirSync(copy.config)).toEqual(['state.db']);
  });

  it('reads a state.db left in WAL mode (with its -wal file) without adding a file next to it', () => {
    const { copy, run } = setup();
    const file = path.join(copy.config, 'state.db');
    // fetcharr's folder copied while it ran: the newest rows live only in state.db-wal.
    const w = new Database(file);
    w.pragma('journal_mode = WAL');
    w.pragma('wal_autocheckpoint = 0');
    w.prepare(`INSERT INTO shows (fetch_show_pattern, dest_folder) VALUES ('Night Market', 'Night Market')`).run();
    const snapDb = fs.readFileSync(file);
    const snapWal = fs.readFileSync(`${file}-wal`);
    w.close();
    for (const f of fs.readdirSync(copy.config)) fs.rmSync(path.join(copy.config, f));
    fs.writeFileSync(file, snapDb);
    fs.writeFileSync(`${file}-wal`, snapWal);
    const before = hashTree(copy.config);
    const report = run();
    expect(report.shows.map((x) => x.name)).toEqual(['Garden Makeover', 'Quiz Night', 'Night Market']);
    expect(hashTree(copy.config)).toEqual(before);
  });

  it('reads a folder from before fetcharr had ad removal (migrations 0001-0002 only)', () => {
    const { copy, target, run } = setup();
    const db = new Database(path.join(copy.config, 'state.db'));
    db.exec(`ALTER TABLE shows DROP COLUMN ad_removal;
      ALTER TABLE recordings DROP COLUMN ad_status; ALTER TABLE recordings DROP COLUMN ad_breaks_json; ALTER TABLE recordings DROP COLUMN ad_processed_at;
      DELETE FROM knex_migrations WHERE name = '0003_ad_removal.js';`);
    db.close();
    const report = run();
    expect(report.source.migrations).toEqual(['0001_initial.js', '0002_recordings_purged_at.js']);
    expect(target.shows.list().map((s) => s.ad_mode)).toEqual(['off', 'off']);
    expect(target.recordings.list().map((r) => r.ad_status)).toEqual(['unscanned', 'unscanned', 'unscanned', 'unscanned', 'unscanned']);
    expect(report.counts.recordings).toMatchObject({ done: 4, files_found: 4, retry: 1 });
  });

  it('importing twice equals importing once', () => {
    const { target, run } = setup();
    run();
    const snapshot = () => ({
      shows: target.shows.list(),
      recordings: target.recordings.list(),
      runs: target.runs.list(100),
      settings: target.settings.get(),
    });
    const once = snapshot();
    const second = run();
    expect(snapshot()).toEqual(once);
    expect(second.written).toMatchObject({ shows: { created: 0, kept: 2 }, recordings: { created: 0, replaced: 0, kept: 5 }, sync_runs: { created: 0, already: 1 } });
  });

  it('a recording fetcharr deleted from the box stays a tombstone', () => {
    const { copy, target, run } = setup();
    const db = new Database(path.join(copy.config, 'state.db'));
    db.prepare(`UPDATE recordings SET deleted_from_fetch_at = '2026-11-25T05:00:00.000Z' WHERE fetch_id = '64$0$0$1'`).run();
    db.close();
    const report = run();
    expect(report.counts.recordings.deleted_from_box).toBe(1);
    const row = target.recordings.get('64$0$0$1')!;
    expect(row.status).toBe('done');
    expect(new Date(row.deleted_from_box_at!).toISOString()).toBe('2026-11-25T05:00:00.000Z');
    expect(row.purged_at).toBe(row.deleted_from_box_at);
  });

  it('reports a downloaded file not found under the new media root', () => {
    const { copy, run } = setup();
    const gone = path.join(copy.media, 'Quiz Night (2019)', 'Season 12', 'S12 E40 - Grand Final - Sat 11 Jul.mpg');
    fs.rmSync(gone);
    const report = run();
    expect(report.counts.recordings).toMatchObject({ done: 4, files_found: 3 });
    expect(report.missing_files).toEqual([
      { box_id: '64$0$2$0', title: 'S12 E40 - Grand Final - Sat 11 Jul', written: '/media/Quiz Night (2019)/Season 12/S12 E40 - Grand Final - Sat 11 Jul.mpg', looked_for: gone },
    ]);
  });

  it('a wrong "media root then" finds no files and says so', () => {
    const { copy, target } = setup();
    const report = applyFetcharrPlan(planFetcharrImport({ dir: copy.config, mediaRootFrom: '/data', mediaRootTo: copy.media, now: NOW }), target);
    expect(report.counts.recordings.files_found).toBe(0);
    expect(report.missing_files).toHaveLength(4);
    expect(report.missing_files[0]!.looked_for).toBeNull();
  });

  it('also accepts the folder above config/', () => {
    const { copy } = setup();
    const p = planFetcharrImport({ dir: copy.fetcharr, mediaRootFrom: '/media', mediaRootTo: copy.media, now: NOW });
    expect(p.source.stateDb).toBe(path.join(copy.config, 'state.db'));
    expect(p.source.migrations).toEqual(['0001_initial.js', '0002_recordings_purged_at.js', '0003_ad_removal.js']);
  });

  it('refuses a folder that is not a fetcharr config folder, naming why', () => {
    const { copy } = setup();
    const refuse = (dir: string) => {
      try {
        planFetcharrImport({ dir, mediaRootFrom: '/media', mediaRootTo: copy.media, now: NOW });
      } catch (err) {
        expect(err).toBeInstanceOf(AppError);
        const e = err as AppError;
        expect([e.status, e.code, e.field]).toEqual([400, 'not_fetcharr_folder', 'dir']);
        return e.message;
      }
      throw new Error(`${dir} was not refused`);
    };
    expect(refuse(copy.media)).toMatch(/not a fetcharr config folder: it has no state\.db/);
    expect(refuse(path.join(copy.root, 'nowhere'))).toMatch(/does not exist/);
    const other = path.join(copy.root, 'other');
    fs.mkdirSync(other);
    const db = new Database(path.join(other, 'state.db'));
    db.exec('CREATE TABLE settings (key TEXT PRIMARY KEY, value_json TEXT)');
    db.close();
    expect(refuse(other)).toMatch(/not fetcharr's/);
    const text = path.join(copy.root, 'text');
    fs.mkdirSync(text);
    fs.writeFileSync(path.join(text, 'state.db'), 'this is not a database at all, just some text long enough to fill a header '.repeat(20));
    expect(refuse(text)).toMatch(/not a readable SQLite database|cannot be opened/);
  });

  it('a damaged state.db imports what can be read and reports the rest', () => {
    const { copy, target } = setup();
    const file = path.join(copy.config, 'state.db');
    const db = new Database(file, { readonly: true });
    const page = (db.prepare(`SELECT rootpage FROM sqlite_master WHERE name = 'syncs'`).get() as { rootpage: number }).rootpage;
    const size = db.pragma('page_size', { simple: true }) as number;
    db.close();
    // Garbage over the sync history's page: the other tables are intact.
    const fd = fs.openSync(file, 'r+');
    fs.writeSync(fd, Buffer.alloc(size, 0xa5), 0, size, (page - 1) * size);
    fs.closeSync(fd);
    const report = applyFetcharrPlan(planFetcharrImport({ dir: copy.config, mediaRootFrom: '/media', mediaRootTo: copy.media, now: NOW }), target);
    expect(report.problems).toHaveLength(1);
    expect(report.problems[0]).toMatch(/^syncs: could not be read \(.*malformed/);
    expect(report.counts).toMatchObject({ shows: 2, sync_runs: 0 });
    expect(report.counts.recordings).toMatchObject({ done: 4, retry: 1 });
    expect(target.settings.get().box_address).toBe('127.0.0.1:18402');
  });

  it('refuses a media root now that cannot hold recordings, naming the field', () => {
    const { copy } = setup();
    expect(() => planFetcharrImport({ dir: copy.config, mediaRootFrom: '/media', mediaRootTo: path.join(copy.root, 'missing'), now: NOW })).toThrow(/^Media folder to move to: does not exist/);
    expect(() => planFetcharrImport({ dir: copy.config, mediaRootFrom: 'media', mediaRootTo: copy.media, now: NOW })).toThrow(/media_root_from: must be an absolute path/);
  });
});
