import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiClient, startHarness, type Harness } from '../testing/harness.js';

const waitFor = async (what: string, probe: () => boolean, tries = 800) => {
  for (let i = 0; i < tries && !probe(); i++) await new Promise((r) => setTimeout(r, 25));
  if (!probe()) throw new Error(`gave up waiting for ${what}`);
};

describe('a sync run killed (kill -9) mid-download', () => {
  let h: Harness;
  let child: ChildProcess | null = null;
  const slow = '777000003';
  beforeAll(async () => {
    h = await startHarness({
      box: {
        shows: [
          {
            title: 'Kill Show',
            items: [
              { id: '777000001', title: 'S1 E1 - One - Mon 06 Jul', length: 200_000 },
              { id: '777000002', title: 'S1 E2 - Two - Tue 07 Jul', length: 200_000 },
              { id: slow, title: 'S1 E3 - Three - Wed 08 Jul', length: 5_000_000, bytesPerSecond: 400_000 },
            ],
          },
        ],
      },
    });
    expect((await h.api.post('/api/shows', { name: 'kill show', dest_folder: 'Kill' })).status).toBe(201);
    expect((await h.api.patch('/api/settings', { box_address: h.box.descriptionUrl })).status).toBe(200);
    await h.service.stop();
  });
  afterAll(async () => {
    child?.kill('SIGKILL');
    await h.cleanup();
  });

  it('keeps in its sync-history row the counters it had reached, not zeros', async () => {
    const proc = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, '..', 'testing', 'sync-crash-child.ts'), h.dir, String(h.ssdp.port)], { stdio: ['ignore', 'pipe', 'inherit'] });
    child = proc;
    const url = await new Promise<string>((resolve, reject) => {
      let out = '';
      proc.stdout!.on('data', (c: Buffer) => {
        out += c.toString();
        const m = /URL (\S+)\n/.exec(out);
        if (m) resolve(m[1]!);
      });
      proc.once('exit', (code) => reject(new Error(`child exited (${code}) before serving`)));
    });
    const api = new ApiClient(url);
    const started = await api.post('/api/sync');
    expect(started.status).toBe(202);
    // Items run one at a time: the third one's partial file growing means the first two are done.
    // (The third's own: the first two, 200 kB each, also pass through a partial file over 100 kB.)
    const partial = () => fs.readdirSync(h.mediaRoot, { recursive: true, encoding: 'utf8' }).find((f) => f.endsWith('.partial') && f.includes('S01E03'));
    await waitFor('the third download under way', () => {
      const p = partial();
      return p !== undefined && fs.statSync(path.join(h.mediaRoot, p)).size > 100_000;
    });
    const exited = new Promise((r) => proc.once('exit', r));
    proc.kill('SIGKILL');
    await exited;
    child = null;

    await h.restart();
    const run = (await h.api.get(`/api/sync-runs/${started.body.run.id}`)).body.run;
    expect(run.status).toBe('error');
    expect(run.finished_at).not.toBeNull();
    expect(run.summary).toMatchObject({ downloaded: 2, failed: 0, seen: 3, boxes: 1, error: expect.stringMatching(/^interrupted/) });
    const rows = (await h.api.get('/api/recordings')).body.recordings as Array<{ box_id: string; status: string }>;
    expect(rows.filter((r) => r.status === 'done')).toHaveLength(2);
  });
});
