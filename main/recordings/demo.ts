import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Logger } from '../core/logger.js';
import { createBoxSimulator } from './box/simulator/box-simulator.js';
import { demoLibrary } from './box/simulator/sample-library.js';
import { createSsdpResponder } from './box/simulator/ssdp-responder.js';
import { recordingConfigFromEnv } from './config.js';
import { createRecordingService } from './service.js';

/**
 * The demo: a simulated recording box on loopback (three shows, one episode still recording) and the
 * recording service pointed at it, with a throw-away media root under `dataDir`. Two shows are
 * followed on first start; press "Sync now" (or POST /api/sync) to watch downloads progress.
 */
export async function startRecordingsDemo(opts: { dataDir: string; port: number; logger: Logger }): Promise<{ url: string; stop(): Promise<void> }> {
  const box = createBoxSimulator({ shows: demoLibrary(), maxPageSize: 25, rawAmpersands: true, friendlyName: 'Demo Fetch Box' });
  await box.start();
  const ssdp = createSsdpResponder({ locations: () => [box.descriptionUrl, box.otherDeviceUrls.router, box.otherDeviceUrls.broken] });
  await ssdp.start();
  const base = recordingConfigFromEnv({}, opts.dataDir);
  const root = path.join(opts.dataDir, 'recordings-demo');
  fs.mkdirSync(path.join(root, 'media'), { recursive: true });
  const service = createRecordingService(
    {
      ...base,
      port: opts.port,
      host: '127.0.0.1',
      dbPath: path.join(root, 'state.db'),
      configDir: root,
      csrfSecret: crypto.randomBytes(32).toString('hex'),
      production: false,
      env: { MEDIA_ROOT: path.join(root, 'media') },
      ssdp: { bindAddress: '127.0.0.1', address: ssdp.address, port: ssdp.port, windowMs: 500 },
    },
    { logger: opts.logger },
  );
  try {
    await service.start();
    const tokenRes = await service.app.inject('/api/csrf-token');
    const cookie = tokenRes.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const headers = { cookie, 'x-csrf-token': (tokenRes.json() as { token: string }).token };
    const shows = (await service.app.inject('/api/shows')).json() as { shows: unknown[] };
    if (shows.shows.length === 0) {
      for (const payload of [
        { name: 'broke girls', dest_folder: '2 Broke Girls', season_template: 'Season {season}' },
        { name: 'Gardening', dest_folder: 'Gardening Australia', season_template: 'S{season_unpadded}', ad_mode: 'detect' },
      ]) {
        await service.app.inject({ method: 'POST', url: '/api/shows', headers, payload });
      }
    }
    // The demo box is found by its address; SSDP discovery (POST /api/discover-box) answers on loopback too.
    await service.app.inject({ method: 'PATCH', url: '/api/settings', headers, payload: { box_address: box.descriptionUrl } });
  } catch (err) {
    await service.stop().catch(() => undefined);
    await ssdp.stop();
    await box.stop();
    throw err;
  }
  return {
    url: service.url,
    async stop() {
      await service.stop();
      await ssdp.stop();
      await box.stop();
    },
  };
}
