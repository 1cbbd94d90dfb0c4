import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createLogger, type Logger } from '../main/core/logger.js';
import { tryMountTmpfs, unmount } from '../main/core/testing/tmpfs.js';
import { seedDemoHistory } from '../main/energy/demo/past.js';
import { loopbackInterfaces } from '../main/energy/discovery/lan-scan.js';
import { createEnergyService, type EnergyDeps, type EnergyService } from '../main/energy/index.js';
import { startGatewaySimulator, type GatewaySimulator, type GatewaySimulatorOptions } from '../main/energy/simulator/gateway-simulator.js';

export interface BridgeOptions {
  /** Configure the gateway (default) or leave the host blank, as on first run. */
  configured: boolean;
  /** Simulated local time of day for the plant model, hours (12 = noon sun). */
  simHour: number;
  /** Extra settings written before start (deep-merged over the defaults by the service). */
  settings?: Record<string, unknown>;
  /** Where the simulator listens (discovery tests put it on another loopback address). */
  simHost?: string;
  /**
   * History written as a legacy file before start; the service imports it once. A function is called
   * at start, so history that ends "now" ends when the test runs, not when its file was loaded.
   */
  seedHistory?: Array<Record<string, number | null>> | (() => Array<Record<string, number | null>>);
  /** A week of plant-model history written before start, as `npm run demo` does (to the service clock's now). */
  demoPast?: boolean;
  /** Extra service dependencies (discovery's interface list and port). */
  deps?: (sim: GatewaySimulator) => Partial<EnergyDeps>;
  /** The simulated plant's own options (its zone, battery level, sky). */
  plant?: Omit<GatewaySimulatorOptions, 'now' | 'host' | 'port' | 'firmware'>;
  /** Put the data folder on a tmpfs of this size (e.g. `6m`; needs root), to fill it up in a test. */
  tmpfsDataDir?: string;
}

export interface Bridge {
  url: string;
  service: EnergyService;
  sim: GatewaySimulator;
  dataDir: string;
  /** Moves the simulated clock (the plant model reads it on every poll). */
  setSimTime(t: number): void;
  simTime(): number;
  /** Takes the gateway off the network: drops connections and closes the port. */
  stopSimulator(): Promise<void>;
  /** Brings a new simulator up on the same host and port. */
  restartSimulator(): Promise<void>;
  stop(): Promise<void>;
}

/**
 * First run with a "LAN" on loopback: a fake eth0 on 127.0.0.5/24 so the wizard's scan sweeps
 * 127.0.0.0/24, where the simulated gateway listens on 127.0.0.23. Nothing touches a real interface.
 */
export const firstRunOnLoopbackLan: BridgeOptions = {
  configured: false,
  simHour: 12,
  simHost: '127.0.0.23',
  deps: (sim) => ({
    interfaces: () => ({
      eth0: [{ address: '127.0.0.5', netmask: '255.255.255.0', family: 'IPv4', mac: '02:00:00:00:00:05', internal: false, cidr: '127.0.0.5/24' }],
    }),
    discoveryPort: sim.port,
    discoveryIncludeInternal: true,
  }),
};

export function todayAt(hour: number): number {
  const d = new Date();
  d.setHours(Math.floor(hour), Math.round((hour % 1) * 60), 0, 0);
  return d.getTime();
}

/** How much older than the wanted end a seeded demo week may be when a test copies it (the week then ends that long before the service's now). */
const DEMO_WEEK_MAX_AGE_MS = 5 * 60_000;
/** The demo weeks this Playwright worker has seeded, by the moment each ends. */
const demoWeeks: Array<{ dir: string; until: number }> = [];

/**
 * The demo's week of plant-model history (as `npm run demo` seeds it) ending at `until` on the
 * service's clock, seeded once per Playwright worker and copied into each test's data folder:
 * seeding steps the plant through 10,080 minutes, which took 3-13 s per test. A week that ends at
 * most a few minutes before `until` is copied (on this computer's clock: one seeded a few minutes
 * ago; on an injected demo clock: the same demo morning as another test's), any other is seeded.
 */
function copyDemoWeek(dataDir: string, until: number, logger: Logger): void {
  let week = demoWeeks.find((w) => until >= w.until && until - w.until <= DEMO_WEEK_MAX_AGE_MS);
  if (!week) {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-e2e-demo-week-'));
    seedDemoHistory({ dataDir: dir, until, days: 7, stepMs: 60_000, logger, live: () => until });
    if (!demoWeeks.length) process.once('exit', () => demoWeeks.forEach((w) => fs.rmSync(w.dir, { recursive: true, force: true })));
    week = { dir, until };
    demoWeeks.push(week);
  }
  fs.cpSync(week.dir, dataDir, { recursive: true });
}

/** A gateway simulator and an energy service on loopback ephemeral ports with a fresh data folder. */
export async function startBridge(opts: BridgeOptions): Promise<Bridge> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-e2e-'));
  if (opts.tmpfsDataDir) {
    const why = tryMountTmpfs(dataDir, opts.tmpfsDataDir);
    if (why) throw new Error(why);
  }
  let simNow = todayAt(opts.simHour);
  const now = () => simNow;
  let sim = await startGatewaySimulator({ ...opts.plant, firmware: 'V2.9', now, host: opts.simHost ?? '127.0.0.1' });
  const settings = {
    ...opts.settings,
    gateway: { host: opts.configured ? sim.host : '', port: sim.port, ...(opts.settings?.gateway as object) },
    polling: { intervalMs: 1000, retryDelayMs: 1000, ...(opts.settings?.polling as object) },
  };
  fs.mkdirSync(path.join(dataDir, 'energy'), { recursive: true });
  fs.writeFileSync(path.join(dataDir, 'energy', 'settings.json'), JSON.stringify(settings, null, 2));
  const seed = typeof opts.seedHistory === 'function' ? opts.seedHistory() : opts.seedHistory;
  if (seed) fs.writeFileSync(path.join(dataDir, 'energy', 'history.json'), JSON.stringify(seed));
  const logger = createLogger({ name: 'e2e', level: process.env.E2E_LOG_LEVEL ?? 'silent' });
  // Discovery always sees a loopback-only interface list here: no e2e run may sweep a real LAN.
  const discovery: Partial<EnergyDeps> = { interfaces: () => loopbackInterfaces(sim.host), discoveryPort: sim.port, discoveryIncludeInternal: true };
  const extra = opts.deps?.(sim) ?? {};
  if (opts.demoPast) copyDemoWeek(dataDir, extra.clock?.now() ?? Date.now(), logger);
  const service = createEnergyService({ dataDir, host: '127.0.0.1', port: 0, env: {} }, { logger, ...discovery, ...extra });
  await service.start();
  // The legacy import runs in the background after the port opens: pages should see the seed.
  if (opts.seedHistory) {
    for (let i = 0; i < 600; i++) {
      const stats = (await (await fetch(`${service.url}/api/history/stats`)).json()) as { legacyImport?: Array<{ status: string }> };
      if (!stats.legacyImport?.some((r) => r.status === 'running')) break;
      await new Promise((r) => setTimeout(r, 50));
    }
  }
  let simUp = true;
  return {
    get url() {
      return service.url;
    },
    service,
    get sim() {
      return sim;
    },
    dataDir,
    setSimTime(t) {
      simNow = t;
    },
    simTime: now,
    async stopSimulator() {
      sim.server.dropConnections();
      await sim.close();
      simUp = false;
    },
    async restartSimulator() {
      sim = await startGatewaySimulator({ firmware: 'V2.9', now, host: sim.host, port: sim.port, plantModel: sim.plant });
      simUp = true;
    },
    async stop() {
      await service.stop();
      if (simUp) await sim.close();
      if (opts.tmpfsDataDir) unmount(dataDir);
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A week of one-a-minute samples ending now: a solar day curve, a house load with an evening bump,
 * the battery balancing them, and one short 9 kW spike on the house load `spikeAgoMs` ago.
 */
export function weekOfHistory(now = Date.now(), spikeAgoMs = 30 * 60_000): Array<Record<string, number | null>> {
  const rows: Array<Record<string, number | null>> = [];
  const step = 60_000;
  const start = Math.floor((now - 7 * 86_400_000) / step) * step;
  let soc = 50;
  const spikeT = Math.floor((now - spikeAgoMs) / step) * step;
  for (let t = start; t <= now - step; t += step) {
    const d = new Date(t);
    const hour = d.getHours() + d.getMinutes() / 60;
    const solar = Math.round(7000 * Math.max(0, Math.sin((Math.PI * (hour - 6)) / 13)));
    const home = t === spikeT ? 9000 : Math.round(600 + (hour >= 17 && hour < 22 ? 900 : 0) + 100 * Math.sin(t / 600_000));
    const battery = Math.max(-4000, Math.min(4000, solar - home));
    const grid = home + battery - solar;
    soc = Math.max(10, Math.min(100, soc + (battery / 1000 / 16 / 60) * 100));
    rows.push({ t, solar, solarNative: solar, solarThirdParty: 0, home, homeGeneral: home, smartPort: null, grid, battery, soc: Math.round(soc * 10) / 10, outdoorTemp: null });
  }
  return rows;
}
