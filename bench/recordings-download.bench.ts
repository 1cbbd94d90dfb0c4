/**
 * Download throughput of one 2 GiB recording from the box simulator: the recording service's full
 * sync path (browse, HEAD probe, streamed download with 250 ms progress, classification) against
 * `curl` fetching the same URL in the same run. The simulator runs in a child process so neither
 * client shares an event loop with the server. Loopback only. Reports RSS growth of the service.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import readline from 'node:readline';
import { silentLogger } from '../main/core/logger.js';
import { createBoxSimulator } from '../main/recordings/box/simulator/box-simulator.js';
import { mediaHash } from '../main/recordings/box/simulator/media-bytes.js';
import { createRecordingService } from '../main/recordings/service.js';
import { ApiClient, tempDir, testConfig } from '../main/recordings/testing/harness.js';
import { figure, median, round } from './report.js';

/** BENCH_DOWNLOAD_MIB and BENCH_ROUNDS shrink the run for a quick look; the published figures use the defaults. */
const SIZE = Number(process.env.BENCH_DOWNLOAD_MIB ?? 2048) * 1024 * 1024;
const ITEM = '903106335';
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

async function serveChild(): Promise<void> {
  const box = createBoxSimulator({ shows: [{ title: 'Bench Show', items: [{ id: ITEM, title: 'S1 E1 - Two Gigs - Mon 01 Jul', length: SIZE }] }] });
  await box.start();
  process.stdout.write(`${JSON.stringify({ description: box.descriptionUrl, media: box.mediaUrl(ITEM) })}\n`);
  process.stdin.resume();
  process.stdin.on('end', () => void box.stop().then(() => process.exit(0)));
}

async function startChild(): Promise<{ child: ChildProcess; description: string; media: string }> {
  const child = spawn(process.execPath, ['--import', 'tsx', import.meta.filename, '--serve'], { stdio: ['pipe', 'pipe', 'inherit'] });
  const line = await new Promise<string>((resolve) => readline.createInterface({ input: child.stdout! }).once('line', resolve));
  return { child, ...(JSON.parse(line) as { description: string; media: string }) };
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

async function serviceOnce(description: string, verify = false): Promise<{ ms: number; rssGrowthMb: number; progressSeen: number; percents: number[]; maxLagMs: number; p99LagMs: number }> {
  const dir = tempDir('recordings-bench-');
  const service = createRecordingService(testConfig(dir, 1), { logger: silentLogger });
  await service.start();
  try {
    const api = new ApiClient(service.url);
    await api.post('/api/shows', { name: 'bench show', dest_folder: 'Bench' });
    await api.patch('/api/settings', { box_address: description });
    flushDisk();
    const rss0 = process.memoryUsage().rss;
    let peak = rss0;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage.rss())), 100);
    const lag = monitorEventLoopDelay({ resolution: 10 });
    lag.enable();
    let progressSeen = 0;
    const percents: number[] = [];
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
    return { ms, rssGrowthMb: (peak - rss0) / 1024 / 1024, progressSeen, percents, maxLagMs: lag.max / 1e6, p99LagMs: lag.percentile(99) / 1e6 };
  } finally {
    await service.stop();
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const { child, description, media } = await startChild();
  const scratch = tempDir('recordings-bench-curl-');
  try {
    const curls: number[] = [];
    const ours: Awaited<ReturnType<typeof serviceOnce>>[] = [];
    // Alternate which client goes first: the disk's writeback state favours whoever runs first.
    for (let i = 0; i < ROUNDS; i++) {
      if (i % 2 === 0) curls.push(curlOnce(media, path.join(scratch, 'curl.ts')));
      ours.push(await serviceOnce(description, i === ROUNDS - 1));
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
    figure('service event-loop delay p99 during the download (median of runs)', median(ours.map((o) => o.p99LagMs)), 'ms', { max: 50 });
    figure('service event-loop delay max during the download (median of runs)', median(ours.map((o) => o.maxLagMs)), 'ms');
    console.log(`machine load average at the end: ${fs.readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
    const last = ours.at(-1)!;
    console.log(`progress entries seen while polling GET /api/recordings (last run): ${last.progressSeen} (percents ${last.percents.join(', ')})`);
  } finally {
    child.stdin!.end();
    fs.rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv.includes('--serve')) void serveChild();
else await main();
