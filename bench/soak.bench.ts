/**
 * Soak: both services in one process (bench/soak-child.ts) for a long stretch at a compressed but
 * realistic load, to see whether memory or file descriptors grow. Loopback only:
 * - the gateway simulator polled every second; three event-stream (/events) clients;
 * - the snapshot read every second, the history every 10 s, /metrics on both ports every 5 s;
 * - MQTT to a mosquitto broker (both services publish; a subscriber watches), the broker killed
 *   every 5 minutes and started again 2 s later;
 * - a sync every 2 minutes, each downloading a recording the box gained since the last one;
 * - a settings write on each service every minute.
 * The child samples RSS, V8 heap used, external memory, open descriptors and event-loop delay every
 * 30 s; after warm-up, the growth per hour is a least-squares fit over the samples, with its
 * residual (the noise around the line).
 *
 * Run: `npm run bench -- soak` (30 minutes), `npm run bench -- soak --minutes=120`, or SOAK_MINUTES.
 * SOAK_WARMUP_MINUTES (default: a fifth of the run, at most 10), SOAK_SAMPLE_SECONDS (30).
 * SOAK_HEAP_SNAPSHOTS=1: the child writes a V8 heap snapshot at the end of warm-up and at the end
 * of the run (compare them in Chrome DevTools › Memory) into a folder the bench prints.
 * Writing a snapshot leaves the child's RSS ~150 MB higher: read the memory figures from a run without.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { startGatewaySimulator } from '../main/energy/simulator/gateway-simulator.js';
import { mosquittoUnavailable, startMosquitto, watch } from '../main/integrations/mqtt/testing/mosquitto.js';
import { createBoxSimulator } from '../main/recordings/box/simulator/box-simulator.js';
import { ApiClient } from '../main/recordings/testing/harness.js';
import { npmStart } from './npm-start.js';
import type { SoakSample } from './soak-child.js';
import { figure, linearFit, percentile, round } from './report.js';

const arg = (name: string) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const minutes = Number(arg('minutes') ?? process.env.SOAK_MINUTES ?? 30);
const warmupMinutes = Number(arg('warmup') ?? process.env.SOAK_WARMUP_MINUTES ?? Math.min(10, minutes / 5));
const sampleMs = Number(process.env.SOAK_SAMPLE_SECONDS ?? 30) * 1000;
if (!(minutes > 0) || !(warmupMinutes >= 0) || warmupMinutes >= minutes) throw new Error(`--minutes must be > 0 and above the warm-up (${warmupMinutes} min)`);
const snapshots = process.env.SOAK_HEAP_SNAPSHOTS === '1' ? fs.mkdtempSync(path.join(os.tmpdir(), 'soak-heap-')) : null;
const ITEM_BYTES = 4 * 1024 * 1024;
/** Parts of the load left out (SOAK_OFF=sync,mqtt,…), to find which one makes memory grow. */
const LOAD_PARTS = ['events', 'snapshot', 'state', 'history', 'metrics', 'sync-runs', 'sync', 'settings', 'mqtt'] as const;
const off = new Set((process.env.SOAK_OFF ?? '').split(',').filter(Boolean));
for (const p of off) if (!(LOAD_PARTS as readonly string[]).includes(p)) throw new Error(`SOAK_OFF: unknown part "${p}" (${LOAD_PARTS.join(', ')})`);
const on = (part: (typeof LOAD_PARTS)[number]) => !off.has(part);

// --- the simulators ---
const gateway = await startGatewaySimulator({ firmware: 'V2.9' });
let nextId = 910_000_000;
const newItem = () => {
  const id = String(nextId++);
  return { id, title: `Soak News - ${id}`, length: ITEM_BYTES };
};
const box = createBoxSimulator({ shows: [{ title: 'Soak News', items: [newItem()] }] });
await box.start();
const noBroker = on('mqtt') ? mosquittoUnavailable() : 'SOAK_OFF';
const broker = noBroker ? null : await startMosquitto();
if (noBroker) console.log(`MQTT left out: ${noBroker}`);

// --- the services, in a process of their own ---
// With `npm start`'s node flags and environment (MALLOC_ARENA_MAX, the semi-space size): without
// them glibc gives each thread a malloc arena of its own and every isolate a 16 MB nursery, which
// is not the memory users' installs run with. SOAK_AS_NPM_START=0 leaves them out.
const asStart = process.env.SOAK_AS_NPM_START === '0' ? { env: {}, nodeFlags: [] } : npmStart(path.resolve(import.meta.dirname, '..'));
const child = spawn(process.execPath, [...asStart.nodeFlags, ...(snapshots ? ['--heapsnapshot-signal=SIGUSR2', `--diagnostic-dir=${snapshots}`] : []), '--import', 'tsx', path.join(import.meta.dirname, 'soak-child.ts')], {
  stdio: ['pipe', 'pipe', 'inherit'],
  env: { ...process.env, ...asStart.env, GATEWAY_HOST: gateway.host, GATEWAY_PORT: String(gateway.port), SAMPLE_MS: String(sampleMs), ...(broker ? { MQTT_URL: broker.url } : {}) },
});
let childExited = false;
child.on('exit', () => (childExited = true));
const lines = readline.createInterface({ input: child.stdout! });
const urls = await new Promise<{ energy: string; recordings: string }>((resolve, reject) => {
  lines.once('line', (l) => resolve(JSON.parse(l)));
  child.once('exit', (code) => reject(new Error(`the services exited (${code}) before they were ready`)));
});
const samples: SoakSample[] = [];
lines.on('line', (l) => {
  const s = JSON.parse(l) as SoakSample;
  samples.push(s);
  const threads = s.workers.map((w) => `${w.name} ${round(w.heap / 1e6)}+${round(w.external / 1e6)}`).join(', ');
  console.log(`  ${round(s.t / 60_000)} min: RSS ${round(s.rss / 1e6)} MB, heap ${round(s.heapUsed / 1e6)} MB, external ${round(s.external / 1e6)} MB, ${s.fds} fds, loop delay p99 ${round(s.lagP99)} ms${threads ? `; workers (heap+external MB): ${threads}` : ''}`);
});

const rec = new ApiClient(urls.recordings);
const errors = new Map<string, number>();
const fail = (what: string) => errors.set(what, (errors.get(what) ?? 0) + 1);
const mustOk = async (what: string, res: Promise<{ status: number }>) => {
  try {
    const r = await res;
    if (r.status >= 400) fail(`${what}: ${r.status}`);
  } catch (err) {
    fail(`${what}: ${(err as Error).message}`);
  }
};
const get = (what: string, url: string) =>
  mustOk(
    what,
    fetch(url).then(async (r) => {
      await r.arrayBuffer();
      return r;
    }),
  );

await mustOk('recordings settings', rec.patch('/api/settings', { box_address: box.descriptionUrl }));
await mustOk('recordings show', rec.post('/api/shows', { name: 'soak news', dest_folder: 'News' }));

// --- the load ---
const timers: NodeJS.Timeout[] = [];
/** Runs `work` every `ms`, never two at once. */
const every = (ms: number, work: () => Promise<unknown>) => {
  let busy = false;
  timers.push(
    setInterval(() => {
      if (busy) return;
      busy = true;
      void work().finally(() => (busy = false));
    }, ms),
  );
};

let events = 0;
const streams = new Set<http.ClientRequest>();
const openStream = () => {
  const req = http.get(`${urls.energy}/events`, (res) => {
    res.on('data', (c: Buffer) => (events += c.toString().split('\n\n').length - 1));
    res.on('end', () => {
      streams.delete(req);
      if (!stopping) openStream();
    });
  });
  req.on('error', () => fail('event stream'));
  streams.add(req);
};
let stopping = false;
if (on('events')) for (let i = 0; i < 3; i++) openStream();

if (on('snapshot')) every(1000, () => get('snapshot', `${urls.energy}/api/snapshot`));
if (on('state')) every(1000, () => get('state', `${urls.energy}/api/state`));
if (on('history')) every(10_000, () => get('history', `${urls.energy}/api/history?since=${Date.now() - 3_600_000}&every=60`));
if (on('metrics')) every(5000, () => Promise.all([get('energy /metrics', `${urls.energy}/metrics`), get('recordings /metrics', `${urls.recordings}/metrics`)]));
if (on('sync-runs')) every(10_000, () => get('sync runs', `${urls.recordings}/api/sync-runs`));

let syncs = 0;
if (on('sync')) every(120_000, async () => {
  box.add(0, newItem());
  syncs++;
  await mustOk('sync', rec.post('/api/sync'));
});

let flip = false;
if (on('settings')) every(60_000, async () => {
  flip = !flip;
  await mustOk('energy settings', fetch(`${urls.energy}/api/settings`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ general: { temperatureUnit: flip ? 'fahrenheit' : 'celsius' } }) }));
  await mustOk('recordings settings', rec.patch('/api/settings', { mqtt_publish_interval_seconds: flip ? 11 : 10 }));
});

let mqttMessages = 0;
let restarts = 0;
const mqttWatch: { subscriber: Awaited<ReturnType<typeof watch>> | null } = { subscriber: null };
const subscribe = async () => {
  if (!broker) return;
  const subscriber = (mqttWatch.subscriber = await watch(broker.url, ['home-lan-bridge/#']));
  subscriber.client.on('message', () => mqttMessages++);
};
await subscribe();
if (broker) {
  every(300_000, async () => {
    await mqttWatch.subscriber?.close().catch(() => undefined);
    await broker.kill();
    await new Promise((r) => setTimeout(r, 2000));
    await broker.start();
    restarts++;
    await subscribe().catch(() => fail('MQTT subscriber'));
  });
}

// --- the run ---
const warmupMs = warmupMinutes * 60_000;
if (snapshots) setTimeout(() => child.kill('SIGUSR2'), warmupMs).unref();
console.log(`soak: ${minutes} min (warm-up ${round(warmupMinutes)} min), a sample every ${sampleMs / 1000} s; child: node ${asStart.nodeFlags.join(' ') || '(no flags)'} ${Object.entries(asStart.env).map(([k, v]) => `${k}=${v}`).join(' ')}${off.size ? `; load left out: ${[...off].join(', ')}` : ''}; energy ${urls.energy}, recordings ${urls.recordings}`);
await new Promise<void>((resolve) => {
  const end = setTimeout(resolve, minutes * 60_000 + 1000);
  child.once('exit', () => {
    clearTimeout(end);
    resolve();
  });
});
if (snapshots && !childExited) {
  child.kill('SIGUSR2');
  // Writing a snapshot stops the child for a while; the next sample line says it is done.
  const n = samples.length;
  while (samples.length === n && !childExited) await new Promise((r) => setTimeout(r, 1000));
}

stopping = true;
for (const t of timers) clearInterval(t);
const runs = childExited ? [] : ((await rec.get('/api/sync-runs')).body?.runs ?? []) as Array<{ status: string; summary?: { downloaded?: number } | null }>;
const statusCounts = new Map<string, number>();
for (const r of runs) statusCounts.set(r.status, (statusCounts.get(r.status) ?? 0) + 1);
const byStatus = [...statusCounts].map(([k, n]) => `${k} ${n}`);
const downloaded = runs.reduce((a, r) => a + (r.summary?.downloaded ?? 0), 0);
for (const s of streams) s.destroy();
await mqttWatch.subscriber?.close().catch(() => undefined);
const crashed = childExited;
if (!crashed) {
  child.stdin!.end();
  await new Promise((r) => child.once('exit', r));
}
await broker?.close();
await box.stop();
await gateway.close();

// --- the figures ---
const after = samples.filter((s) => s.t >= warmupMs);
const hours = after.map((s) => s.t / 3_600_000);
const growth = (label: string, read: (s: SoakSample) => number, unit: string, scale: number, max?: number) => {
  const fit = linearFit(hours, after.map((s) => read(s) / scale));
  console.log(`  ${label}: ${round(read(after[0]!) / scale)} → ${round(read(after.at(-1)!) / scale)} ${unit}, residual ±${round(fit.residual)} ${unit}`);
  figure(`${label} growth after warm-up (least-squares, ${after.length} samples)`, fit.slope, `${unit}/h`, max === undefined ? undefined : { max });
};
console.log(`\n${samples.length} samples; ${syncs} syncs asked for (runs: ${byStatus.join(', ') || 'none'}; ${downloaded} recordings downloaded), ${restarts} broker restarts, ${events} events on 3 streams, ${mqttMessages} MQTT messages seen`);
if (after.length >= 3) {
  growth('RSS', (s) => s.rss, 'MB', 1e6, 1);
  growth('V8 heap used', (s) => s.heapUsed, 'MB', 1e6, 1);
  growth('external memory', (s) => s.external, 'MB', 1e6);
  growth("worker threads' heaps and external memory", (s) => s.workers.reduce((a, w) => a + w.heap + w.external, 0), 'MB', 1e6);
  growth('open file descriptors', (s) => s.fds, 'fds', 1, 0.5);
  const win = `${sampleMs / 1000} s`;
  figure(`event-loop delay p99 (worst ${win} window after warm-up)`, Math.max(...after.map((s) => s.lagP99)), 'ms', { max: 50 });
  figure(`event-loop delay p99 (median ${win} window after warm-up)`, percentile(after.map((s) => s.lagP99), 50), 'ms');
} else {
  console.log('too few samples after warm-up for a fit: run longer (--minutes) or shorten the warm-up');
}
const requestErrors = [...errors.values()].reduce((a, n) => a + n, 0);
for (const [what, n] of errors) console.log(`  errors: ${what} ×${n}`);
figure('failed requests and streams', requestErrors, 'errors');
if (snapshots) console.log(`heap snapshots (end of warm-up, end of run): ${snapshots}`);
if (crashed) console.log('!!! the services exited during the run');
process.exit(crashed ? 1 : 0);
