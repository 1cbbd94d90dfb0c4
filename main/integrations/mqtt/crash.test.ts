import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { mosquittoUnavailable, startMosquitto, watch } from './testing/mosquitto.js';

const skip = mosquittoUnavailable();
if (skip) console.warn(`MQTT crash test skipped: ${skip}`);

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

describe.skipIf(skip !== null)('availability through the last will (real mosquitto, a bridge in a child process)', () => {
  it('is online on start, and offline within 5 s of kill -9', async () => {
    const broker = await startMosquitto();
    cleanups.push(() => broker.close());
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'mqtt-crash-'));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const sub = await watch(broker.url, ['home-lan-bridge/energy/availability']);
    cleanups.push(() => sub.close());

    const child = spawn(process.execPath, ['--import', 'tsx', path.join(import.meta.dirname, 'testing', 'energy-child.ts'), dataDir, broker.url], { stdio: ['ignore', 'pipe', 'inherit'] });
    cleanups.push(() => void (child.exitCode === null && child.kill('SIGKILL')));
    await new Promise<void>((resolve, reject) => {
      let out = '';
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (out.includes('ready')) resolve();
      });
      child.once('exit', (code) => reject(new Error(`the bridge exited with ${code} before it was ready`)));
    });
    expect((await sub.waitFor((m) => m.payload === 'online', 15_000)).retain).toBe(false);

    const before = sub.seen.length;
    const killedAt = Date.now();
    child.kill('SIGKILL');
    const offline = await sub.waitFor((m) => m.payload === 'offline', 5000, before);
    expect(offline.at - killedAt).toBeLessThan(5000);
    console.info(`availability offline ${offline.at - killedAt} ms after kill -9`);
    // Retained: Home Assistant, starting later, still sees the bridge as offline.
    const late = await watch(broker.url, ['home-lan-bridge/energy/availability']);
    cleanups.push(() => late.close());
    expect(await late.waitFor(() => true, 3000)).toMatchObject({ payload: 'offline', retain: true });
  }, 40_000);
});
