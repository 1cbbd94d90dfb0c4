/**
 * Child process of soak.bench.ts: both services in one process, as `npm start` runs them (energy
 * bridge polling GATEWAY_HOST:GATEWAY_PORT every second, recording sync on loopback with SSDP kept
 * on loopback), with metrics and MQTT (MQTT_URL) on from the environment. Prints one JSON line when
 * ready ({ energy, recordings } URLs), then every SAMPLE_MS one sample of its own memory, file
 * descriptors and event-loop delay. Stops when its stdin closes.
 */
import fs from 'node:fs';
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
const timer = setInterval(() => {
  const m = process.memoryUsage();
  const sample: SoakSample = {
    t: performance.now() - t0,
    rss: m.rss,
    heapUsed: m.heapUsed,
    external: m.external,
    fds: fs.readdirSync('/proc/self/fd').length,
    lagP99: lag.percentile(99) / 1e6,
    lagMax: lag.max / 1e6,
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
