/**
 * Energy bridge live path:
 *  1. Modbus round trips per poll in steady state (V2.9, one inverter) against reading each
 *     register alone (baseline, same simulator, same run). Target: <= 8.
 *  2. Poll-to-SSE latency with 100 connected clients (time from the poll's reading to each client
 *     receiving the event). Target: < 20 ms on top of the Modbus time.
 *  3. Idle CPU of the headless process at a 1 s poll, against a bare Node process. Target: < 2%.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { silentLogger } from '../main/core/logger.js';
import { createEnergyService } from '../main/energy/index.js';
import { createModbusConnection } from '../main/energy/gateway/connection.js';
import { PlantReader } from '../main/energy/gateway/plant-reader.js';
import { INVERTER_REGISTERS, PLANT_REGISTERS, PLANT_UNIT } from '../main/energy/gateway/registers.js';
import { startGatewaySimulator } from '../main/energy/simulator/gateway-simulator.js';
import { figure } from './report.js';
import { freePort } from '../main/core/testing/free-port.js';

const repo = path.resolve(import.meta.dirname, '..');
let ok = true;

// 1. Round trips per poll.
{
  const sim = await startGatewaySimulator({ firmware: 'V2.9' });
  const conn = createModbusConnection({ host: sim.host, port: sim.port, timeoutMs: 1000 });
  await conn.connect();
  const reader = new PlantReader();
  await reader.read(conn.read);
  await reader.enumerate(conn.read, 1, 8);
  await reader.read(conn.read);
  const polls = 20;
  const before = sim.server.requestCount;
  const t0 = performance.now();
  for (let i = 0; i < polls; i++) await reader.read(conn.read);
  const modbusMs = (performance.now() - t0) / polls;
  const perPoll = (sim.server.requestCount - before) / polls;

  const single = sim.server.requestCount;
  const t1 = performance.now();
  for (const def of PLANT_REGISTERS) await conn.read(def.table, PLANT_UNIT, def.address, def.words).catch(() => undefined);
  for (const def of INVERTER_REGISTERS) await conn.read(def.table, 2, def.address, def.words).catch(() => undefined);
  const singleMs = performance.now() - t1;
  const baseline = sim.server.requestCount - single;
  ok = figure('round trips per steady-state poll (V2.9, 1 inverter)', perPoll, 'requests', { max: 8 }) && ok;
  figure('baseline: one read per register', baseline, 'requests');
  figure('ratio block reads / per-register reads', perPoll / baseline, 'x');
  figure('Modbus time per poll on loopback (blocks)', modbusMs, 'ms');
  figure('Modbus time per poll on loopback (per register)', singleMs, 'ms');
  await conn.close();
  await sim.close();
}

// 2. Poll-to-SSE latency with 100 clients.
{
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-sse-'));
  const sim = await startGatewaySimulator({ firmware: 'V2.9' });
  const service = createEnergyService(
    { dataDir, host: '127.0.0.1', port: 0, env: { GATEWAY_HOST: sim.host, GATEWAY_PORT: String(sim.port), POLL_INTERVAL_MS: '1000' } },
    { logger: silentLogger },
  );
  await service.start();
  const latencies: number[] = [];
  const clients: http.ClientRequest[] = [];
  const url = new URL(`${service.url}/events`);
  const agent = new http.Agent({ maxSockets: 200 });
  let initial = 0;
  await new Promise<void>((resolve) => {
    for (let i = 0; i < 100; i++) {
      // One address per dashboard (127.0.1.x): the bridge allows only a few streams per address.
      const req = http.get({ hostname: url.hostname, port: url.port, path: url.pathname, agent, localAddress: `127.0.1.${i + 1}` }, (res) => {
        let buf = '';
        let first = true;
        res.on('data', (chunk: Buffer) => {
          const now = Date.now();
          buf += chunk.toString();
          let idx;
          while ((idx = buf.indexOf('\n\n')) >= 0) {
            const frame = buf.slice(0, idx);
            buf = buf.slice(idx + 2);
            const line = frame.split('\n').find((l) => l.startsWith('data: '));
            if (!line) continue;
            if (first) {
              first = false;
              if (++initial === 100) resolve();
              continue;
            }
            // A regex, not JSON.parse: 100 in-process clients parsing would inflate the figure.
            const lastUpdated = Number(/"lastUpdated":(\d+)/.exec(line)?.[1]);
            latencies.push(now - lastUpdated);
          }
        });
      });
      clients.push(req);
    }
  });
  await new Promise((r) => setTimeout(r, 10_500));
  latencies.sort((a, b) => a - b);
  const pct = (p: number) => latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))]!;
  console.log(`SSE events received: ${latencies.length} (100 clients x ~10 polls)`);
  figure('poll-to-SSE latency p50', pct(50), 'ms');
  ok = figure('poll-to-SSE latency p95', pct(95), 'ms', { max: 20 }) && ok;
  figure('poll-to-SSE latency max', latencies[latencies.length - 1]!, 'ms');
  for (const c of clients) c.destroy();
  agent.destroy();
  await service.stop();
  await sim.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

// 3. Idle CPU of the headless process at a 1 s poll.
{
  const cpuOf = (pid: number) => {
    const f = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(f[11]) + Number(f[12])) / 100; // utime + stime in clock ticks (100 Hz) → s
  };
  const measure = async (args: string[], env: NodeJS.ProcessEnv, warmMs: number, sampleMs: number) => {
    const child = spawn(process.execPath, args, { cwd: repo, env, stdio: 'ignore' });
    await new Promise((r) => setTimeout(r, warmMs));
    const c0 = cpuOf(child.pid!);
    const t0 = performance.now();
    await new Promise((r) => setTimeout(r, sampleMs));
    const used = cpuOf(child.pid!) - c0;
    const wall = (performance.now() - t0) / 1000;
    child.kill('SIGTERM');
    await new Promise((r) => child.once('exit', r));
    return (used / wall) * 100;
  };
  const sim = await startGatewaySimulator({ firmware: 'V2.9' });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-cpu-'));
  const env = {
    ...process.env,
    DATA_DIR: dataDir,
    GATEWAY_HOST: sim.host,
    GATEWAY_PORT: String(sim.port),
    POLL_INTERVAL_MS: '1000',
    SERVER_PORT: String(await freePort()),
    PORT: String(await freePort()),
    BIND_HOST: '127.0.0.1',
    LOG_LEVEL: 'silent',
  };
  const sampleMs = 30_000;
  const headless = await measure(['--import', 'tsx', 'main/headless.ts'], env, 8000, sampleMs);
  const bare = await measure(['-e', 'setInterval(() => {}, 1000)'], env, 1000, sampleMs);
  ok = figure('headless idle CPU at 1 s poll (% of one core)', headless, '%', { max: 2 }) && ok;
  figure('baseline: bare node process with a 1 s timer', bare, '%');
  figure('headless idle CPU - bare process', headless - bare, '%');
  await sim.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
}

console.log(ok ? 'energy-live: all targets met' : 'energy-live: some targets MISSED');
