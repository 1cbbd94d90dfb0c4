import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { systemClock, type Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { createBoxSimulator } from './box/simulator/box-simulator.js';
import { demoLibrary } from './box/simulator/sample-library.js';
import { createSsdpResponder } from './box/simulator/ssdp-responder.js';
import { createCloudSimulator } from './cloud/cloud-simulator.js';
import { createFakeMediaServer } from './mediaserver/fake-media-server.js';
import { recordingConfigFromEnv } from './config.js';
import { createRecordingService } from './service.js';
import type { OwnerGate } from '../core/owner-gate.js';

/**
 * The demo: a simulated recording box on loopback (three shows, one episode still recording) and the
 * recording service pointed at it, with a throw-away media root under `dataDir`. Two shows are
 * followed on first start; press "Sync now" (or POST /api/sync) to watch downloads progress. A fake
 * media server and the vendor cloud simulator complete the chain: after the sync the media server
 * refreshes its TV library and the episodes of "2 Broke Girls" (delete after download) are deleted
 * from the box through the cloud.
 */
export async function startRecordingsDemo(opts: { dataDir: string; port: number; logger: Logger; past?: boolean; owner?: OwnerGate }): Promise<{ url: string; stop(): Promise<void> }> {
  const library = demoLibrary();
  // A past (first start only): the older episodes are on the box first and arrive in two earlier
  // sync runs, dated three days and one day back; the rest appear afterwards for "Sync now".
  const held = library.map((show) => show.items.splice(show.title === '2 Broke Girls' ? 2 : 1));
  let offsetMs = 0;
  const clock: Clock = { ...systemClock, now: () => Date.now() + offsetMs };
  const box = createBoxSimulator({ shows: library, maxPageSize: 25, rawAmpersands: true, friendlyName: 'Demo Fetch Box' });
  await box.start();
  const ssdp = createSsdpResponder({ locations: () => [box.descriptionUrl, box.otherDeviceUrls.router, box.otherDeviceUrls.broken] });
  await ssdp.start();
  // A media server (found by GDM on loopback, token in a preferences file) and the vendor cloud,
  // whose box reports the same recordings: sync -> library refresh -> delete from the box.
  const plexToken = crypto.randomBytes(12).toString('hex');
  const plex = createFakeMediaServer({ token: plexToken, name: 'Demo Media Server' });
  await plex.start();
  const cloudPin = String(crypto.randomInt(10_000_000, 99_999_999));
  const cloudCode = crypto.randomBytes(6).toString('hex').toUpperCase();
  const cloud = createCloudSimulator({
    activationCode: cloudCode,
    pin: cloudPin,
    friendlyName: 'Demo Fetch Box',
    recordings: () => library.flatMap((show) => show.items.map((it) => ({ id: `cloud-${it.id}`, dlnaId: it.id, name: it.title }))),
  });
  await cloud.start();
  const base = recordingConfigFromEnv({}, opts.dataDir);
  const root = path.join(opts.dataDir, 'recordings-demo');
  fs.mkdirSync(path.join(root, 'media'), { recursive: true });
  const prefsPath = path.join(root, 'Preferences.xml');
  fs.writeFileSync(prefsPath, `<?xml version="1.0" encoding="utf-8"?>\n<Preferences FriendlyName="Demo Media Server" PlexOnlineToken="${plexToken}"/>\n`);
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
      gdm: { bindAddress: '127.0.0.1', address: plex.host, port: plex.gdmPort, windowMs: 500 },
    },
    { logger: opts.logger, clock, owner: opts.owner },
  );
  try {
    await service.start();
    const tokenRes = await service.app.inject('/api/csrf-token');
    const cookie = tokenRes.cookies.map((c) => `${c.name}=${c.value}`).join('; ');
    const headers = { cookie, 'x-csrf-token': (tokenRes.json() as { token: string }).token };
    const shows = (await service.app.inject('/api/shows')).json() as { shows: unknown[] };
    if (shows.shows.length === 0) {
      for (const payload of [
        { name: 'broke girls', dest_folder: '2 Broke Girls', season_template: 'Season {season}', delete_after_download: true },
        { name: 'Gardening', dest_folder: 'Gardening Australia', season_template: 'S{season_unpadded}', ad_mode: 'detect' },
      ]) {
        await service.app.inject({ method: 'POST', url: '/api/shows', headers, payload });
      }
    }
    // The demo box is found by its address; SSDP discovery (POST /api/discover-box) answers on loopback too.
    await service.app.inject({ method: 'PATCH', url: '/api/settings', headers, payload: { box_address: box.descriptionUrl } });
    // The simulators get new ports and secrets on each start: point the settings at them.
    await service.app.inject({
      method: 'PATCH',
      url: '/api/settings',
      headers,
      payload: { media_server_url: null, media_server_section_id: null, media_server_prefs_path: prefsPath, cloud_api_url: cloud.apiUrl, cloud_ws_url: cloud.wsUrl, cloud_activation_code: cloudCode, cloud_pin: cloudPin },
    });
    // As a user would: detect the media server on the LAN, then its token from the preferences file, then its TV library.
    await service.app.inject({ method: 'POST', url: '/api/discover-media-server', headers });
    await service.app.inject({ method: 'POST', url: '/api/media-server/detect-token', headers });
    await service.app.inject({ method: 'POST', url: '/api/discover-media-server', headers });
    const runs = (await service.app.inject('/api/sync-runs')).json() as { runs: unknown[] };
    if (opts.past !== false && runs.runs.length === 0) {
      const fast = library.flatMap((show) => show.items);
      const speeds = fast.map((it) => it.bytesPerSecond);
      for (const it of fast) delete it.bytesPerSecond;
      offsetMs = -3 * DAY_MS;
      await syncAndWait(service.app, headers);
      const broke = library.find((show) => show.title === '2 Broke Girls')!;
      const next = held[library.indexOf(broke)]!.shift()!;
      const nextSpeed = next.bytesPerSecond;
      delete next.bytesPerSecond;
      box.add(library.indexOf(broke), next);
      offsetMs = -DAY_MS;
      await syncAndWait(service.app, headers);
      next.bytesPerSecond = nextSpeed;
      fast.forEach((it, i) => (it.bytesPerSecond = speeds[i]));
    }
    offsetMs = 0;
    library.forEach((_, i) => held[i]!.forEach((it) => box.add(i, it)));
  } catch (err) {
    await service.stop().catch(() => undefined);
    await cloud.stop();
    await plex.stop();
    await ssdp.stop();
    await box.stop();
    throw err;
  }
  opts.logger.info({ media_server: plex.url, cloud: cloud.apiUrl }, 'recordings demo: fake media server and box cloud on loopback; "2 Broke Girls" episodes are deleted from the box after download');
  return {
    url: service.url,
    async stop() {
      await service.stop();
      await cloud.stop();
      await plex.stop();
      await ssdp.stop();
      await box.stop();
    },
  };
}

const DAY_MS = 86_400_000;

/** Starts a sync through the API and waits (bounded) until it has finished. */
async function syncAndWait(app: FastifyInstance, headers: Record<string, string>): Promise<void> {
  await app.inject({ method: 'POST', url: '/api/sync', headers });
  const until = Date.now() + 60_000;
  while (Date.now() < until) {
    const cur = (await app.inject('/api/sync')).json() as { running: unknown };
    if (!cur.running) return;
    await new Promise((r) => setTimeout(r, 50));
  }
}
