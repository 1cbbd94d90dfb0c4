import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeSample, openTestHistory, T0, type TestHistory } from '../testing/history/fixtures.js';
import { SAMPLE_FIELDS } from './sample.js';

let th: TestHistory | undefined;
const dirs: string[] = [];
afterEach(async () => {
  await th?.close();
  th = undefined;
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

function legacyDir(content: string): { dataDir: string; file: string } {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-legacy-'));
  dirs.push(dataDir);
  const file = path.join(dataDir, 'energy', 'history.json');
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, content);
  return { dataDir, file };
}

describe('legacy history import', () => {
  it('imports every documented shape once, then renames the file with .imported', async () => {
    const a = makeSample(T0 + 1000);
    const b = makeSample(T0 + 2000);
    const c = makeSample(T0 + 3000);
    const entries = [
      a,
      { ...Object.fromEntries(SAMPLE_FIELDS.map((f) => [f, b[f]])), time: new Date(b.t).toISOString(), extra: 'ignored' },
      { ...Object.fromEntries(SAMPLE_FIELDS.map((f) => [f, c[f]])), timestamp: c.t },
      { t: T0 + 4000, solar: 1200 },
    ];
    const { dataDir, file } = legacyDir(JSON.stringify(entries));
    th = await openTestHistory({ dataDir, start: T0 + 5000 });

    expect(fs.existsSync(file)).toBe(false);
    expect(fs.readFileSync(`${file}.imported`, 'utf8')).toBe(JSON.stringify(entries));
    const rows = (await th.get('/api/history')).body;
    expect(rows).toEqual([a, b, c, { t: T0 + 4000, ...Object.fromEntries(SAMPLE_FIELDS.map((f) => [f, null])), solar: 1200 }]);
    const stats = (await th.get('/api/history/stats')).body;
    expect(stats).toEqual({ count: 4, firstT: a.t, lastT: T0 + 4000, legacyImport: [{ file, status: 'imported', imported: 4, skipped: 0 }] });

    // A second start finds nothing to import and keeps the rows.
    await th.restart();
    expect((await th.get('/api/history/stats')).body).toEqual({ count: 4, firstT: a.t, lastT: T0 + 4000 });
  });

  it('imports the file named by LEGACY_HISTORY_FILE and leaves out samples older than retention', async () => {
    const { dataDir } = legacyDir('[]');
    fs.rmSync(path.join(dataDir, 'energy', 'history.json'));
    const other = path.join(dataDir, 'old-app-history.json');
    const day = 86_400_000;
    fs.writeFileSync(other, JSON.stringify([makeSample(T0 - 10 * day), makeSample(T0 - day)]));
    th = await openTestHistory({ dataDir, legacyFiles: [path.join(dataDir, 'energy', 'history.json'), other] });
    expect(th.history.stats()).toEqual({ count: 1, firstT: T0 - day, lastT: T0 - day });
    expect(th.history.legacyImports()).toEqual([{ file: other, status: 'imported', imported: 1, skipped: 1 }]);
    expect(fs.existsSync(`${other}.imported`)).toBe(true);
  });

  it('understands sigen-home-bridge’s own history file (its field names, its signs: import and charging positive)', async () => {
    const { dataDir } = legacyDir('[]');
    fs.rmSync(path.join(dataDir, 'energy', 'history.json'));
    const theirs = path.join(dataDir, 'history.json.imported');
    // Two rows as that program writes them (facts.json of the real folder): charging from solar; exporting.
    const rows = [
      { t: T0 + 1000, pvPower: 693, gridPower: 0, batteryPower: 306, batterySoc: 30, loadPower: 387, outdoorTemp: 10.7 },
      { t: T0 + 2000, pvPower: 5121, gridPower: -1234, batteryPower: 1787, batterySoc: 56.7, loadPower: 2100, outdoorTemp: null },
    ];
    fs.writeFileSync(theirs, JSON.stringify(rows));
    th = await openTestHistory({ dataDir, legacyFiles: [theirs], start: T0 + 3000 });
    const none = Object.fromEntries(SAMPLE_FIELDS.map((f) => [f, null]));
    expect((await th.get('/api/history')).body).toEqual(rows.map((r) => ({ ...none, t: r.t, solar: r.pvPower, grid: r.gridPower, battery: r.batteryPower, soc: r.batterySoc, home: r.loadPower, outdoorTemp: r.outdoorTemp })));
    expect(th.history.legacyImports()).toEqual([{ file: theirs, status: 'imported', imported: 2, skipped: 0 }]);
  });

  it('a file whose rows carry no power value is not reported imported', async () => {
    const rows = [{ t: T0 + 1000, outdoorTemp: 12 }, { t: T0 + 2000, soc: 40 }];
    const { dataDir, file } = legacyDir(JSON.stringify(rows));
    th = await openTestHistory({ dataDir, start: T0 + 3000 });
    const stats = (await th.get('/api/history/stats')).body;
    expect(stats).toMatchObject({ count: 0, legacyImport: [{ file, status: 'failed' }] });
    expect(stats.legacyImport[0].error).toMatch(/none of its 2 rows carries a power value/);
    expect(fs.existsSync(file)).toBe(true);
  });

  it('a history.json that is a FIFO is reported and never read: the start does not wait on it', async () => {
    const { dataDir, file } = legacyDir('');
    fs.rmSync(file);
    execFileSync('mkfifo', [file]);
    th = await openTestHistory({ dataDir, start: T0 + 10_000 });
    const stats = (await th.get('/api/history/stats')).body;
    expect(stats).toMatchObject({ count: 0, legacyImport: [{ file, status: 'failed' }] });
    expect(stats.legacyImport[0].error).toBe('history.json is a FIFO (named pipe), not a regular file: not read');
  });

  for (const [what, content, error] of [
    ['not JSON', '{"t": 1,', /not valid JSON/],
    ['not an array', '{"samples": []}', /expected a JSON array/],
    ['an entry without a time', JSON.stringify([makeSample(T0 + 1000), { solar: 5 }]), /entry 1: missing or unparseable time/],
    ['a bad ISO time', JSON.stringify([{ time: '2026-02-30T25:00:00Z' }]), /entry 0/],
    ['a field that is not a number', JSON.stringify([makeSample(T0 + 1000), makeSample(T0 + 2000), { t: T0 + 3000, grid: '12' }]), /entry 2: grid must be a number or null/],
    // Read a chunk at a time, every entry is bounded: a hostile file cannot make the import buffer it.
    ['an entry over 64 KiB', JSON.stringify([makeSample(T0 + 1000), { t: T0 + 2000, note: 'x'.repeat(70_000) }]), /entry 1 is larger than 65536 bytes/],
    ['an entry that is not JSON', `[${JSON.stringify(makeSample(T0 + 1000))},{"t":1,x}]`, /entry 1: not valid JSON/],
    ['a file cut short', JSON.stringify([makeSample(T0 + 1000), makeSample(T0 + 2000)]).slice(0, -20), /not valid JSON \(the file ends inside entry 1\)/],
  ] as const) {
    it(`reports ${what}, imports nothing and leaves the file in place`, async () => {
      const { dataDir, file } = legacyDir(content);
      th = await openTestHistory({ dataDir, start: T0 + 10_000 });
      expect(fs.readFileSync(file, 'utf8')).toBe(content);
      expect(fs.existsSync(`${file}.imported`)).toBe(false);
      const stats = (await th.get('/api/history/stats')).body;
      expect(stats).toMatchObject({ count: 0, firstT: null, lastT: null, legacyImport: [{ file, status: 'failed' }] });
      expect(stats.legacyImport[0].error).toMatch(error);
    });
  }
});
