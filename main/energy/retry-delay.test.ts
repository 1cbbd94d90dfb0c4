import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../core/clock.js';
import { silentLogger } from '../core/logger.js';
import { createModbusConnection, type ConnectionFactory } from './gateway/connection.js';
import { Poller, type PollerConfig } from './live/poller.js';
import { energySettingsSchema } from './settings/energy-settings.js';
import { startGatewaySimulator, type GatewaySimulator } from './simulator/gateway-simulator.js';

// spec/energy-bridge.md (state machine): a gateway drop makes `connected` false and the poller
// "retries on a fixed delay"; the delay is a setting, default 10 seconds. Real Modbus TCP to the
// simulator on loopback; the poller's timers on a manual clock, so the test waits no real 10 s.
const until = async (cond: () => boolean, what: string) => {
  const end = Date.now() + 15_000;
  while (!cond()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
};

describe('retry after a gateway drop', () => {
  let sim: GatewaySimulator | null = null;
  let poller: Poller | null = null;
  afterEach(async () => {
    await poller?.stop();
    await sim?.close();
  });

  it('waits the configured delay (default 10 s) before connecting again, not a moment less', async () => {
    const retryDelayMs = energySettingsSchema.parse({}).polling.retryDelayMs;
    expect(retryDelayMs).toBe(10_000);
    sim = await startGatewaySimulator({ firmware: 'V2.9' });
    const port = sim.port;
    const clock = createManualClock(Date.UTC(2026, 10, 25, 9, 0, 0));
    let connects = 0;
    const factory: ConnectionFactory = (o) => {
      connects++;
      return createModbusConnection(o);
    };
    const cfg: PollerConfig = { host: '127.0.0.1', port, pollIntervalMs: 5000, retryDelayMs, timeoutMs: 2000, inverterUnits: { from: 1, to: 1 }, probeTimeoutMs: 300 };
    let readings = 0;
    const drops: number[] = [];
    poller = new Poller(() => cfg, factory, clock, silentLogger, { onReading: () => readings++, onDisconnected: (_e, at) => drops.push(at) });
    poller.start();
    clock.advance(0);
    await until(() => readings === 1 && poller!.waiting, 'the first reading');

    await sim.close();
    sim = null;
    clock.advance(5000); // the next poll finds the gateway gone
    await until(() => drops.length === 1 && poller!.waiting, 'the drop');
    const dropAt = drops[0]!;
    const before = connects;
    sim = await startGatewaySimulator({ firmware: 'V2.9', port });

    clock.advance(retryDelayMs - 1);
    // The retry has not started: its timer is still the one pending (it starts synchronously when due).
    expect(poller!.waiting).toBe(true);
    expect(connects).toBe(before);
    expect(readings).toBe(1);
    clock.advance(1);
    await until(() => readings === 2, 'the reading after the retry');
    expect(connects).toBe(before + 1);
    expect(clock.now() - dropAt).toBe(retryDelayMs);
  });

  it('a configured 30 s delay is honoured between failed connects', async () => {
    const clock = createManualClock(Date.UTC(2026, 10, 25, 9, 0, 0));
    // Nothing listens on this gateway: every connect fails at once.
    const probe = await startGatewaySimulator({ firmware: 'V2.9' });
    const port = probe.port;
    await probe.close();
    let connects = 0;
    const cfg: PollerConfig = { host: '127.0.0.1', port, pollIntervalMs: 1000, retryDelayMs: 30_000, timeoutMs: 2000, inverterUnits: { from: 1, to: 1 }, probeTimeoutMs: 300 };
    const drops: number[] = [];
    poller = new Poller(() => cfg, (o) => (connects++, createModbusConnection(o)), clock, silentLogger, { onReading: () => undefined, onDisconnected: (_e, at) => drops.push(at) });
    poller.start();
    clock.advance(0);
    await until(() => drops.length === 1 && poller!.waiting, 'the first failure');
    clock.advance(29_999);
    expect(poller!.waiting).toBe(true);
    expect(connects).toBe(1);
    clock.advance(1);
    await until(() => drops.length === 2 && poller!.waiting, 'the second failure');
    expect(drops[1]! - drops[0]!).toBe(30_000);
  });
});
