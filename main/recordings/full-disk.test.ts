import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../core/logger.js';
import { fillDisk, tmpfsUnavailable, tryMountTmpfs, unmount } from '../core/testing/tmpfs.js';
import { createRecordingService, type RecordingService } from './service.js';
import { ApiClient, tempDir, testConfig } from './testing/harness.js';

const cannotMount = tmpfsUnavailable(os.tmpdir());
if (cannotMount) console.log(`SKIPPED the recording-sync full-disk tests: ${cannotMount}`);

describe.skipIf(cannotMount !== null)('recording sync with its data folder on a full disk (a 4 MiB tmpfs the test mounts and fills)', () => {
  let dir: string;
  let data: string;
  let service: RecordingService;
  let api: ApiClient;
  let mounted = false;

  beforeAll(async () => {
    dir = tempDir('recordings-full-');
    data = path.join(dir, 'data');
    fs.mkdirSync(data);
    const why = tryMountTmpfs(data, '4m');
    if (why) throw new Error(why);
    mounted = true;
    // The media folder stays on the big disk: only the state file's folder fills up.
    const media = path.join(dir, 'media');
    fs.mkdirSync(media);
    service = createRecordingService(
      { ...testConfig(dir, 1), dbPath: path.join(data, 'state.db'), configDir: data, env: { MEDIA_ROOT: media } },
      { logger: silentLogger },
    );
    await service.start();
    api = new ApiClient(service.url);
  });
  afterAll(async () => {
    await service?.stop();
    if (mounted) unmount(data);
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('/healthz says degraded with the reason, writes answer 507 storage_full in plain words, and all recovers when space is freed', async () => {
    expect((await api.get('/healthz')).body).toEqual({ status: 'ok' });
    expect((await api.post('/api/shows', { name: 'Before', dest_folder: 'Before' })).status).toBe(201);

    const filler = fillDisk(data);
    const health = await api.get('/healthz');
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: 'degraded', reasons: [expect.stringContaining(`the disk holding the data folder ${data} is full`)] });

    // Enough writes that SQLite must grow its files (a small one can land in already allocated pages).
    const writes = [];
    for (let i = 0; i < 40; i++) writes.push(await api.post('/api/shows', { name: `Full ${i} ${'x'.repeat(150)}`, dest_folder: `Full ${i}` }));
    const refused = writes.filter((w) => w.status !== 201);
    expect(refused.length).toBeGreaterThan(0);
    for (const w of refused) {
      expect(w.status, JSON.stringify(w.body)).toBe(507);
      expect(w.body.error.code).toBe('storage_full');
      expect(w.body.error.message).toMatch(/disk .* is full/);
      expect(JSON.stringify(w.body)).not.toMatch(/ENOSPC|database or disk is full|SQLITE/);
    }
    const patch = await api.patch('/api/settings', { sync_cron: '5 * * * *' });
    expect([200, 507]).toContain(patch.status);

    fs.rmSync(filler);
    expect((await api.get('/healthz')).body).toEqual({ status: 'ok' });
    const after = await api.post('/api/shows', { name: 'After', dest_folder: 'After' });
    expect(after.status).toBe(201);
    const shows = (await api.get('/api/shows')).body as { shows: Array<{ name: string }> };
    expect(shows.shows.map((s) => s.name)).toEqual(expect.arrayContaining(['Before', 'After']));
  });
});
