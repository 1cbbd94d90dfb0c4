/**
 * Child process of energy-load.bench.ts: runs both services (energy bridge polling the gateway at
 * GATEWAY_HOST:GATEWAY_PORT every second, recording sync idle on loopback) or, with `baseline`, a
 * bare Node process with a 1 s timer, then prints its own CPU time over MEASURE_MS as JSON.
 * Everything binds to 127.0.0.1.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { silentLogger } from '../main/core/logger.js';
import { composeServices } from '../main/compose.js';
import { createRecordingService, recordingConfigFromEnv } from '../main/recordings/index.js';

const mode = process.argv[2] ?? 'services';
const warmupMs = Number(process.env.WARMUP_MS ?? 8000);
const measureMs = Number(process.env.MEASURE_MS ?? 40_000);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-idle-'));
let stop = async () => undefined as void;

if (mode === 'services' || mode === 'energy' || mode === 'recordings') {
  const services = composeServices({ dataDir, env: { ...process.env, POLL_INTERVAL_MS: '1000' }, logger: silentLogger, host: '127.0.0.1', energyPort: 0, recordings: false });
  const base = recordingConfigFromEnv({}, dataDir);
  const recordings = createRecordingService(
    { ...base, port: 0, host: '127.0.0.1', ssdp: { bindAddress: '127.0.0.1', address: '127.0.0.1', port: 1, windowMs: 500 } },
    { logger: silentLogger },
  );
  if (mode !== 'recordings') await services.start();
  if (mode !== 'energy') await recordings.start();
  stop = async () => {
    await recordings.stop();
    await services.stop();
  };
} else {
  const t = setInterval(() => undefined, 1000);
  stop = async () => clearInterval(t);
}

await new Promise((r) => setTimeout(r, warmupMs));
// PROFILE=<file>: a CPU profile of this thread over the measured window only (to see where idle CPU goes).
const session = process.env.PROFILE ? new (await import('node:inspector/promises')).Session() : null;
if (session) {
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
}
const c0 = process.cpuUsage();
const t0 = performance.now();
await new Promise((r) => setTimeout(r, measureMs));
const c = process.cpuUsage(c0);
const wall = performance.now() - t0;
if (session) {
  const { profile } = await session.post('Profiler.stop');
  fs.writeFileSync(process.env.PROFILE!, JSON.stringify(profile));
}
await stop();
fs.rmSync(dataDir, { recursive: true, force: true });
process.stdout.write(JSON.stringify({ cpuPct: ((c.user + c.system) / 1000 / wall) * 100, userMs: c.user / 1000, systemMs: c.system / 1000, wallMs: wall }));
process.exit(0);
