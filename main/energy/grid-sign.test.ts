import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../core/clock.js';
import { silentLogger } from '../core/logger.js';
import { createEnergyService, type EnergyService } from './index.js';
import { startModbusServer, type ModbusServer } from './simulator/modbus-server.js';
import { nextPoll, waitForState } from './testing/harness.js';

/**
 * Signs and direction labels checked against raw register words written exactly as the vendor map
 * (shared/reference/gateway-modbus.md) describes them, on a bare Modbus server: nothing here goes
 * through the project's own register encoder, so a sign or word-order slip in the decoder, a swapped
 * import/export, or a moved deadband edge fails this test.
 *
 * - 30005 S32 W: grid power, + import / − export (big-endian, high word first).
 * - battery (derived) = PV (30035 + 30194) + grid − total load (30284); + charging / − discharging.
 * - Deadband (shared/reference/open-values.md): |W| < 50 → `idle`; so ±49 idle, ±50 and ±51 not.
 * - 30216 / 30220 U64 ÷100 kWh: lifetime grid import / export.
 */
const PLANT = 247;

function s32(v: number): [number, number] {
  const u = v < 0 ? v + 2 ** 32 : v;
  return [Math.floor(u / 65536) & 0xffff, u & 0xffff];
}
function u64(v: number): [number, number, number, number] {
  const hi = Math.floor(v / 2 ** 32);
  const lo = v % 2 ** 32;
  return [Math.floor(hi / 65536) & 0xffff, hi & 0xffff, Math.floor(lo / 65536) & 0xffff, lo & 0xffff];
}

/** A V2.9 plant: every input register 30000–30299 answers (0 unless set), holding 40040–40060 too. */
const input = new Map<number, number>();
const holding = new Map<number, number>();
const setWords = (address: number, words: number[]) => words.forEach((w, i) => input.set(address + i, w));

let server: ModbusServer;
let service: EnergyService;
let dataDir: string;
// Polls on a manual clock: each case moves it one poll interval on instead of waiting a second.
const clock = createManualClock();

beforeAll(async () => {
  setWords(30014, [555]); // SOC 55.5 %
  setWords(30216, u64(123_456)); // lifetime import 1234.56 kWh
  setWords(30220, u64(6_543)); // lifetime export 65.43 kWh
  server = await startModbusServer({
    host: '127.0.0.1',
    port: 0,
    source: (unit, table, address, words) => {
      if (unit !== PLANT) return { exception: 0x0b };
      const [lo, hi, map] = table === 'input' ? [30000, 30299, input] : [40040, 40060, holding];
      if (address < lo || address + words - 1 > hi) return { exception: 0x02 };
      return Array.from({ length: words }, (_, i) => map.get(address + i) ?? 0);
    },
  });
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-grid-sign-'));
  service = createEnergyService(
    { dataDir, host: '127.0.0.1', port: 0, env: { GATEWAY_HOST: '127.0.0.1', GATEWAY_PORT: String(server.port), POLL_INTERVAL_MS: '1000' } },
    { logger: silentLogger, clock },
  );
  await service.start();
  await nextPoll(service, clock, 0);
});

afterAll(async () => {
  await service?.stop();
  await server?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('grid sign and direction labels from known gateway register values', () => {
  // [grid W in 30005, battery W wanted] → expected labels
  const cases: Array<[number, number, 'import' | 'export' | 'idle', 'charge' | 'discharge' | 'idle']> = [
    [1234, -800, 'import', 'discharge'],
    [-2500, 3000, 'export', 'charge'],
    [49, 49, 'idle', 'idle'],
    [50, 50, 'import', 'charge'],
    [51, 51, 'import', 'charge'],
    [-49, -49, 'idle', 'idle'],
    [-50, -50, 'export', 'discharge'],
    [-51, -51, 'export', 'discharge'],
    [0, 0, 'idle', 'idle'],
  ];

  it.each(cases)('30005 = %i W, battery %i W → grid %s, battery %s', async (grid, battery, gridLabel, batteryLabel) => {
    const load = 2000;
    const pv = battery - grid + load; // battery = PV + grid − load
    setWords(30005, s32(grid));
    setWords(30035, s32(pv));
    setWords(30194, s32(0));
    setWords(30284, s32(load));
    setWords(30282, s32(load));
    await nextPoll(service, clock, 1000);
    await waitForState(service, (s) => s.connected && s.power.grid === grid && s.power.battery === battery, 15_000);
    const snap = (await (await fetch(`${service.url}/api/snapshot`)).json()) as {
      power: { grid: number; battery: number; gridDirection: string; batteryDirection: string };
      battery: { direction: string; soc: number };
      energy: { lifetime: { gridImport: number; gridExport: number } };
    };
    expect(snap.power.grid).toBe(grid);
    expect(snap.power.battery).toBe(battery);
    expect(snap.power.gridDirection).toBe(gridLabel);
    expect(snap.power.batteryDirection).toBe(batteryLabel);
    expect(snap.battery.direction).toBe(batteryLabel);
    expect(snap.battery.soc).toBeCloseTo(55.5, 5);
    expect(snap.energy.lifetime.gridImport).toBeCloseTo(1234.56, 5);
    expect(snap.energy.lifetime.gridExport).toBeCloseTo(65.43, 5);
  }, 20_000);
});
