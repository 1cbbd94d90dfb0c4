import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../../core/clock.js';
import { CounterCheck } from './counter-check.js';
import type { LiveState } from '../live-state.js';
import { startGatewaySimulator, type GatewaySimulator } from '../simulator/gateway-simulator.js';
import { nextPoll, startEnergyHarness, waitForState } from '../testing/harness.js';

/**
 * Lifetime counters that read 0 for a poll, or jump impossibly, on some gateway firmware (see
 * reference/gateway-modbus.md): held back before any consumer sees them.
 */

type Harness = Awaited<ReturnType<typeof startEnergyHarness>>;
let h: Harness | undefined;
let other: GatewaySimulator | undefined;
afterEach(async () => {
  await h?.stop();
  await other?.close();
  h = other = undefined;
});

function memoryLogger() {
  const lines: Array<{ msg: string; counter?: string; level: number }> = [];
  const logger = pino({ level: 'info' }, { write: (l: string) => void lines.push(JSON.parse(l)) });
  return { logger, lines };
}

const heldLines = <L extends { msg: string }>(lines: L[]) => lines.filter((l) => /lifetime energy counter/.test(l.msg));

interface Snap {
  energy: { lifetime: { pv: number | null; gridImport: number | null; gridExport: number | null } };
  devices: Array<{ type: string; index?: number; lifetimeEnergy?: number | null }>;
}

async function published(h: Harness): Promise<{ snap: Snap; state: LiveState }> {
  const snap = (await (await fetch(`${h.service.url}/api/snapshot`)).json()) as Snap;
  const state = (await (await fetch(`${h.service.url}/api/state`)).json()) as LiveState;
  return { snap, state };
}

describe('lifetime counters through the running bridge', () => {
  it('holds back a counter that reads 0 and one that jumps impossibly, then passes the next good reading', async () => {
    const clock = createManualClock(Date.UTC(2026, 5, 1, 2));
    const { logger, lines } = memoryLogger();
    // The plant at night on a frozen clock; the counters under test are set reading by reading.
    const night = new Date('2026-06-01T02:00:00').getTime();
    h = await startEnergyHarness({ sim: { now: () => night }, deps: { clock, logger } });
    const served = h.sim.plantOverrides;
    served.set('lifetimeGridImport', 2650.12);
    served.set('lifetimePv', 4210.55);
    served.set('smartLoadEnergy.1', 131.5);
    await nextPoll(h.service, clock, 0);
    let { snap, state } = await published(h);
    expect(snap.energy.lifetime.gridImport).toBe(2650.12);
    expect(snap.energy.lifetime.pv).toBe(4210.55);

    // One poll (1 s later) where import reads 0, PV has jumped 187 kWh and a smart load went back.
    served.set('lifetimeGridImport', 0);
    served.set('lifetimePv', 4397.55);
    served.set('smartLoadEnergy.1', 12.5);
    await nextPoll(h.service, clock, 1000);
    ({ snap, state } = await published(h));
    expect(snap.energy.lifetime.gridImport).toBe(2650.12);
    expect(snap.energy.lifetime.pv).toBe(4210.55);
    expect(snap.devices.find((d) => d.type === 'smartLoad' && d.index === 1)?.lifetimeEnergy).toBe(131.5);
    expect(state.energy.lifetime.gridImport).toBe(2650.12);
    expect(state.energy.lifetime.pv).toBe(4210.55);
    // Other counters of the same poll pass as read.
    expect(snap.energy.lifetime.gridExport).toBe(h.sim.plant.plantValues().lifetimeGridExport);

    // The bad reads last another poll: still held, and still one log line per counter.
    await nextPoll(h.service, clock, 1000);
    ({ snap } = await published(h));
    expect(snap.energy.lifetime.gridImport).toBe(2650.12);
    expect(heldLines(lines).map((l) => l.counter).sort()).toEqual(['lifetimeGridImport', 'lifetimePv', 'smartLoadEnergy.1']);

    // The next good reading goes through.
    served.set('lifetimeGridImport', 2650.13);
    served.set('lifetimePv', 4210.6);
    served.set('smartLoadEnergy.1', 131.51);
    await nextPoll(h.service, clock, 1000);
    ({ snap, state } = await published(h));
    expect(snap.energy.lifetime.gridImport).toBe(2650.13);
    expect(snap.energy.lifetime.pv).toBe(4210.6);
    expect(state.smartLoads.find((l) => l.index === 1)?.lifetimeEnergy).toBe(131.51);
    expect(heldLines(lines)).toHaveLength(3);
  });

  it('takes the counters of another gateway as they are when the gateway setting changes', async () => {
    const clock = createManualClock(Date.UTC(2026, 5, 1, 2));
    const night = new Date('2026-06-01T02:00:00').getTime();
    h = await startEnergyHarness({ sim: { now: () => night }, deps: { clock } });
    h.sim.plantOverrides.set('lifetimeGridImport', 2650.12);
    await nextPoll(h.service, clock, 0);
    expect(h.service.state.get().energy.lifetime.gridImport).toBe(2650.12);

    other = await startGatewaySimulator({ firmware: 'V2.9', now: () => night });
    other.plantOverrides.set('lifetimeGridImport', 12.34);
    const s = h.service.settings.get();
    h.service.settings.replace({ ...s, gateway: { ...s.gateway, port: other.port } });
    await h.service.poller.reconnect();
    const port = other.port;
    const polled = waitForState(h.service, (st) => st.connected && st.gateway.port === port && st.lastUpdated !== null, 10_000);
    await nextPoll(h.service, clock, 1000);
    await polled;
    const state = (await (await fetch(`${h.service.url}/api/state`)).json()) as LiveState;
    expect(state.energy.lifetime.gridImport).toBe(12.34);
  });
});

describe('the counter check on its own', () => {
  const T0 = Date.UTC(2026, 5, 1);
  const read = (check: CounterCheck, v: number, at: number) => check.check({ lifetimeGridImport: v }, at).lifetimeGridImport;

  it('allows what 250 kW can make in the elapsed time, and no more', () => {
    const check = new CounterCheck(memoryLogger().logger);
    expect(read(check, 100, T0)).toBe(100);
    // An hour offline: up to 250 kWh more is possible.
    expect(read(check, 340, T0 + 3_600_000)).toBe(340);
    // Five seconds later, 1 kWh more is not (250 kW makes ~0.35 kWh in 5 s).
    expect(read(check, 341, T0 + 3_605_000)).toBe(340);
    expect(read(check, 340.2, T0 + 3_610_000)).toBe(340.2);
    // One register step with no time at all (two reads of the same instant).
    expect(read(check, 340.21, T0 + 3_610_000)).toBe(340.21);
  });

  it('publishes a first reading of 0 as unknown, not as a baseline the next good reading would jump from', () => {
    const check = new CounterCheck(memoryLogger().logger);
    expect(read(check, 0, T0)).toBeNull();
    expect(read(check, 2650.12, T0 + 1000)).toBe(2650.12);
  });

  it('publishes a counter that really is 0 (a zero-export home) once its zeros have held for 10 minutes', () => {
    const check = new CounterCheck(memoryLogger().logger);
    let t = T0;
    for (; t < T0 + 10 * 60_000; t += 5000) expect(read(check, 0, t), `at ${t - T0} ms`).toBeNull();
    expect(read(check, 0, t)).toBe(0);
    expect(read(check, 0.01, t + 5000)).toBe(0.01);
  });

  it('takes a new level once readings agree on it for 10 minutes (a replaced gateway), never a level of 0', () => {
    const { logger, lines } = memoryLogger();
    const check = new CounterCheck(logger);
    expect(read(check, 2650, T0)).toBe(2650);
    let t = T0;
    // Zeros for 12.5 minutes.
    for (let i = 1; i <= 150; i++) {
      t += 5000;
      expect(read(check, 0, t)).toBe(2650);
    }
    const rising = t + 5000;
    for (let v = 12; t - T0 < 30 * 60_000; v += 0.01) {
      t += 5000;
      const out = read(check, v, t);
      if (out !== 2650) {
        expect(out).toBeCloseTo(v, 6);
        break;
      }
    }
    // Zeros for ten minutes were not taken; the rising new level was, ten minutes after it began.
    expect(t - rising).toBeGreaterThanOrEqual(10 * 60_000);
    expect(t - rising).toBeLessThan(10 * 60_000 + 10_000);
    expect(heldLines(lines)).toHaveLength(2);
  });

  it('passes null (unsupported) and leaves values it does not check alone', () => {
    const check = new CounterCheck(memoryLogger().logger);
    const plant = { lifetimeGridImport: null, consumedToday: 0, gridPower: -3000 };
    expect(check.check(plant, T0)).toBe(plant);
  });
});
