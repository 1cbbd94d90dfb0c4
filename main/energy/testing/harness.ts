import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { createManualClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import { createEnergyService, type EnergyDeps, type EnergyService } from '../index.js';
import type { EnergyLiveState } from '../published.js';
import { startGatewaySimulator, type GatewaySimulator, type GatewaySimulatorOptions } from '../simulator/gateway-simulator.js';

/** A temp data dir (or `dataDir`, prepared by the test), a gateway simulator on loopback and an energy service polling it. */
export async function startEnergyHarness(
  opts: { sim?: GatewaySimulatorOptions; env?: Record<string, string>; deps?: Partial<EnergyDeps>; dataDir?: string } = {},
): Promise<{ sim: GatewaySimulator; service: EnergyService; dataDir: string; stop(): Promise<void> }> {
  const dataDir = opts.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'energy-test-'));
  const sim = await startGatewaySimulator({ firmware: 'V2.9', ...opts.sim });
  const service = createEnergyService(
    {
      dataDir,
      host: '127.0.0.1',
      port: 0,
      env: { GATEWAY_HOST: '127.0.0.1', GATEWAY_PORT: String(sim.port), POLL_INTERVAL_MS: '1000', ...opts.env },
    },
    { logger: silentLogger, ...opts.deps },
  );
  await service.start();
  return {
    sim,
    service,
    dataDir,
    async stop() {
      await service.stop();
      await sim.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Resolves with the first live state that satisfies `pred` (checked now and on every change). */
export function waitForState(service: EnergyService, pred: (s: EnergyLiveState) => boolean, timeoutMs = 10_000): Promise<EnergyLiveState> {
  return new Promise((resolve, reject) => {
    if (pred(service.state.get())) return resolve(service.state.get());
    const timer = setTimeout(() => {
      off();
      reject(new Error(`state condition not met within ${timeoutMs} ms; last: ${JSON.stringify(service.state.get()).slice(0, 300)}`));
    }, timeoutMs);
    const off = service.state.subscribe((s) => {
      if (pred(s)) {
        clearTimeout(timer);
        off();
        resolve(s);
      }
    });
  });
}

/**
 * On a manual clock: moves it `ms` on once the poller's next poll is armed (it publishes first and
 * probes for inverters after), and resolves with the state that poll published.
 */
export async function nextPoll(service: EnergyService, clock: ReturnType<typeof createManualClock>, ms: number, timeoutMs = 10_000): Promise<EnergyLiveState> {
  const before = service.state.get().lastUpdated;
  const end = Date.now() + timeoutMs;
  while (!service.poller.waiting) {
    if (Date.now() > end) throw new Error('the poller never armed its next poll');
    await new Promise((r) => setTimeout(r, 10));
  }
  clock.advance(ms);
  return waitForState(service, (s) => s.lastUpdated !== null && s.lastUpdated !== before, timeoutMs);
}
