import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { test as base, expect } from '@playwright/test';
import { createManualClock } from '../main/core/clock.js';
import { createLogger } from '../main/core/logger.js';
import { createBoxSimulator, type BoxSimulator } from '../main/recordings/box/simulator/box-simulator.js';
import type { SimShow } from '../main/recordings/box/simulator/box-model.js';
import { createSsdpResponder, type SsdpResponder } from '../main/recordings/box/simulator/ssdp-responder.js';
import type { RecordingConfig } from '../main/recordings/config.js';
import { createRecordingService, type RecordingService } from '../main/recordings/index.js';
import { ApiClient, testConfig } from '../main/recordings/testing/harness.js';
import type { OwnerGate } from '../main/core/owner-gate.js';
import { tryMountTmpfs, unmount } from '../main/core/testing/tmpfs.js';

export interface RecOptions {
  /** The library of the (first) simulated box. */
  shows: SimShow[];
  /** A second box on the simulated LAN (the setup's pick list). */
  secondBox?: SimShow[];
  /** Followed shows created before the page opens. */
  follow?: Array<{ name: string; dest_folder: string; season_template?: string }>;
  /** Save the first box's address (default); `false` leaves the first-run state (SSDP search). */
  configured?: boolean;
  /** The owner's passcode gate (an energy bridge's), as the composition root passes it. */
  owner?: OwnerGate;
  /** Put the state folder (state file, media) on a tmpfs of this size (e.g. `6m`; needs root). */
  tmpfs?: string;
}

export interface RecEnv {
  url: string;
  service: RecordingService;
  box: BoxSimulator;
  box2: BoxSimulator | null;
  dir: string;
  mediaRoot: string;
  /** A test-side client (its own CSRF cookie), for arranging state. */
  api: ApiClient;
  /** Restarts the service on the same port and state file with a new CSRF secret. */
  rotateSecret(): Promise<void>;
  stop(): Promise<void>;
}

const UI_DIR = path.resolve(import.meta.dirname, '..', 'dist', 'renderer');

/**
 * The recording service with the built pages, a box simulator (SSDP + DLNA + HTTP Range) and an
 * SSDP responder, all on loopback with port 0 and a fresh state folder.
 */
export async function startRecordings(opts: RecOptions): Promise<RecEnv> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'recordings-e2e-'));
  if (opts.tmpfs) {
    const why = tryMountTmpfs(dir, opts.tmpfs);
    if (why) throw new Error(why);
  }
  // Each test gets its own copy of the library: tests change items (box.update) as they run.
  const box = createBoxSimulator({ shows: structuredClone(opts.shows), friendlyName: 'Living Room Fetch Box' });
  await box.start();
  let box2: BoxSimulator | null = null;
  if (opts.secondBox) {
    box2 = createBoxSimulator({ shows: structuredClone(opts.secondBox), friendlyName: 'Bedroom Fetch Box', udn: 'uuid:fetch-box-sim-0002' });
    await box2.start();
  }
  const ssdp: SsdpResponder = createSsdpResponder({
    locations: () => [box.descriptionUrl, ...(box2 ? [box2.descriptionUrl] : []), box.otherDeviceUrls.router, box.otherDeviceUrls.broken],
  });
  await ssdp.start();
  const logger = createLogger({ name: 'e2e-recordings', level: process.env.E2E_LOG_LEVEL ?? 'silent' });
  let config: RecordingConfig = { ...testConfig(dir, ssdp.port, { staticDir: UI_DIR }), csrfSecret: crypto.randomBytes(32).toString('hex') };
  // The schedule waits on a clock no one moves: no scheduled sync joins a test that runs across :00 or :30.
  const deps = { logger, owner: opts.owner, scheduleClock: createManualClock(Date.now()) };
  let service = createRecordingService(config, deps);
  await service.start();
  let api = new ApiClient(service.url);
  for (const show of opts.follow ?? []) {
    const res = await api.post('/api/shows', show);
    if (res.status !== 201) throw new Error(`cannot follow ${show.name}: ${JSON.stringify(res.body)}`);
  }
  if (opts.configured !== false) await api.patch('/api/settings', { box_address: box.descriptionUrl });

  const env: RecEnv = {
    get url() {
      return service.url;
    },
    get service() {
      return service;
    },
    box,
    box2,
    dir,
    mediaRoot: path.join(dir, 'media'),
    get api() {
      return api;
    },
    async rotateSecret() {
      const port = service.port;
      await service.stop();
      config = { ...config, port, csrfSecret: crypto.randomBytes(32).toString('hex') };
      service = createRecordingService(config, deps);
      await service.start();
      api = new ApiClient(service.url);
    },
    async stop() {
      await service.stop();
      await ssdp.stop();
      await box.stop();
      await box2?.stop();
      if (opts.tmpfs) unmount(dir);
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  return env;
}

/** `rec`: a fresh recording service + box simulator per test; `baseURL` points the page at it. */
export const test = base.extend<{ rec: RecEnv; recOptions: RecOptions }>({
  recOptions: [{ shows: [] }, { option: true }],
  rec: async ({ recOptions }, use) => {
    const env = await startRecordings(recOptions);
    await use(env);
    await env.stop();
  },
  baseURL: async ({ rec }, use) => {
    await use(rec.url);
  },
});

export { expect };

const MB = 1024 * 1024;

/** A show whose episodes download slowly enough to watch (about `seconds` each). */
export function slowShow(title: string, firstId: number, count: number, seconds = 5, size = 2 * MB): SimShow {
  return {
    title,
    items: Array.from({ length: count }, (_, i) => ({
      id: String(firstId + i),
      title: `S1 E${i + 1} - Episode ${i + 1} - Mon 0${i + 1} Jul`,
      length: size,
      bytesPerSecond: Math.round(size / seconds),
    })),
  };
}
