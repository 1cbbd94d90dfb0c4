import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createManualClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import { requestFrom } from '../../core/testing/request-from.js';
import { createBoxSimulator, type BoxSimulator, type BoxSimulatorOptions } from '../box/simulator/box-simulator.js';
import { createSsdpResponder, type SsdpResponder } from '../box/simulator/ssdp-responder.js';
import { recordingConfigFromEnv, type RecordingConfig } from '../config.js';
import { createRecordingService, type RecordingDeps, type RecordingService } from '../service.js';

/** A temporary folder removed by `cleanup`. */
export function tempDir(prefix = 'recordings-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export function sha256File(file: string): string {
  return crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/**
 * The data folder of a test service under `dir` (state file, detector.ini, csrf-secret): beside
 * its media root `dir/media`, never around it (a media root inside the app's folders is refused).
 */
export const testDataDir = (dir: string) => path.join(dir, 'data');

/** A loopback-only test configuration: port 0, a data folder and a media root (created) under `dir`, SSDP to the responder. */
export function testConfig(dir: string, ssdpPort: number, overrides: Partial<RecordingConfig> = {}): RecordingConfig {
  const data = testDataDir(dir);
  const base = recordingConfigFromEnv({}, data);
  fs.mkdirSync(path.join(dir, 'media'), { recursive: true });
  return {
    ...base,
    port: 0,
    host: '127.0.0.1',
    dbPath: path.join(data, 'state.db'),
    configDir: data,
    csrfSecret: 'test-secret-0123456789abcdef0123456789abcdef',
    production: false,
    tz: 'Australia/Sydney',
    env: { MEDIA_ROOT: path.join(dir, 'media') },
    ssdp: { bindAddress: '127.0.0.1', address: '127.0.0.1', port: ssdpPort, windowMs: 250 },
    // Loopback only; tests that discover a media server point this at the fake one.
    gdm: { bindAddress: '127.0.0.1', address: '127.0.0.1', port: 9, windowMs: 250 },
    embyDiscovery: { bindAddress: '127.0.0.1', address: '127.0.0.1', port: 9, windowMs: 250 },
    ...overrides,
  };
}

/**
 * A client over real HTTP with the CSRF double-submit handled like the web UI does it. With
 * `from`, every request leaves from that loopback address (127.0.0.2: a guest on the LAN), and
 * `headers` go with each (such as a session's `authorization`).
 */
export class ApiClient {
  private cookie = '';
  private token = '';
  constructor(
    readonly baseUrl: string,
    private readonly from?: { address: string; headers?: Record<string, string> },
  ) {}

  async refreshToken(): Promise<void> {
    if (this.from) {
      const res = await requestFrom(this.from.address, `${this.baseUrl}/api/csrf-token`, { headers: { ...this.from.headers, ...(this.cookie ? { cookie: this.cookie } : {}) } });
      this.cookie = [res.headers['set-cookie'] ?? []].flat().map((c) => c.split(';')[0]).join('; ');
      this.token = (res.body as { token: string }).token;
      return;
    }
    const res = await fetch(`${this.baseUrl}/api/csrf-token`, { headers: this.cookie ? { cookie: this.cookie } : {} });
    const set = res.headers.getSetCookie();
    this.cookie = set.map((c) => c.split(';')[0]).join('; ');
    this.token = ((await res.json()) as { token: string }).token;
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test client: tests assert bodies field by field
  async request(method: string, url: string, body?: unknown, opts: { csrf?: boolean } = {}): Promise<{ status: number; body: any; headers: Headers }> {
    const unsafe = method !== 'GET' && method !== 'HEAD';
    if (unsafe && opts.csrf !== false && !this.token) await this.refreshToken();
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (unsafe && opts.csrf !== false) {
      headers.cookie = this.cookie;
      headers['x-csrf-token'] = this.token;
    }
    if (this.from) {
      const res = await requestFrom(this.from.address, `${this.baseUrl}${url}`, { method, headers: { ...this.from.headers, ...headers }, body });
      return { status: res.status, body: res.body, headers: new Headers(Object.entries(res.headers).flatMap(([k, v]) => [v ?? []].flat().map((x) => [k, x] as [string, string]))) };
    }
    const res = await fetch(`${this.baseUrl}${url}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : null;
    } catch {
      // not JSON
    }
    return { status: res.status, body: parsed, headers: res.headers };
  }

  get = (url: string) => this.request('GET', url);
  post = (url: string, body?: unknown) => this.request('POST', url, body);
  patch = (url: string, body?: unknown) => this.request('PATCH', url, body);
  delete = (url: string) => this.request('DELETE', url);
}

export interface Harness {
  dir: string;
  /** The service's data folder (state.db, detector.ini): `dir/data`. */
  dataDir: string;
  mediaRoot: string;
  box: BoxSimulator;
  ssdp: SsdpResponder;
  service: RecordingService;
  api: ApiClient;
  /**
   * What the sync schedule waits on (from the real time at start): a scheduled sync starts only when
   * a test moves it past `scheduler.status().next_run`, not when the run crosses :00 or :30 (unless
   * the test gives the service a `clock` of its own: then the schedule is on that).
   */
  scheduleClock: ReturnType<typeof createManualClock>;
  /** Starts a second service on the same state file and media root (after `service.stop()`). */
  restart(): Promise<void>;
  /** POST /api/sync and wait for the run to finish; returns the finished run as the API shows it. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- the run as JSON
  syncAndWait(): Promise<any>;
  cleanup(): Promise<void>;
}

export async function startHarness(opts: {
  box: BoxSimulatorOptions;
  config?: Partial<RecordingConfig>;
  deps?: Partial<RecordingDeps>;
  /** More device descriptions the SSDP responder advertises (a second box). */
  extraLocations?: () => string[];
  /** false: SSDP advertises only the other (non-box) devices. */
  advertiseBox?: boolean;
  /** Use this (new, empty) folder for the state file and media root instead of a fresh temp folder. */
  dir?: string;
}): Promise<Harness> {
  const dir = opts.dir ?? tempDir();
  fs.mkdirSync(dir, { recursive: true });
  const box = createBoxSimulator(opts.box);
  await box.start();
  const ssdp = createSsdpResponder({
    locations: () => [...(opts.advertiseBox === false ? [] : [box.descriptionUrl]), box.otherDeviceUrls.router, box.otherDeviceUrls.broken, ...(opts.extraLocations?.() ?? [])],
  });
  await ssdp.start();
  const config = testConfig(dir, ssdp.port, opts.config);
  const scheduleClock = createManualClock(Date.now());
  // A test that gives the service a clock of its own has the schedule on it.
  const make = () => createRecordingService(config, { logger: silentLogger, ...(opts.deps?.clock ? {} : { scheduleClock }), ...opts.deps });
  const h: Harness = {
    dir,
    dataDir: testDataDir(dir),
    mediaRoot: path.join(dir, 'media'),
    box,
    ssdp,
    scheduleClock,
    service: make(),
    api: new ApiClient(''),
    async restart() {
      h.service = make();
      await h.service.start();
      h.api = new ApiClient(h.service.url);
    },
    async syncAndWait() {
      const res = await h.api.post('/api/sync');
      if (res.status !== 202) throw new Error(`sync answered ${res.status}: ${JSON.stringify(res.body)}`);
      await h.service.engine.current()?.done;
      return (await h.api.get(`/api/sync-runs/${res.body.run.id}`)).body.run;
    },
    async cleanup() {
      await h.service.stop().catch(() => undefined);
      await ssdp.stop();
      await box.stop();
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
  await h.service.start();
  h.api = new ApiClient(h.service.url);
  return h;
}
