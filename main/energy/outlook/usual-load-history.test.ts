import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import { createOutbound } from '../../core/outbound.js';
import { DurableStore } from '../history/durable-store.js';
import { SAMPLE_FIELDS, type HistorySample } from '../history/sample.js';
import { emptyLiveState, LiveStateStore, type LiveState } from '../live-state.js';
import { energySettingsSchema } from '../settings/energy-settings.js';
import { startOfLocalDay } from '../tariff/local-time.js';
import type { FeatureContext } from '../feature.js';
import { createOutlookFeature } from './feature.js';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((d) => fs.rmSync(d, { recursive: true, force: true })));

describe("the battery outlook's usual load", () => {
  it('is learned from the stored polls in the background: the poll that asks is answered with the current load, later ones with the history', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'usual-load-'));
    dirs.push(dataDir);
    fs.mkdirSync(path.join(dataDir, 'energy'));
    const historyFile = path.join(dataDir, 'energy', 'history.db');
    // Three days of polls a minute apart: a steady 2 kW home.
    const today = startOfLocalDay('2026-06-04', 'UTC');
    const store = new DurableStore(historyFile);
    const rows: HistorySample[] = [];
    for (let t = today - 3 * 86_400_000; t < today; t += 60_000) {
      const s = { t } as HistorySample;
      for (const f of SAMPLE_FIELDS) s[f] = 0;
      rows.push({ ...s, home: 2000, grid: 2000 });
    }
    store.insertMany(rows);
    store.close();

    const now = today + 10 * 3_600_000;
    const clock = createManualClock(now);
    const settings = energySettingsSchema.parse({ general: { timezone: 'UTC' }, battery: { capacityKwh: 10, reserveSoc: 10 } });
    const state = new LiveStateStore(emptyLiveState({ host: '127.0.0.1', port: 502 }, 60_000));
    const ctx: FeatureContext<typeof settings> = { clock, logger: silentLogger, settings: () => settings, state, outbound: createOutbound({ transport: () => Promise.reject(new Error('offline')) }), dataDir, historyFile, gate: async () => {} };
    const outlook = createOutlookFeature(ctx);
    outlook.start?.();
    try {
      const base = emptyLiveState({ host: '127.0.0.1', port: 502 }, 60_000);
      const live: LiveState = { ...base, connected: true, lastUpdated: now, power: { ...base.power, home: 500, grid: 500, solar: 0, battery: 0 }, battery: { ...base.battery, soc: 50 } };
      state.set(live);
      const basis = () => {
        const snap = (outlook.snapshot?.({} as never) ?? {}) as { outlook?: { battery: { loadBasis: string; reserveAt: string | null } | null } };
        return snap.outlook!.battery!;
      };
      outlook.onPoll?.(live, now);
      // Nothing was read on that poll: it holds the current 0.5 kW.
      expect(basis().loadBasis).toBe('current');
      const deadline = Date.now() + 10_000;
      while (basis().loadBasis !== 'history' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
      // Learned: 2 kW drains the 4 kWh above the reserve in 2 h (at 0.5 kW it would take 8 h).
      expect(basis()).toMatchObject({ loadBasis: 'history', reserveAt: new Date(now + 2 * 3_600_000).toISOString() });
    } finally {
      outlook.stop?.();
    }
  });
});
