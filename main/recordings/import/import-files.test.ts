import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, tempDir, type Harness } from '../testing/harness.js';
import { copyFixture, FETCHARR_FIXTURE, fixtureAvailable } from './testing.js';

/**
 * The fetcharr import reads only what it was given (issue 37 item 4), over real HTTP to the
 * service: regular files inside the chosen folder, plain tables, plain reasons. Each case works on
 * its own copy of the real fetcharr anchor folder.
 */
const suite = fixtureAvailable() ? describe : describe.skip;
if (!fixtureAvailable()) console.warn(`fetcharr import file tests skipped: the fetcharr anchor fixture is not at ${FETCHARR_FIXTURE} (set FETCHARR_FIXTURE)`);

suite('the fetcharr import preview reads only what it was given', () => {
  let h: Harness;
  const roots: string[] = [];
  const copy = () => {
    const c = copyFixture();
    roots.push(c.root);
    return c;
  };
  beforeAll(async () => {
    h = await startHarness({ box: { shows: [] } });
  });
  afterAll(async () => {
    await h.cleanup();
    for (const r of roots) fs.rmSync(r, { recursive: true, force: true });
  });

  // A FIFO opened without a writer, or an endless recursive view, would never answer: a regression
  // shows as this test's timeout, not as a timing figure (a busy machine stretches any figure).
  const preview = (dir: string, media: string) => h.api.post('/api/import/preview', { dir, media_root_to: media });

  it('a state.db that is a FIFO is refused with a plain 400 at once', async () => {
    const c = copy();
    fs.rmSync(path.join(c.config, 'state.db'));
    execFileSync('mkfifo', [path.join(c.config, 'state.db')]);
    const res = await preview(c.config, c.media);
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'not_fetcharr_folder', field: 'dir' });
    expect(res.body.error.message).toMatch(/FIFO \(named pipe\), not a regular file/);
  });

  it('a state.db-wal that is a FIFO is refused with a plain 400 at once (it is never copied)', async () => {
    const c = copy();
    execFileSync('mkfifo', [path.join(c.config, 'state.db-wal')]);
    const res = await preview(c.config, c.media);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/state\.db-wal is a FIFO/);
  });

  it('a state.db that is a symlink out of the folder is refused; its target is never opened', async () => {
    const c = copy();
    const elsewhere = tempDir('fetcharr-elsewhere-');
    roots.push(elsewhere);
    fs.renameSync(path.join(c.config, 'state.db'), path.join(elsewhere, 'state.db'));
    fs.symlinkSync(path.join(elsewhere, 'state.db'), path.join(c.config, 'state.db'));
    const res = await preview(c.config, c.media);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/leads outside the chosen folder/);
    expect(JSON.stringify(res.body)).not.toContain(elsewhere);
  });

  it('a comskip.ini that leads out of the folder is not carried', async () => {
    const c = copy();
    const secret = path.join(tempDir('fetcharr-secret-'), 'secret.ini');
    roots.push(path.dirname(secret));
    fs.writeFileSync(secret, 'top-secret-words\n');
    fs.symlinkSync(secret, path.join(c.config, 'comskip.ini'));
    const res = await preview(c.config, c.media);
    expect(res.status).toBe(200);
    expect(res.body.preview.source.comskipIni).toBeNull();
    expect((await h.api.post('/api/import', { dir: c.config, media_root_to: c.media })).body.report.written).not.toHaveProperty('detector_ini', 'carried');
    expect(fs.existsSync(path.join(h.dataDir, 'detector.ini'))).toBe(false);
  });

  it('a recordings object that is a view, not a table, is refused', async () => {
    const c = copy();
    const db = new Database(path.join(c.config, 'state.db'));
    db.exec('ALTER TABLE recordings RENAME TO recordings_real');
    db.exec('CREATE VIEW recordings AS WITH RECURSIVE n(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM n) SELECT i AS fetch_id, i AS fetch_title, \'done\' AS status FROM n');
    db.close();
    const res = await preview(c.config, c.media);
    expect(res.status).toBe(400);
    expect(res.body.error.message).toMatch(/no "recordings" table/);
  });
});
