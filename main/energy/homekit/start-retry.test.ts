import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterAll, expect, it } from 'vitest';
import { createLogger, silentLogger, type Logger } from '../../core/logger.js';
import { freePort } from '../../core/testing/free-port.js';
import { emptyLiveState, LiveStateStore } from '../live-state.js';
import { energySeedsFromEnv } from '../settings/energy-settings.js';
import { HomekitBridge } from './bridge.js';

/**
 * A bridge whose first start fails (its port is taken by another program) is not left down: it says
 * why, tries again by itself, and is up once the port is free, without a restart of the service.
 */
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-homekit-retry-'));
const otherDir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-homekit-other-'));
let bridge: HomekitBridge | undefined;
let other: HomekitBridge | undefined;
afterAll(async () => {
  await other?.stop();
  await bridge?.stop();
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(otherDir, { recursive: true, force: true });
});

/** A logger that counts the bridge's failed starts and resolves `failures(n)` once there were n. */
function failureLog() {
  let count = 0;
  const waiting: Array<{ n: number; resolve: () => void }> = [];
  const destination = new Writable({
    write(chunk: Buffer, _enc, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        if ((JSON.parse(line) as { msg?: string }).msg === 'HomeKit bridge could not start') count++;
      }
      for (const w of waiting.filter((x) => x.n <= count)) w.resolve();
      done();
    },
  });
  return {
    logger: createLogger({ level: 'error', format: 'json', destination }),
    failures: (n: number) => new Promise<void>((resolve) => (n <= count ? resolve() : waiting.push({ n, resolve }))),
  };
}

const bridgeOn = (folder: string, port: number, logger: Logger = silentLogger) => {
  const settings = energySeedsFromEnv({ HOMEKIT_BIND: '127.0.0.1', HOMEKIT_PORT: String(port) });
  return new HomekitBridge({
    dir: folder,
    logger,
    state: new LiveStateStore(emptyLiveState({ host: '127.0.0.1', port: 502 }, 1000)),
    settings: () => settings,
    retryDelaysMs: [300],
  });
};

it('retries a start that failed on a taken port and comes up once the port is free', async () => {
  const port = await freePort();
  const squatter = net.createServer();
  await new Promise<void>((r) => squatter.listen(port, '127.0.0.1', r));
  const log = failureLog();
  bridge = bridgeOn(dir, port, log.logger);
  expect(bridge.status()).toMatchObject({ enabled: true });
  await bridge.start();
  expect(bridge.status()).toMatchObject({ running: false, error: `HomeKit port ${port} is in use (homekit.port / HOMEKIT_PORT)` });
  // Still taken at the next try (the second failure logged, by itself): still down, still saying why.
  await log.failures(2);
  expect(bridge.status()).toMatchObject({ running: false, error: `HomeKit port ${port} is in use (homekit.port / HOMEKIT_PORT)` });

  await new Promise<void>((r) => squatter.close(() => r()));
  const end = Date.now() + 15_000;
  while (!bridge.running && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
  expect(bridge.status()).toMatchObject({ running: true, port, error: null });
  // The HAP server answers on that port now.
  const res = await fetch(`http://127.0.0.1:${port}/accessories`);
  expect(res.status).toBe(470); // HAP: connection not yet authorised (pair-verify needed)
});

it('a second bridge in the process waits while the first holds the HomeKit store, and comes up once it stops', async () => {
  // (The first test left `bridge` running on its folder.)
  expect(bridge?.running).toBe(true);
  const port = await freePort();
  other = bridgeOn(otherDir, port);
  await other.start();
  expect(other.status()).toMatchObject({ running: false, error: expect.stringContaining('one HomeKit bridge per process') });
  await bridge!.stop();
  const end = Date.now() + 15_000;
  while (!other.running && Date.now() < end) await new Promise((r) => setTimeout(r, 100));
  expect(other.status()).toMatchObject({ running: true, port, error: null });
  // Its store is its own folder now.
  expect(fs.readdirSync(path.join(otherDir, 'persist')).some((f) => f.startsWith('AccessoryInfo.'))).toBe(true);
});
