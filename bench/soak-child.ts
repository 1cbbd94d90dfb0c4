/**
 * Child process of soak.bench.ts: both services in one process, as `npm start` runs them (energy
 * bridge polling GATEWAY_HOST:GATEWAY_PORT every second, recording sync on loopback with SSDP kept
 * on loopback), with metrics and MQTT (MQTT_URL) on from the environment. Prints one JSON line when
 * ready ({ energy, recordings } URLs), then every SAMPLE_MS one sample of its own memory, file
 * descriptors and event-loop delay, and of each worker thread's V8 heap and external memory (both
 * in the process's RSS, neither in this thread's process.memoryUsage()). Stops when its stdin closes.
 */
import fs from 'node:fs';
import { createRequire, syncBuiltinESMExports } from 'node:module';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { silentLogger } from '../main/core/logger.js';
import { composeServices } from '../main/compose.js';
import { createRecordingService } from '../main/recordings/index.js';
import { tempDir, testConfig } from '../main/recordings/testing/harness.js';

export interface SoakSample {
  /** ms since the child's start */
  t: number;
  rss: number;
  heapUsed: number;
  external: number;
  fds: number;
  /** Event-loop delay since the previous sample, ms. */
  lagP99: number;
  lagMax: number;
  /** Each worker thread running: its module, V8 heap (committed) and external memory (Buffers), bytes. */
  workers: Array<{ name: string; heap: number; external: number }>;
}

// Every worker thread the services start is noted here (the services' modules read `Worker` from
// node:worker_threads when they start one, after this has replaced it), so a sample can read it.
const workers = new Map<import('node:worker_threads').Worker, string>();
{
  const wt = createRequire(import.meta.url)('node:worker_threads') as { Worker: typeof import('node:worker_threads').Worker };
  const Base = wt.Worker;
  wt.Worker = class extends Base {
    constructor(...args: ConstructorParameters<typeof Base>) {
      super(...args);
      workers.set(this, /([\w-]+)\.[jt]s\b(?!.*\.[jt]s\b)/s.exec(String(args[0]))?.[1] ?? 'worker');
      this.once('exit', () => workers.delete(this));
    }
  };
  syncBuiltinESMExports();
}

const sampleMs = Number(process.env.SAMPLE_MS ?? 30_000);
const dataDir = tempDir('soak-');
const env: NodeJS.ProcessEnv = { ...process.env, POLL_INTERVAL_MS: '1000', METRICS_ENABLED: '1' };
const services = composeServices({ dataDir, env, logger: silentLogger, host: '127.0.0.1', energyPort: 0, recordings: false });
const recDir = path.join(dataDir, 'recordings');
fs.mkdirSync(recDir);
// SSDP and GDM searches go to a closed loopback port: the box's address is set, nothing is discovered.
const base = testConfig(recDir, 9);
const recordings = createRecordingService(
  { ...base, env: { ...base.env, METRICS_ENABLED: '1', ...(env.MQTT_URL ? { MQTT_URL: env.MQTT_URL } : {}) } },
  { logger: silentLogger },
);
await services.start();
await recordings.start();
process.stdout.write(`${JSON.stringify({ energy: services.energy.url, recordings: recordings.url })}\n`);

const t0 = performance.now();
const lag = monitorEventLoopDelay({ resolution: 10 });
lag.enable();
const workerFigures = () =>
  Promise.all(
    [...workers].map(([w, name]) =>
      w.getHeapStatistics().then(
        (h) => ({ name, heap: h.total_heap_size, external: h.external_memory }),
        () => null,
      ),
    ),
  ).then((all) => all.filter((x) => x !== null));
const timer = setInterval(async () => {
  const threads = await workerFigures();
  const m = process.memoryUsage();
  const sample: SoakSample = {
    t: performance.now() - t0,
    rss: m.rss,
    heapUsed: m.heapUsed,
    external: m.external,
    fds: fs.readdirSync('/proc/self/fd').length,
    lagP99: lag.percentile(99) / 1e6,
    lagMax: lag.max / 1e6,
    workers: threads,
  };
  lag.reset();
  process.stdout.write(`${JSON.stringify(sample)}\n`);
}, sampleMs);

process.stdin.resume();
process.stdin.on('end', () => {
  clearInterval(timer);
  void (async () => {
    await recordings.stop();
    await services.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
    process.exit(0);
  })();
});
