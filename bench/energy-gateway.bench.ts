/**
 * The energy bridge against gateways that behave like real ones (simulator modes), over Modbus TCP
 * on loopback:
 * - requests per steady poll (plant + one inverter) on the dense map (goal <= 8) and on the strict
 *   map (goal: the minimal plan, computed from the register map and printed beside it), against
 *   the naive baseline of one request per register;
 * - time from start to the first published state with absent unit ids silent (goal < 2 s), beside
 *   the time the full enumeration of units 1..8 takes in the same run (what the first state used
 *   to wait for).
 * Run: `npm run bench -- energy-gateway`.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { silentLogger } from '../main/core/logger.js';
import { createModbusConnection } from '../main/energy/gateway/connection.js';
import { PlantReader } from '../main/energy/gateway/plant-reader.js';
import { FIRMWARE_VERSIONS, INVERTER_REGISTERS, PLANT_REGISTERS, type Firmware, type RegisterDef } from '../main/energy/gateway/registers.js';
import { createEnergyService } from '../main/energy/index.js';
import { startGatewaySimulator, type GatewaySimulatorOptions } from '../main/energy/simulator/gateway-simulator.js';
import { figure, round } from './report.js';


/** One request per contiguous run of defined registers, per table (at most 124 words each, the vendor's limit). */
function minimalPlan(regs: readonly RegisterDef[]): number {
  let runs = 0;
  for (const table of ['input', 'holding'] as const) {
    const sorted = regs.filter((r) => r.table === table).sort((a, b) => a.address - b.address);
    let start = -1;
    let end = -1;
    for (const r of sorted) {
      if (r.address !== end || r.address + r.words - start > 124) {
        runs++;
        start = r.address;
      }
      end = r.address + r.words;
    }
  }
  return runs;
}

async function steadyRequests(opts: GatewaySimulatorOptions): Promise<number> {
  const sim = await startGatewaySimulator(opts);
  const conn = createModbusConnection({ host: sim.host, port: sim.port, timeoutMs: 1000 });
  await conn.connect();
  const reader = new PlantReader();
  await reader.enumerate(conn.read, 1, 4, 200);
  for (let i = 0; i < 5; i++) await reader.read(conn.read);
  const polls = 50;
  const before = sim.server.requestCount;
  for (let i = 0; i < polls; i++) await reader.read(conn.read);
  const perPoll = (sim.server.requestCount - before) / polls;
  await conn.close();
  await sim.close();
  return perPoll;
}

const fw: Firmware = 'V2.9';
const plantRegs = PLANT_REGISTERS.filter((r) => FIRMWARE_VERSIONS.indexOf(r.since) <= FIRMWARE_VERSIONS.indexOf(fw));
const naive = plantRegs.length + INVERTER_REGISTERS.length;
console.log(`baseline: one request per register = ${naive} requests per poll (plant + one inverter)`);
const dense = await steadyRequests({ firmware: fw });
figure('dense map, requests per steady poll (plant + 1 inverter)', dense, 'requests', { max: 8 });
figure('dense map requests / one request per register', dense / naive, 'x');
const minimal = minimalPlan(plantRegs) + minimalPlan(INVERTER_REGISTERS);
const strict = await steadyRequests({ firmware: fw, reservedAddresses: 'strict' });
figure(`strict map, requests per steady poll (minimal plan = ${minimal})`, strict, 'requests', { max: minimal });

// --- connect -> first published state, absent unit ids silent (inverter on unit 5) ---
{
  const sim = await startGatewaySimulator({
    firmware: fw,
    absentUnits: 'silent',
    inverters: [{ unit: 5, model: 'SigenStor EC 12.0 TP', serial: 'SIGSIM0000000005', firmware: 'V100R001C00SPC112B107G', strings: 4 }],
  });
  const firsts: number[] = [];
  const enumerations: number[] = [];
  for (let run = 0; run < 3; run++) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-gw-bench-'));
    const service = createEnergyService(
      { dataDir, host: '127.0.0.1', port: 0, env: { GATEWAY_HOST: sim.host, GATEWAY_PORT: String(sim.port), POLL_INTERVAL_MS: '1000' } },
      { logger: silentLogger },
    );
    const t0 = performance.now();
    let first = 0;
    let found = 0;
    await service.start();
    await new Promise<void>((resolve) => {
      const check = () => {
        const s = service.state.get();
        if (!first && s.connected && s.battery.soc !== null) first = performance.now() - t0;
        if (!found && s.inverters.length) found = performance.now() - t0;
        if (first && found) {
          off();
          resolve();
        }
      };
      const off = service.state.subscribe(check);
    });
    firsts.push(first);
    enumerations.push(found);
    await service.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
  console.log(`baseline (same run): inverter on unit 5 found after ${round(median(enumerations))} ms (probes of silent units 1..4 at the probe timeout)`);
  figure('start -> first published state, absent units silent', median(firsts), 'ms', { max: 2000 });
  figure('first published state / enumeration of units 1..5 (medians)', median(firsts) / median(enumerations), 'x');
  await sim.close();
}

// Missed targets show in the figures and the summary table; the exit code says only that the bench ran.
process.exit(0);
