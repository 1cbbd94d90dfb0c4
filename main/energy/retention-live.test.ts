import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startEnergyHarness, waitForState } from './testing/harness.js';

let h: Awaited<ReturnType<typeof startEnergyHarness>> | undefined;
let tmp: string | undefined;
afterEach(async () => {
  await h?.stop();
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
  h = undefined;
});

describe('retention set through the settings API', () => {
  it('drops samples older than a shortened window at once, in memory and on disk', async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'legacy-'));
    const legacy = path.join(tmp, 'history.json');
    const now = Date.now();
    const day = 86_400_000;
    // Three days of hourly samples imported as legacy history at first start.
    const samples = Array.from({ length: 72 }, (_, i) => ({ t: now - 3 * day + i * 3_600_000, solar: 1000 + i, home: 500, grid: 0, battery: 500, soc: 50 }));
    fs.writeFileSync(legacy, JSON.stringify(samples));
    h = await startEnergyHarness({ env: { LEGACY_HISTORY_FILE: legacy } });
    await waitForState(h.service, (s) => s.connected);
    // The legacy import runs in the background after the port opens; wait for it to finish.
    let before = await (await fetch(`${h.service.url}/api/history/stats`)).json();
    for (let i = 0; i < 500 && before.legacyImport?.[0]?.status !== 'imported'; i++) {
      await new Promise((r) => setTimeout(r, 20));
      before = await (await fetch(`${h.service.url}/api/history/stats`)).json();
    }
    expect(before.count).toBeGreaterThanOrEqual(72);
    expect(before.firstT).toBe(samples[0]!.t);

    const res = await fetch(`${h.service.url}/api/settings`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ history: { retentionDays: 1 } }) });
    expect(res.status).toBe(200);
    const lastBefore = h.service.state.get().lastUpdated!;
    await waitForState(h.service, (s) => s.lastUpdated! > lastBefore);
    const after = await (await fetch(`${h.service.url}/api/history/stats`)).json();
    expect(after.firstT).toBeGreaterThanOrEqual(Date.now() - day - 5000);
    expect(after.count).toBeLessThan(before.count);
    const rows = (await (await fetch(`${h.service.url}/api/history?since=0`)).json()) as Array<{ t: number }>;
    expect(rows.every((r) => r.t >= after.firstT)).toBe(true);
    const csv = await (await fetch(`${h.service.url}/api/history/export?format=csv`)).text();
    // A poll may land between the two requests: the export holds the count seen before or after it.
    const later = await (await fetch(`${h.service.url}/api/history/stats`)).json();
    const exported = csv.trim().split('\n').length - 1;
    expect(exported).toBeGreaterThanOrEqual(after.count);
    expect(exported).toBeLessThanOrEqual(later.count);
  });
});
