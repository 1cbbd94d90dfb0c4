import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sampleShow } from '../box/simulator/sample-library.js';
import { startHarness, type Harness } from '../testing/harness.js';
import { mediaRootProblem } from './media-root.js';

describe('what can be the media root', () => {
  it('refuses system folders, the home folder itself and hidden folders, on Linux, macOS and Windows paths', () => {
    const home = '/home/ann';
    const posix = (p: string) => mediaRootProblem(p, { home, platform: 'linux' });
    for (const p of ['/', '/etc', '/etc/ssh', '/usr', '/usr/share/x', '/bin', '/boot', '/dev', '/proc', '/sys', '/var', '/root', '/home', '/tmp'])
      expect(posix(p), p).toMatch(/system folder/);
    expect(posix('/home/ann')).toMatch(/home folder itself/);
    expect(posix('/home/ann/')).toMatch(/home folder itself/);
    expect(posix('/home/ann/.ssh')).toMatch(/hidden folder/);
    expect(posix('/home/ann/.config/tv')).toMatch(/hidden folder/);
    expect(posix('relative/tv')).toMatch(/absolute path/);
    const win = (p: string) => mediaRootProblem(p, { home: 'C:\\Users\\ann', platform: 'win32' });
    expect(win('C:\\Windows')).toMatch(/system folder/);
    expect(win('c:\\windows\\system32')).toMatch(/system folder/);
    expect(win('C:\\Program Files\\TV')).toMatch(/system folder/);
    expect(win('C:\\')).toMatch(/root of a drive/);
    expect(win('C:\\Users\\ann')).toMatch(/home folder itself/);
  });

  it('accepts an existing writable folder, refuses a missing one, a file and a symlink to a system folder', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'media-root-'));
    try {
      expect(mediaRootProblem(dir)).toBeNull();
      expect(mediaRootProblem(path.join(dir, 'missing'))).toMatch(/does not exist/);
      fs.writeFileSync(path.join(dir, 'file'), 'x');
      expect(mediaRootProblem(path.join(dir, 'file'))).toMatch(/not a directory/);
      fs.symlinkSync('/etc', path.join(dir, 'innocent'));
      expect(mediaRootProblem(path.join(dir, 'innocent'))).toMatch(/leads to \/etc, which is a system folder/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('media_root through the API, and a sync with an unusable media root', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({ box: { shows: [sampleShow('Bluey', 700000001, 1, () => 1000)] } });
  });
  afterAll(async () => h.cleanup());

  it('answers 400 naming media_root for system, home, hidden, missing and non-folder paths, and stores nothing', async () => {
    fs.writeFileSync(path.join(h.dir, 'a-file'), 'x');
    fs.symlinkSync('/etc', path.join(h.dir, 'link-to-etc'));
    const bad = ['/', '/etc', '/usr', '/var', os.homedir(), path.join(os.homedir(), '.ssh'), path.join(h.dir, 'nope'), path.join(h.dir, 'a-file'), path.join(h.dir, 'link-to-etc'), 'relative'];
    for (const media_root of bad) {
      const res = await h.api.patch('/api/settings', { media_root });
      expect(res.status, media_root).toBe(400);
      expect(res.body.error.field).toBe('media_root');
    }
    const view = (await h.api.get('/api/settings')).body;
    expect(view.settings.media_root).toBe(h.mediaRoot);
    expect(view.sources.media_root).toBe('env');
  });

  it('accepts a show folder named ..foo and downloads into it', async () => {
    const res = await h.api.post('/api/shows', { name: 'bluey', dest_folder: '..foo', season_template: '..S{season}' });
    expect(res.status).toBe(201);
    expect((await h.api.post('/api/shows', { name: 'x', dest_folder: 'a/../..' })).body.error.field).toBe('dest_folder');
    await h.api.patch('/api/settings', { box_address: h.box.descriptionUrl });
    const run = await h.syncAndWait();
    expect(run).toMatchObject({ status: 'ok', summary: { downloaded: 1 } });
    const row = (await h.api.get('/api/recordings')).body.recordings[0];
    expect(row.file_path).toBe(path.join(h.mediaRoot, '..foo', '..S01', 'Bluey - S01E01 - Episode 1 & More.ts'));
    expect(fs.statSync(row.file_path).size).toBe(1000);
  });

  it('fails the run without contacting the box when the media root has gone missing (an unmounted disk)', async () => {
    fs.rmSync(h.mediaRoot, { recursive: true, force: true });
    const browsesBefore = h.box.browses.length;
    const run = await h.syncAndWait();
    expect(run.status).toBe('error');
    expect(run.summary.error).toContain(`the media root ${h.mediaRoot} does not exist`);
    expect(h.box.browses.length).toBe(browsesBefore);
    expect(fs.existsSync(h.mediaRoot)).toBe(false);
  });
});
