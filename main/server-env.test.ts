import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from './core/paths.js';
import { freePort } from './core/testing/free-port.js';
import { waitFor } from './core/testing/wait-for.js';
import { startGatewaySimulator, type GatewaySimulator } from './energy/simulator/gateway-simulator.js';
import { mosquittoUnavailable, startMosquitto, watch, type Broker } from './integrations/mqtt/testing/mosquitto.js';

/**
 * `npm start` (the bundle in dist/server, as server-bundle.test.ts builds and runs it) with every
 * variable README's Configuration table documents for the two services, each checked on the
 * service it is for, over HTTP and MQTT on loopback. Not set here: PUID/PGID (read by a container's
 * entrypoint, not by Node) and DEMO_SPEED/DEMO_GATEWAY (`npm run demo` only).
 */
const server = path.join(repoRoot, 'dist', 'server');
const npm = process.env.npm_execpath ? { cmd: process.execPath, args: [process.env.npm_execpath] } : { cmd: 'npm', args: [] as string[] };
const noBroker = mosquittoUnavailable();
if (noBroker) console.warn(`bundled start with the whole environment skipped: ${noBroker}`);

/** A GET with the given Host header (fetch cannot set one), its status and JSON body. */
function get(url: string, host?: string): Promise<{ status: number; body: any }> { // eslint-disable-line @typescript-eslint/no-explicit-any
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: host ? { host } : {}, timeout: 5000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (c: string) => (text += c));
      res.on('end', () => {
        let body: unknown = text;
        try {
          body = JSON.parse(text);
        } catch {
          // not JSON (/metrics)
        }
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    req.on('error', reject);
    req.on('timeout', () => req.destroy(new Error('timeout')));
  });
}

describe.skipIf(noBroker !== null)('the bundled start takes the whole documented environment, on both services', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'server-env-'));
  const user = { name: 'hlb', password: 'broker-pass-4471' };
  let sim: GatewaySimulator;
  let broker: Broker;
  let child: ChildProcess | undefined;
  let log = '';
  let exited: Promise<unknown> = Promise.resolve();
  let energy = '';
  let recordings = '';
  let homekitPort = 0;
  const p = (...parts: string[]) => path.join(tmp, ...parts);
  const env: Record<string, string> = {};

  beforeAll(async () => {
    const built = spawnSync(npm.cmd, [...npm.args, 'run', '--silent', 'prestart'], { cwd: repoRoot, stdio: 'inherit' });
    expect(built.status).toBe(0);
    sim = await startGatewaySimulator({ firmware: 'V2.9' });
    broker = await startMosquitto({ user });
    for (const d of ['data', 'db', 'media']) fs.mkdirSync(p(d));
    fs.writeFileSync(p('legacy.json'), JSON.stringify([{ t: Date.now() - 3_600_000, solar: 1234, home: 456 }]));
    fs.writeFileSync(p('Preferences.xml'), '<?xml version="1.0" encoding="utf-8"?>\n<Preferences FriendlyName="Env test"/>\n');
    const [energyPort, recordingsPort] = [await freePort(), await freePort()];
    homekitPort = await freePort();
    energy = `http://127.0.0.1:${energyPort}`;
    // RECORDINGS_HOST differs from BIND_HOST: the recording sync answers on its own loopback address.
    recordings = `http://127.0.0.3:${recordingsPort}`;
    Object.assign(env, {
      DATA_DIR: p('data'),
      BIND_HOST: '127.0.0.1',
      RECORDINGS_HOST: '127.0.0.3',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'pretty',
      SERVER_PORT: String(energyPort),
      PORT: String(recordingsPort),
      GATEWAY_HOST: sim.host,
      GATEWAY_PORT: String(sim.port),
      POLL_INTERVAL_MS: '1500',
      WEATHER_FORECAST_URL: 'http://127.0.0.1:9/v1/forecast',
      WEATHER_GEOCODING_URL: 'http://127.0.0.1:9/v1/search',
      HOMEKIT_PORT: String(homekitPort),
      HOMEKIT_PIN: '482-91-375',
      HOMEKIT_BIND: '127.0.0.1',
      SMART_HOME_AUTH_TOKEN: 'env-test-fulfillment-token-7f3a9c',
      TZ: 'Australia/Perth',
      DB_PATH: p('db', 'state.db'),
      MEDIA_ROOT: p('media'),
      CSRF_SECRET: 'c'.repeat(16) + 'sr3f-env-test-secret-0123456789abcdef',
      NODE_ENV: 'production',
      MEDIA_SERVER_PREFS_PATH: p('Preferences.xml'),
      LEGACY_HISTORY_FILE: p('legacy.json'),
      ALLOWED_HOSTS: 'bridge.home.lan, sync.home.lan',
      MQTT_URL: broker.url,
      MQTT_USERNAME: user.name,
      MQTT_PASSWORD: user.password,
      MQTT_CLIENT_ID: 'hlb-env-test-energy',
      MQTT_TOPIC_PREFIX: 'envtest',
      MQTT_DISCOVERY_PREFIX: 'ha-env',
      METRICS_ENABLED: '1',
    });
    const keep = Object.fromEntries(Object.entries(process.env).filter(([k]) => ['PATH', 'HOME', 'TMPDIR'].includes(k)));
    child = spawn(process.execPath, [path.join(server, 'headless.js')], { cwd: tmp, env: { ...keep, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    exited = new Promise((r) => child!.once('exit', r));
    child.stdout!.on('data', (c: Buffer) => (log += c.toString()));
    child.stderr!.on('data', (c: Buffer) => (log += c.toString()));
    await waitFor('both services', async () => ((await get(`${energy}/api/state`)).status === 200 && (await get(`${recordings}/healthz`)).status === 200 ? true : undefined));
  }, 300_000);

  afterAll(async () => {
    if (child && child.exitCode === null) {
      child.kill('SIGTERM');
      await exited;
    }
    await broker?.close();
    await sim?.close();
    fs.rmSync(tmp, { recursive: true, force: true });
  });

  it('energy bridge: data folder, gateway, poll interval, weather URLs, HomeKit, fulfillment token, legacy history', async () => {
    const connected = await waitFor('a reading', async () => ((await get(`${energy}/api/state`)).body.connected === true ? true : undefined));
    expect(connected).toBe(true);
    expect(fs.existsSync(p('data', 'energy'))).toBe(true);
    const settings = (await get(`${energy}/api/settings`)).body;
    expect(settings.polling.intervalMs).toBe(1500);
    expect(settings.weather).toMatchObject({ forecastUrl: env.WEATHER_FORECAST_URL, geocodingUrl: env.WEATHER_GEOCODING_URL });
    const pairing = await waitFor('the HomeKit bridge', async () => {
      const b = (await get(`${energy}/api/homehub/pairing`)).body;
      return b.running ? b : undefined;
    });
    expect(pairing).toMatchObject({ port: homekitPort, pinCode: env.HOMEKIT_PIN });
    const sync = JSON.stringify({ requestId: 'env-1', inputs: [{ intent: 'action.devices.SYNC' }] });
    const post = (auth?: string) => fetch(`${energy}/fulfillment`, { method: 'POST', headers: { 'content-type': 'application/json', ...(auth ? { authorization: `Bearer ${auth}` } : {}) }, body: sync });
    expect((await post()).status).toBe(401);
    expect((await post(env.SMART_HOME_AUTH_TOKEN)).status).toBe(200);
    const legacy = await waitFor('the legacy import', async () => {
      const jobs = (await get(`${energy}/api/history/stats`)).body.legacyImport as Array<{ file: string; status: string }>;
      return jobs?.find((j) => j.file === env.LEGACY_HISTORY_FILE && j.status === 'imported');
    });
    expect(legacy).toMatchObject({ imported: 1 });
  }, 90_000);

  it('recording sync: its own address, state file, media folder, preferences path, time zone, CSRF secret', async () => {
    // RECORDINGS_HOST: on 127.0.0.3, not on BIND_HOST.
    await expect(get(`http://127.0.0.1:${env.PORT}/healthz`)).rejects.toThrow();
    expect(fs.existsSync(env.DB_PATH!)).toBe(true);
    // CSRF_SECRET (with NODE_ENV=production) is used: no secret was generated beside the state file.
    expect(fs.existsSync(p('db', 'csrf-secret'))).toBe(false);
    const view = (await get(`${recordings}/api/settings`)).body;
    expect(view.settings).toMatchObject({ media_root: env.MEDIA_ROOT, media_server_prefs_path: env.MEDIA_SERVER_PREFS_PATH });
    expect(view.sources).toMatchObject({ media_root: 'env', media_server_prefs_path: 'env' });
    expect(view.tz).toBe('Australia/Perth');
    expect((await get(`${recordings}/api/sync`)).body.schedule.timezone).toBe('Australia/Perth');
  });

  it('both: ALLOWED_HOSTS, METRICS_ENABLED, and MQTT (broker, login, client id, topic and discovery prefixes)', async () => {
    for (const [base, probe] of [[energy, '/api/state'], [recordings, '/healthz']] as const) {
      expect((await get(`${base}${probe}`, 'bridge.home.lan')).status, base).toBe(200);
      expect((await get(`${base}${probe}`, 'sync.home.lan')).status, base).toBe(200);
      const other = await get(`${base}${probe}`, 'evil.example.com');
      expect(other.status, base).toBe(403);
      expect(other.body.error.code).toBe('forbidden_host');
      const metrics = await get(`${base}/metrics`);
      expect(metrics.status, base).toBe(200);
      expect(String(metrics.body)).toMatch(/^# HELP hlb_/m);
    }
    const recordingView = (await get(`${recordings}/api/settings`)).body;
    expect(recordingView.sources).toMatchObject({ allowed_hosts: 'env', metrics_enabled: 'env', mqtt_url: 'env', mqtt_username: 'env', mqtt_password: 'env', mqtt_topic_prefix: 'env', mqtt_discovery_prefix: 'env' });
    expect((await get(`${energy}/api/settings`)).body.mqtt).toMatchObject({ enabled: true, url: broker.url, username: user.name, passwordSet: true, clientId: 'hlb-env-test-energy', topicPrefix: 'envtest', discoveryPrefix: 'ha-env' });
    // On the broker (it takes only this login): both services, under the given prefixes.
    const sub = await watch(broker.url, ['envtest/#', 'ha-env/#'], { username: user.name, password: user.password });
    try {
      for (const service of ['energy', 'recordings']) {
        expect((await sub.waitFor((m) => m.topic === `envtest/${service}/availability`, 30_000)).payload, service).toBe('online');
        await sub.waitFor((m) => m.topic === `envtest/${service}/state`, 30_000);
      }
      await sub.waitFor((m) => /^ha-env\/sensor\/hlb_energy_[0-9a-f]+\/battery_soc\/config$/.test(m.topic));
      const button = JSON.parse((await sub.waitFor((m) => /^ha-env\/button\/hlb_recordings_[0-9a-f]+\/sync_now\/config$/.test(m.topic))).payload);
      expect(button.command_topic).toBe('envtest/recordings/sync_now/press');
    } finally {
      await sub.close();
    }
  }, 90_000);

  it('both log as LOG_FORMAT and LOG_LEVEL say: readable lines, warnings only', async () => {
    // A fifth event stream from one address is refused with a warning: a line to look for.
    const streams = await Promise.all([1, 2, 3, 4, 5].map(() => fetch(`${energy}/events`, { signal: AbortSignal.timeout(10_000) })));
    expect(streams.map((s) => s.status).sort()).toEqual([200, 200, 200, 200, 429]);
    for (const s of streams) await s.body?.cancel();
    await waitFor('a warning in the log', async () => (/\bWARN\b/.test(log) ? true : undefined), 10_000);
    child!.kill('SIGTERM');
    await exited;
    // pretty: no JSON lines; warn: neither "services started" nor "stopping" (both info) was written.
    expect(log.split('\n').filter((l) => l.startsWith('{'))).toEqual([]);
    expect(log).not.toMatch(/services started|stopping|\bINFO\b/);
  }, 60_000);
});
