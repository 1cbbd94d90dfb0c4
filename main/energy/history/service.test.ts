import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../../core/clock.js';
import { snapshotSchema } from '../published.js';
import { nextPoll as nextPollOf, startEnergyHarness } from '../testing/harness.js';

type Harness = Awaited<ReturnType<typeof startEnergyHarness>>;
let h: Harness | undefined;
afterEach(async () => {
  await h?.stop();
  h = undefined;
});

/** Moves the manual clock to the next poll and waits for that poll's reading to land. */
const nextPoll = (harness: Harness, clock: ReturnType<typeof createManualClock>, ms: number) => nextPollOf(harness.service, clock, ms);

describe('history through the running energy service', () => {
  it('appends one sample per poll and reports it in /api/history, /stats and the snapshot', async () => {
    const clock = createManualClock(Date.UTC(2026, 2, 1, 12));
    h = await startEnergyHarness({ deps: { clock } });
    const polls = [];
    polls.push(await nextPoll(h, clock, 0));
    for (let i = 0; i < 3; i++) polls.push(await nextPoll(h, clock, 1000));

    const rows = await (await fetch(`${h.service.url}/api/history`)).json();
    expect(rows.map((r: { t: number }) => r.t)).toEqual(polls.map((p) => p.lastUpdated));
    const last = rows.at(-1);
    const state = polls.at(-1)!;
    expect(last).toEqual({
      t: state.lastUpdated,
      solar: state.power.solar,
      solarNative: state.power.solarNative,
      solarThirdParty: state.power.solarThirdParty,
      home: state.power.home,
      homeGeneral: state.power.homeGeneral,
      smartPort: state.power.smartPort,
      grid: state.power.grid,
      battery: state.power.battery,
      soc: state.battery.soc,
      outdoorTemp: null,
    });

    const stats = await (await fetch(`${h.service.url}/api/history/stats`)).json();
    expect(stats).toEqual({ count: 4, firstT: polls[0]!.lastUpdated, lastT: state.lastUpdated });

    const snap = await (await fetch(`${h.service.url}/api/snapshot`)).json();
    expect(snapshotSchema.safeParse(snap).success).toBe(true);
    expect(snap.history).toEqual({ ...stats, links: { recent: '/api/history', export: '/api/history/export?format=json&every=60' } });
    const exported = await fetch(`${h.service.url}${snap.history.links.export}`);
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-disposition')).toMatch(/^attachment; filename="energy-history-\d{4}-\d{2}-\d{2}-every-60s\.json"$/);
    const buckets = await exported.json();
    expect(buckets.reduce((a: number, b: { n: number }) => a + b.n, 0)).toBe(4);

    const bad = await fetch(`${h.service.url}/api/history?limit=0`);
    expect(bad.status).toBe(400);
    expect((await bad.json()).error).toMatchObject({ code: 'invalid', field: 'limit' });
  });

  it('keeps the durable copy across a restart and serves it again', async () => {
    const clock = createManualClock(Date.UTC(2026, 2, 1, 12));
    h = await startEnergyHarness({ deps: { clock } });
    await nextPoll(h, clock, 0);
    await nextPoll(h, clock, 1000);
    const before = await (await fetch(`${h.service.url}/api/history`)).json();
    await h.service.stop();
    expect(fs.existsSync(path.join(h.dataDir, 'energy', 'history.db'))).toBe(true);
    await h.service.start();
    const after = await (await fetch(`${h.service.url}/api/history`)).json();
    expect(after).toEqual(before);
  });

  it('imports the legacy file named by LEGACY_HISTORY_FILE at first start', async () => {
    const clock = createManualClock(Date.UTC(2026, 2, 1, 12));
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-legacy-env-'));
    const legacy = path.join(dir, 'history.json');
    const t = Date.UTC(2026, 2, 1, 11);
    fs.writeFileSync(legacy, JSON.stringify([{ time: new Date(t).toISOString(), solar: 1500, grid: -200, soc: 55 }]));
    try {
      h = await startEnergyHarness({ deps: { clock }, env: { LEGACY_HISTORY_FILE: legacy } });
      // The import runs after the port opens, in the background; stats show its progress.
      let stats = await (await fetch(`${h.service.url}/api/history/stats`)).json();
      expect(['running', 'imported']).toContain(stats.legacyImport?.[0]?.status);
      const deadline = Date.now() + 10_000;
      while (stats.legacyImport[0].status === 'running' && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 20));
        stats = await (await fetch(`${h.service.url}/api/history/stats`)).json();
      }
      expect(stats).toMatchObject({ count: 1, firstT: t, lastT: t, legacyImport: [{ file: legacy, status: 'imported', imported: 1 }] });
      expect(fs.existsSync(`${legacy}.imported`)).toBe(true);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
