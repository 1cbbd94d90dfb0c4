import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { systemClock, type Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import { makeClip, twoAdBreak, type ClipPart } from './adcut/testing/clips.js';
import { createBoxSimulator } from './box/simulator/box-simulator.js';
import type { SimItem } from './box/simulator/box-model.js';
import { demoLibrary } from './box/simulator/sample-library.js';
import { createSsdpResponder } from './box/simulator/ssdp-responder.js';
import { createCloudSimulator } from './cloud/cloud-simulator.js';
import { createFakeEmbyServer } from './mediaserver/fake-emby-server.js';
import { createFakeMediaServer } from './mediaserver/fake-media-server.js';
import { recordingConfigFromEnv } from './config.js';
import { createRecordingService } from './service.js';
import { settingSeedsFrom } from './settings.js';
import type { OwnerGate } from '../core/owner-gate.js';

/**
 * The demo: a simulated recording box on loopback (three shows, one episode still recording) and the
 * recording service pointed at it, with a throw-away media root under `dataDir`. Two shows are
 * followed on first start; press "Sync now" (or POST /api/sync) to watch downloads progress. A
 * Jellyfin simulator (the media server; a Plex one answers too, for trying the other kind) and the
 * vendor cloud simulator complete the chain: after the sync Jellyfin looks at the new episodes'
 * folders and the episodes of "2 Broke Girls" (delete after download) are deleted
 * from the box through the cloud.
 */
export async function startRecordingsDemo(opts: {
  dataDir: string;
  port: number;
  logger: Logger;
  past?: boolean;
  owner?: OwnerGate;
  /** How often the simulated box finishes recording a new episode (real ms; 0: never). */
  newEpisodeEveryMs?: number;
  /** How many times faster than the demo's watchable pace the simulated box serves downloads; default 1. */
  downloadSpeed?: number;
  /** Make Gardening Australia's episodes real video with an ad break (ffmpeg); default true. */
  clips?: boolean;
  /** The environment: its setting seeds (MQTT_URL, METRICS_ENABLED, ALLOWED_HOSTS, …) apply as under `npm start`; the media folder stays the demo's. */
  env?: NodeJS.ProcessEnv;
  /** The time of day the service shows and schedules by (`npm run demo`: the energy service's demo clock); downloads keep real time. */
  clock?: Clock;
}): Promise<{ url: string; stop(): Promise<void>; recorded(): number }> {
  const library = demoLibrary();
  const speed = opts.downloadSpeed ?? 1;
  const paced = (bytesPerSecond: number) => Math.ceil(bytesPerSecond * speed);
  for (const show of library) for (const it of show.items) if (it.bytesPerSecond) it.bytesPerSecond = paced(it.bytesPerSecond);
  // Gardening Australia's episodes are real MPEG-TS with one ad break (black, silent frames around
  // two ads), so its ad removal (cut) finds and cuts a real break, and Re-scan does it again.
  const clip = opts.clips === false ? null : demoClip(opts.logger);
  const gardeningIndex = library.findIndex((s) => s.title === 'Gardening Australia');
  if (clip) for (const it of library[gardeningIndex]!.items) if (!it.recording) withClip(it, clip, paced);
  // A past (first start only): the older episodes are on the box first and arrive in two earlier
  // sync runs, dated three days and one day back; the rest appear afterwards for "Sync now".
  const held = library.map((show) => show.items.splice(show.title === '2 Broke Girls' ? 2 : 1));
  let offsetMs = 0;
  const wall = opts.clock ?? systemClock;
  const clock: Clock = { ...wall, now: () => wall.now() + offsetMs };
  const box = createBoxSimulator({ shows: library, maxPageSize: 25, rawAmpersands: true, friendlyName: 'Demo Fetch Box' });
  await box.start();
  const ssdp = createSsdpResponder({ locations: () => [box.descriptionUrl, box.otherDeviceUrls.router, box.otherDeviceUrls.broken] });
  await ssdp.start();
  // The media server (Jellyfin, found by its discovery on loopback, its API key pasted as a user
  // would) and the vendor cloud, whose box reports the same recordings: sync -> the new folders
  // refreshed -> delete from the box. A Plex server (GDM on loopback, token in a preferences file)
  // answers too when the settings page switches the kind.
  const plexToken = crypto.randomBytes(12).toString('hex');
  const plex = createFakeMediaServer({ token: plexToken, name: 'Demo Plex' });
  await plex.start();
  const jellyfinKey = crypto.randomBytes(16).toString('hex');
  const mediaDir = path.join(opts.dataDir, 'recordings-demo', 'media');
  const jellyfin = createFakeEmbyServer({
    kind: 'jellyfin',
    apiKey: jellyfinKey,
    name: 'Demo Jellyfin',
    libraries: [
      { id: 'f137a2dd21bbc1b99aa5c0f6bf02a805', name: 'Movies', collectionType: 'movies', locations: [path.join(opts.dataDir, 'recordings-demo', 'movies')] },
      { id: '767bffe4f11c93ef34b805451a696a4e', name: 'TV Shows', collectionType: 'tvshows', locations: [mediaDir] },
    ],
  });
  await jellyfin.start();
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
  // The demo's one temporary folder holds everything; its recordings state (`state`) and media
  // root (`media`) sit side by side, so the media root keeps clear of the state's folder.
  const root = path.join(opts.dataDir, 'recordings-demo');
  const stateDir = path.join(root, 'state');
  fs.mkdirSync(mediaDir, { recursive: true });
  fs.mkdirSync(stateDir, { recursive: true });
  const prefsPath = path.join(root, 'Preferences.xml');
  fs.writeFileSync(prefsPath, `<?xml version="1.0" encoding="utf-8"?>\n<Preferences FriendlyName="Demo Media Server" PlexOnlineToken="${plexToken}"/>\n`);
  const service = createRecordingService(
    {
      ...base,
      port: opts.port,
      host: '127.0.0.1',
      dbPath: path.join(stateDir, 'state.db'),
      configDir: stateDir,
      appFolders: [stateDir],
      csrfSecret: crypto.randomBytes(32).toString('hex'),
      production: false,
      env: { ...settingSeedsFrom(opts.env ?? {}), MEDIA_ROOT: path.join(root, 'media') },
      ssdp: { bindAddress: '127.0.0.1', address: ssdp.address, port: ssdp.port, windowMs: 500 },
      gdm: { bindAddress: '127.0.0.1', address: plex.host, port: plex.gdmPort, windowMs: 500 },
      embyDiscovery: { bindAddress: '127.0.0.1', address: jellyfin.host, port: jellyfin.discoveryPort, windowMs: 500 },
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
        // Mark mode: an EDL for Kodi and a chaptered .mkv copy beside each episode, the recording left whole.
        { name: 'Gardening', dest_folder: 'Gardening Australia', season_template: 'S{season_unpadded}', ad_mode: clip ? 'mark' : 'detect', mark_chapters: 'beside' },
      ]) {
        await service.app.inject({ method: 'POST', url: '/api/shows', headers, payload });
      }
    }
    // The demo box is found by its address; SSDP discovery (POST /api/discover-box) answers on loopback too.
    // Ad removal is turned on after the past (the clips carry a real break; the past's episodes stay
    // unscanned, for Re-scan to mark, and the start stays quick). The schedule runs once a day at 03:00, so a
    // scheduled run does not take the episodes waiting for "Sync now"; the box records new ones anyway.
    await service.app.inject({ method: 'PATCH', url: '/api/settings', headers, payload: { box_address: box.descriptionUrl, ad_removal_enabled: false, sync_cron: DEMO_CRON } });
    // The simulators get new ports and secrets on each start: point the settings at them.
    await service.app.inject({
      method: 'PATCH',
      url: '/api/settings',
      headers,
      payload: { media_server_kind: 'jellyfin', media_server_url: null, media_server_section_id: null, media_server_prefs_path: prefsPath, cloud_api_url: cloud.apiUrl, cloud_ws_url: cloud.wsUrl, cloud_activation_code: cloudCode, cloud_pin: cloudPin },
    });
    // As a user would: find Jellyfin on the LAN, paste its API key, then find again to pick its TV library.
    await service.app.inject({ method: 'POST', url: '/api/discover-media-server', headers });
    await service.app.inject({ method: 'PATCH', url: '/api/settings', headers, payload: { media_server_token: jellyfinKey } });
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
    if (clip) await service.app.inject({ method: 'PATCH', url: '/api/settings', headers, payload: { ad_removal_enabled: true } });
  } catch (err) {
    await service.stop().catch(() => undefined);
    await cloud.stop();
    await plex.stop();
    await jellyfin.stop();
    await ssdp.stop();
    await box.stop();
    throw err;
  }
  // The box keeps recording: a new episode of a followed show every few minutes, so "Sync now"
  // always has something to download, however many runs came before.
  let recorded = 0;
  const every = opts.newEpisodeEveryMs ?? NEW_EPISODE_EVERY_MS;
  const recorder =
    every > 0
      ? setInterval(() => {
          const gardening = recorded % 2 === 1;
          const showIndex = gardening ? gardeningIndex : library.findIndex((s) => s.title === '2 Broke Girls');
          const item = newEpisode(library[showIndex]!.items, 990000001 + recorded, gardening ? 33 : 4, wall.now(), paced);
          if (gardening && clip) withClip(item, clip, paced);
          box.add(showIndex, item);
          recorded++;
          opts.logger.info({ show: library[showIndex]!.title, title: item.title }, 'recordings demo: the box recorded a new episode');
        }, every)
      : null;
  recorder?.unref();
  opts.logger.info({ media_server: jellyfin.url, plex: plex.url, cloud: cloud.apiUrl }, 'recordings demo: fake media server and box cloud on loopback; "2 Broke Girls" episodes are deleted from the box after download');
  return {
    url: service.url,
    recorded: () => recorded,
    async stop() {
      if (recorder) clearInterval(recorder);
      await service.stop();
      await cloud.stop();
      await plex.stop();
      await jellyfin.stop();
      await ssdp.stop();
      await box.stop();
    },
  };
}

const DAY_MS = 86_400_000;
/** The demo's schedule: once a day at 03:00 (Sync now is the demo's button; the schedule still shows). */
export const DEMO_CRON = '0 3 * * *';
/** The simulated box finishes a new episode this often (real time). */
export const NEW_EPISODE_EVERY_MS = 2 * 60_000;
/** The demo clip: programme, one break of two 15 s ads between black frames, programme (the ad-removal tests' clip). */
export const DEMO_CLIP_PARTS: ClipPart[] = [{ kind: 'programme', seconds: 130 }, ...twoAdBreak(15), { kind: 'programme', seconds: 130 }];

/** The clip (made once with ffmpeg, then reused from the temp folder), or null when ffmpeg cannot make it. */
function demoClip(logger: Logger): Buffer | null {
  try {
    return fs.readFileSync(makeClip(DEMO_CLIP_PARTS));
  } catch (err) {
    logger.warn({ err: (err as Error).message }, 'recordings demo: ffmpeg could not make the demo clip; ad removal stays off');
    return null;
  }
}

/** Serves the clip as the item's bytes, slowly enough to watch the bar (about 6 s at the demo's pace). */
function withClip(item: SimItem, clip: Buffer, paced: (bytesPerSecond: number) => number): void {
  item.content = clip;
  item.length = clip.length;
  item.bytesPerSecond = paced(clip.length / 6);
}

/** The next episode of a show folder, numbered after its last one, as the box lists a new recording. */
function newEpisode(items: readonly SimItem[], id: number, season: number, now: number, paced: (bytesPerSecond: number) => number): SimItem {
  const last = Math.max(0, ...items.map((it) => Number(/E(\d+)/.exec(it.title)?.[1] ?? 0)));
  const n = last + 1;
  const day = new Date(now).toLocaleDateString('en-AU', { weekday: 'short', day: '2-digit', month: 'short' }).replace(/,/g, '');
  const mb = 1024 * 1024;
  return { id: String(id), title: `S${season} E${n} - New Episode ${n} - ${day}`, length: 10 * mb, bytesPerSecond: paced(2 * mb), duration: '0:29:30', description: `Recorded while the demo ran (episode ${n}).` };
}

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
