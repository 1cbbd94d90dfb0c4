/**
 * Download throughput of one 2 GiB recording from the box simulator: the recording service's full
 * sync path (browse, HEAD probe, streamed download with 250 ms progress, classification) against
 * `curl` fetching the same URL in the same run. The simulator runs in a child process so neither
 * client shares an event loop with the server. Loopback only. Reports RSS growth of the service.
 *
 * The same process also runs the energy bridge (1 s poll against the gateway simulator) with an
 * event-stream client in another process: the gaps between the events it receives while downloads
 * run are set against the gaps in equally long idle spells in the same run, next to the event
 * loop's delay (target p99 under 50 ms). Downloads run on the download thread, so neither waits.
 */
import { spawn, spawnSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import os from 'node:os';
import readline from 'node:readline';
import { silentLogger } from '../main/core/logger.js';
import { createEnergyService } from '../main/energy/index.js';
import { startGatewaySimulator } from '../main/energy/simulator/gateway-simulator.js';
import { startBoxInChild } from '../main/recordings/box/simulator/box-child.js';
import { mediaHash } from '../main/recordings/box/simulator/media-bytes.js';
import { createRecordingService } from '../main/recordings/service.js';
import { ApiClient, tempDir, testConfig } from '../main/recordings/testing/harness.js';
import { figure, median, percentile, round } from './report.js';

/** BENCH_DOWNLOAD_MIB and BENCH_ROUNDS shrink the run for a quick look; the published figures use the defaults. */
const SIZE = Number(process.env.BENCH_DOWNLOAD_MIB ?? 2048) * 1024 * 1024;
const ITEM = '903106335';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

/** An event-stream client in a process of its own: prints the arrival time (ms) of each event. */
function startSseClient(url: string): { arrivals: number[]; stop(): void } {
  const script = `require('http').get(${JSON.stringify(url)}, (res) => { let buf = ''; res.on('data', (c) => { buf += c; let i; while ((i = buf.indexOf('\\n\\n')) >= 0) { const frame = buf.slice(0, i); buf = buf.slice(i + 2); if (/^data: /m.test(frame)) process.stdout.write(Date.now() + '\\n'); } }); });`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
  const arrivals: number[] = [];
  readline.createInterface({ input: child.stdout! }).on('line', (l) => arrivals.push(Number(l)));
  return { arrivals, stop: () => child.kill() };
}

/** Gaps between consecutive events that both arrived within one of the spells [from, to]. */
function gapsWithin(arrivals: number[], spells: Array<[number, number]>): number[] {
  const gaps: number[] = [];
  for (const [from, to] of spells) {
    const inside = arrivals.filter((t) => t >= from && t <= to);
    for (let i = 1; i < inside.length; i++) gaps.push(inside[i]! - inside[i - 1]!);
  }
  return gaps;
}

async function sha256(file: string): Promise<string> {
  const h = crypto.createHash('sha256');
  for await (const c of fs.createReadStream(file, { highWaterMark: 4 * 1024 * 1024 })) h.update(c as Buffer);
  return h.digest('hex');
}

/** Flushes dirty pages so each run starts from the same disk state (both clients write 2 GiB). */
const flushDisk = () => spawnSync('sync');

function curlOnce(url: string, out: string): number {
  flushDisk();
  const t0 = performance.now();
  const res = spawnSync('curl', ['-s', '-f', '-o', out, url]);
  const ms = performance.now() - t0;
  if (res.status !== 0) throw new Error(`curl failed: ${res.status}`);
  if (fs.statSync(out).size !== SIZE) throw new Error('curl got a short file');
  fs.rmSync(out);
  return ms;
}

/** The event loop's delay p99 (ms) while `during` runs. */
async function loopDelayP99(during: () => Promise<unknown>): Promise<number> {
  const lag = monitorEventLoopDelay({ resolution: 10 });
  lag.enable();
  try {
    await during();
    return lag.percentile(99) / 1e6;
  } finally {
    lag.disable();
  }
}

const IDLE_SPELL_MS = 4000;

interface Round {
  ms: number;
  rssGrowthMb: number;
  progressSeen: number;
  percents: number[];
  maxLagMs: number;
  p99LagMs: number;
  idleP99LagMs: number;
  /** Date.now() spans: an idle spell just before the download, and the download. */
  idle: [number, number];
  busy: [number, number];
}

async function serviceOnce(description: string, verify = false): Promise<Round> {
  const dir = tempDir('recordings-bench-');
  const service = createRecordingService(testConfig(dir, 1), { logger: silentLogger });
  await service.start();
  try {
    const api = new ApiClient(service.url);
    await api.post('/api/shows', { name: 'bench show', dest_folder: 'Bench' });
    await api.patch('/api/settings', { box_address: description });
    flushDisk();
    const idleFrom = Date.now();
    const idleP99LagMs = await loopDelayP99(() => new Promise((r) => setTimeout(r, IDLE_SPELL_MS)));
    const idleTo = Date.now();
    const rss0 = process.memoryUsage().rss;
    let peak = rss0;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 100);
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    let progressSeen = 0;
    const percents: number[] = [];
    const busyFrom = Date.now();
    const t0 = performance.now();
    const started = await api.post('/api/sync');
    const done = service.engine.current()!.done;
    let finished = false;
    let ms = 0;
    void done.then(() => {
      ms = performance.now() - t0;
      finished = true;
    });
    while (!finished) {
      // Poll like the UI does while something is active (every 2 s there; 500 ms here for more samples).
      await Promise.race([done, new Promise((r) => setTimeout(r, 500))]);
      if (finished) break;
      const rows = (await api.get('/api/recordings')).body.recordings as Array<{ progress: { percent: number } | null }>;
      const p = rows[0]?.progress;
      if (p) {
        progressSeen++;
        percents.push(Math.round(p.percent));
      }
    }
    const busyTo = Date.now();
    clearInterval(sampler);
    lag.disable();
    const run = (await api.get(`/api/sync-runs/${started.body.run.id}`)).body.run;
    const row = (await api.get('/api/recordings')).body.recordings[0];
    if (run.status !== 'ok' || row.size !== SIZE) throw new Error(`bench sync did not complete: ${JSON.stringify(run)}`);
    if (verify) {
      const got = await sha256(row.file_path);
      const want = mediaHash(ITEM, SIZE);
      console.log(`last service download is byte-identical to the source (sha256): ${got === want ? 'yes' : 'NO'}`);
      if (got !== want) throw new Error('downloaded file differs from the source');
    }
    fs.rmSync(row.file_path);
    return {
      ms, rssGrowthMb: (peak - rss0) / 1024 / 1024, progressSeen, percents, maxLagMs: lag.max / 1e6, p99LagMs: lag.percentile(99) / 1e6,
      idleP99LagMs, idle: [idleFrom, idleTo], busy: [busyFrom, busyTo],
    };
  } finally {
    await service.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const box = await startBoxInChild([{ title: 'Bench Show', items: [{ id: ITEM, title: 'S1 E1 - Two Gigs - Mon 01 Jul', length: SIZE }] }]);
  const media = box.mediaUrl(ITEM);
  // The energy bridge in this same process, polling every second, watched from another process.
  const gateway = await startGatewaySimulator({ firmware: 'V2.9' });
  const energyDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-energy-'));
  const energy = createEnergyService(
    { dataDir: energyDir, host: '127.0.0.1', port: 0, env: { GATEWAY_HOST: gateway.host, GATEWAY_PORT: String(gateway.port), POLL_INTERVAL_MS: '1000' } },
    { logger: silentLogger },
  );
  await energy.start();
  const sse = startSseClient(`${energy.url}/events`);
  const scratch = tempDir('recordings-bench-curl-');
  try {
    const curls: number[] = [];
    const ours: Round[] = [];
    // Alternate which client goes first: the disk's writeback state favours whoever runs first.
    for (let i = 0; i < ROUNDS; i++) {
      if (i % 2 === 0) curls.push(curlOnce(media, path.join(scratch, 'curl.ts')));
      ours.push(await serviceOnce(box.descriptionUrl, i === ROUNDS - 1));
      if (i % 2 === 1) curls.push(curlOnce(media, path.join(scratch, 'curl.ts')));
    }
    const mbps = (ms: number) => SIZE / 1024 / 1024 / (ms / 1000);
    const oursMs = ours.map((o) => o.ms);
    const mib = Math.round(SIZE / 1024 / 1024);
    console.log(`item: ${mib} MiB over loopback to disk, clients interleaved ${ROUNDS} times (curl ${curls.map(round).join(', ')} ms; service ${oursMs.map(round).join(', ')} ms)`);
    figure('curl throughput (median)', mbps(median(curls)), 'MiB/s');
    figure('service sync throughput (median; browse + HEAD + download + progress + classify)', mbps(median(oursMs)), 'MiB/s');
    figure('service / curl throughput (medians)', (median(curls) / median(oursMs)) * 100, '%', { min: 90 });
    figure(`service RSS growth during the ${mib} MiB download (median of peak - before)`, median(ours.map((o) => o.rssGrowthMb)), 'MiB', { max: 64 });
    const idleLag = median(ours.map((o) => o.idleP99LagMs));
    const busyLag = median(ours.map((o) => o.p99LagMs));
    figure('event-loop delay p99, idle spells before each download (median of runs)', idleLag, 'ms');
    figure('event-loop delay p99 during the download (median of runs)', busyLag, 'ms', { max: 50 });
    figure('event-loop delay p99 during the download - idle (medians)', busyLag - idleLag, 'ms');
    figure('event-loop delay max during the download (median of runs)', median(ours.map((o) => o.maxLagMs)), 'ms');
    const idleGaps = gapsWithin(sse.arrivals, ours.map((o) => o.idle));
    const busyGaps = gapsWithin(sse.arrivals, ours.map((o) => o.busy));
    console.log(`energy events (1 s poll) seen by a client in another process: ${idleGaps.length} gaps in idle spells, ${busyGaps.length} during downloads`);
    if (idleGaps.length && busyGaps.length) {
      const idleP99 = percentile(idleGaps, 99);
      const busyP99 = percentile(busyGaps, 99);
      figure('energy event gap p99, idle spells', idleP99, 'ms');
      figure('energy event gap p99 during downloads', busyP99, 'ms');
      figure('energy event gap p99 during downloads - idle', busyP99 - idleP99, 'ms', { max: 50 });
    }
    console.log(`machine load average at the end: ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
    const last = ours.at(-1)!;
    console.log(`progress entries seen while polling GET /api/recordings (last run): ${last.progressSeen} (percents ${last.percents.join(', ')})`);
  } finally {
    sse.stop();
    await energy.stop();
    await gateway.close();
    await box.stop();
    fs.rmSync(scratch, { recursive: true, force: true });
    fs.rmSync(energyDir, { recursive: true, force: true });
  }
}

await main();
