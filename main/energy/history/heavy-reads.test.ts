/**
 * HEAVY TEST (about a minute; builds 604,800 samples): heavy history reads while polling a real
 * gateway simulator over TCP at 1 s. A 7-day `every=1` query, a 6.5-day custom range (as the
 * Trends page asks for it) and two back-to-back full exports (CSV, JSON) must not starve the poller: no poll
 * fails (the connection is never dropped) and the history has no gap over 2 s while they run.
 * The HTTP client runs in a child process, as a browser would, so only the server shares this
 * thread with the poller.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { silentLogger } from '../../core/logger.js';
import { createEnergyService, type EnergyService } from '../index.js';
import { startGatewaySimulator, type GatewaySimulator } from '../simulator/gateway-simulator.js';
import { readInChild } from '../testing/child-client.js';
import { waitForState } from '../testing/harness.js';
import { writeSecondSamples } from '../testing/history/second-samples.js';

const DAY = 86_400_000;
const ROWS = 7 * 86_400;

let sim: GatewaySimulator | undefined;
let service: EnergyService | undefined;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-heavy-'));
afterAll(async () => {
  await service?.stop();
  await sim?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('heavy history reads while polling at 1 s over real TCP', () => {
  it('never fail a poll and leave no gap over 2 s in the history', { timeout: 240_000 }, async () => {
    const now = Date.now();
    writeSecondSamples(dataDir, now - 60_000, ROWS);
    sim = await startGatewaySimulator({ firmware: 'V2.9' });
    service = createEnergyService(
      { dataDir, host: '127.0.0.1', port: 0, env: { GATEWAY_HOST: sim.host, GATEWAY_PORT: String(sim.port), POLL_INTERVAL_MS: '1000' } },
      { logger: silentLogger },
    );
    await service.start();
    const states: Array<{ connected: boolean; lastUpdated: number | null }> = [];
    service.state.subscribe((s) => states.push({ connected: s.connected, lastUpdated: s.lastUpdated }));
    await waitForState(service, (s) => s.connected && s.inverters.length > 0, 20_000);
    const loadStart = Date.now();

    const t = Date.now();
    const results = await readInChild(service.url, [
      '/api/history?every=1',
      `/api/history?since=${t - 6.5 * DAY}&until=${t}&every=${Math.round((6.5 * DAY) / 600 / 1000)}`,
      '/api/history/export?format=csv',
      '/api/history/export?format=json',
    ]);
    // Two more polls after the load, so a poll that failed at the very end would show.
    const loadEnd = Date.now();
    await waitForState(service, (s) => (s.lastUpdated ?? 0) > loadEnd + 1000, 10_000);

    for (const r of results) expect(r.status, r.path).toBe(200);
    // The exports hold all 604,800 rows (about 100 bytes each at least).
    for (const r of results.slice(2)) expect(r.bytes, r.path).toBeGreaterThan(ROWS * 50);

    expect(states.filter((s) => !s.connected)).toEqual([]);
    const rows = (await (await fetch(`${service.url}/api/history?since=${loadStart - 1000}`)).json()) as Array<{ t: number }>;
    expect(rows.length).toBeGreaterThan((loadEnd - loadStart) / 1000 - 2);
    const gaps = rows.slice(1).map((r, i) => r.t - rows[i]!.t);
    expect(Math.max(...gaps)).toBeLessThanOrEqual(2000);
  });
});
