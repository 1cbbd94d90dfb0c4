import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import { createPasscodeStore } from '../security/passcode-store.js';
import type { EnergySettings } from '../settings/energy-settings.js';
import { silentLogger } from '../../core/logger.js';
import { runSigenImportCli } from './cli.js';
import { hashTree, SIGEN_FIXTURE, sigenFacts, sigenFolderCopy } from './testing/sigen-fixture.js';

/**
 * The importer against a copy of a data folder written by the real sigen-home-bridge, through the
 * CLI entry (the same code the API route and the wizard run). Expected values come from the
 * fixture's facts.json and from the source files themselves, never from the importer's constants.
 */
const facts = sigenFacts;
const DAY = 86_400_000;
/** The service's "now": an hour after the last row the program wrote. */
const NOW = facts.history.max_t + 3_600_000;
const dirs: string[] = [];
const fixtureBefore = hashTree(SIGEN_FIXTURE);

afterAll(() => {
  // The vendored fixture itself is never written either.
  expect(hashTree(SIGEN_FIXTURE)).toEqual(fixtureBefore);
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

const tmp = (prefix: string) => {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(d);
  return d;
};
const source = (opts?: Parameters<typeof sigenFolderCopy>[0]) => {
  const d = sigenFolderCopy(opts);
  dirs.push(d);
  return d;
};

async function cli(args: string[], now = NOW): Promise<{ code: number; out: string; err: string }> {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runSigenImportCli(args, { out: (l) => out.push(l), err: (l) => err.push(l), env: {}, now: () => now, logger: silentLogger });
  return { code, out: out.join('\n'), err: err.join('\n') };
}

type Row = Record<string, number | null>;
/** Every row of a SQLite file's samples table, read from a temporary copy. */
function rowsOf(file: string, sql: string): Row[] {
  const copy = path.join(tmp('rows-'), 'copy.db');
  fs.copyFileSync(file, copy);
  if (fs.existsSync(`${file}-wal`)) fs.copyFileSync(`${file}-wal`, `${copy}-wal`);
  const db = new Database(copy, { readonly: true });
  try {
    return db.prepare(sql).all() as Row[];
  } finally {
    db.close();
  }
}
const OURS = 'SELECT t, solar, grid, battery, soc, home, outdoorTemp, solarNative, solarThirdParty, homeGeneral, smartPort FROM samples ORDER BY t';
const THEIRS = 'SELECT t, pvPower, gridPower, batteryPower, batterySoc, loadPower, outdoorTemp FROM samples ORDER BY t';
/** Their row as ours should read: their signs and units are ours (grid + import, battery + charging, W, %). */
const asOurs = (r: Row): Row => ({ t: r.t!, solar: r.pvPower ?? null, grid: r.gridPower ?? null, battery: r.batteryPower ?? null, soc: r.batterySoc ?? null, home: r.loadPower ?? null, outdoorTemp: r.outdoorTemp ?? null, solarNative: null, solarThirdParty: null, homeGeneral: null, smartPort: null });
const ourDb = (dataDir: string) => path.join(dataDir, 'energy', 'history.db');
const ourSettings = (dataDir: string) => JSON.parse(fs.readFileSync(path.join(dataDir, 'energy', 'settings.json'), 'utf8')) as EnergySettings;

type Window = { start: string; end: string; rate: number };
type SigenAlertItem = { id: string; name: string; enabled: boolean; trigger: { type: string; threshold?: number; afterMinutes?: number }; channels: { homekit: { enabled: boolean }; webhook: { enabled: boolean; url: string } } };
/** The parts of its settings.json these tests compare with. */
interface TheirSettings {
  sigen: { host: string; port: number };
  poll: { defaultIntervalMs: number; reconnectDelayMs: number };
  weather: { enabled: boolean; latitude: number; longitude: number; units: string; refreshMs: number };
  battery: { capacityKwh: number; reserveSoc: number };
  history: { retentionDays: number };
  tariff: {
    currency: string;
    importRate: number;
    exportRate: number;
    supplyChargePerDay: number;
    importWindows: Window[];
    superExportCredit: { enabled: boolean; start: string; end: string; capKwh: number; rate: number };
    zeroDrawCredit: { enabled: boolean; start: string; end: string; perDay: number };
  };
  alerts: { items: SigenAlertItem[] };
  homekit: { bind: string };
  google: { authToken: string };
}

describe('the fixture', () => {
  it('is the folder the real program wrote: its legacy file hashes as facts.json recorded', () => {
    const dir = source();
    expect(hashTree(dir)['history.json.imported']).toBe(facts.legacy_history.sha256);
  });
});

describe('import from a sigen-home-bridge data folder', () => {
  const src = source();
  const dataDir = tmp('energy-data-');
  const srcBefore = hashTree(src);
  let first: Awaited<ReturnType<typeof cli>>;

  it('brings every history row with its values, signs and units', async () => {
    first = await cli(['--from', 'sigen-home-bridge', src, '--data-dir', dataDir]);
    expect(first.err).toBe('');
    expect(first.code).toBe(0);

    const theirs = rowsOf(path.join(src, 'history.db'), THEIRS);
    expect(theirs).toHaveLength(facts.history.rows);
    const ours = rowsOf(ourDb(dataDir), OURS);
    // history.db holds the legacy rows too: the union over both files is the database's rows.
    expect(ours).toHaveLength(facts.history.rows);
    expect(ours[0]!.t).toBe(facts.history.min_t);
    expect(ours.at(-1)!.t).toBe(facts.history.max_t);
    expect(ours).toEqual(theirs.map(asOurs));

    // Spot checks straight from facts.json: an export (grid < 0) while charging (battery > 0) stays so.
    const byT = new Map(ours.map((r) => [r.t, r]));
    for (const s of [...facts.history.sample_rows, ...facts.legacy_history.sample_legacy_rows]) expect(byT.get(s.t)).toEqual(asOurs(s));
    const exporting = facts.history.sample_rows.find((s) => s.gridPower! < 0)!;
    expect(byT.get(exporting.t)).toMatchObject({ grid: exporting.gridPower, battery: exporting.batteryPower });
    expect(exporting.gridPower).toBeLessThan(0);

    // Every row of its legacy JSON is here with its values.
    const legacy = JSON.parse(fs.readFileSync(path.join(src, 'history.json.imported'), 'utf8')) as Row[];
    expect(legacy).toHaveLength(facts.legacy_history.rows);
    for (const r of legacy) expect(byT.get(r.t!)).toEqual(asOurs(r));
    expect(legacy.filter((r) => r.outdoorTemp === null)).toHaveLength(facts.legacy_history.outdoorTemp_null_rows);
  });

  it('carries every setting with an equal, as the program stored it', () => {
    const theirs = facts.settings_json_stored as unknown as TheirSettings;
    const s = ourSettings(dataDir);
    expect(s.gateway).toMatchObject({ host: theirs.sigen.host, port: theirs.sigen.port });
    expect(s.polling).toEqual({ intervalMs: theirs.poll.defaultIntervalMs, retryDelayMs: theirs.poll.reconnectDelayMs });
    expect(s.weather).toMatchObject({ enabled: theirs.weather.enabled, latitude: theirs.weather.latitude, longitude: theirs.weather.longitude, refreshMinutes: theirs.weather.refreshMs / 60_000 });
    expect(s.general).toMatchObject({ temperatureUnit: theirs.weather.units, currency: theirs.tariff.currency });
    expect(s.battery).toEqual({ capacityKwh: theirs.battery.capacityKwh, reserveSoc: theirs.battery.reserveSoc });
    expect(s.history).toEqual({ retentionDays: theirs.history.retentionDays, minuteRetentionDays: 400 });
    expect(s.tariff).toMatchObject({ importRate: theirs.tariff.importRate, feedInRate: theirs.tariff.exportRate, dailySupplyCharge: theirs.tariff.supplyChargePerDay });
    const [win] = theirs.tariff.importWindows as [Window];
    expect(s.tariff.windows).toEqual([{ name: expect.any(String), start: win.start, end: win.end, days: ['mon', 'tue', 'wed', 'thu', 'fri', 'sat', 'sun'], importRate: win.rate, feedInRate: null }]);
    const se = theirs.tariff.superExportCredit;
    expect(s.tariff.superExport).toEqual({ enabled: se.enabled, rate: se.rate, start: se.start, end: se.end, capKwh: se.capKwh });
    const zd = theirs.tariff.zeroDrawCredit;
    expect(s.tariff.zeroDraw).toMatchObject({ enabled: zd.enabled, credit: zd.perDay, start: zd.start, end: zd.end });

    const [offline, load] = theirs.alerts.items as [SigenAlertItem, SigenAlertItem];
    expect(s.alerts).toEqual([
      {
        id: offline.id,
        name: offline.name,
        enabled: offline.enabled,
        trigger: 'gatewayOffline',
        condition: 'atOrAbove',
        threshold: 1,
        unit: null,
        settleSeconds: offline.trigger.afterMinutes! * 60,
        clearSeconds: 30,
        webhookUrl: offline.channels.webhook.url,
        homekit: offline.channels.homekit.enabled,
      },
      {
        id: load.id,
        name: load.name,
        enabled: load.enabled,
        trigger: 'homeLoad',
        condition: 'atOrAbove',
        threshold: load.trigger.threshold,
        unit: 'W',
        settleSeconds: 120,
        clearSeconds: 120,
        webhookUrl: load.channels.webhook.url,
        homekit: load.channels.homekit.enabled,
      },
    ]);
    expect(s.homekit).toEqual({ enabled: true, pin: facts.homekit.pin, bridgeName: facts.homekit.bridge_name, port: facts.homekit.port, bind: [theirs.homekit.bind] });
    expect(s.smartHome).toEqual({ enabled: true, authToken: theirs.google.authToken });
    // Its web port is not taken over: this bridge stays where the user opened it.
    expect(s.general.serverPort).toBe(5163);
  });

  it('lists what cannot be carried, and why', () => {
    for (const what of ['poll.schedule', 'alerts.items[2] "Hot outside"', 'homekit.labels', 'appearance', 'server.port', 'tariff.costMode', 'notify.cleared']) expect(first.out).toContain(what);
    expect(first.out).toMatch(/alerts\.items\[2\] "Hot outside": its "outdoorTempAbove" trigger watches the outdoor temperature/);
  });

  it('keeps its passcode: 1357 unlocks, another code does not', async () => {
    const store = createPasscodeStore({ file: path.join(dataDir, 'energy', 'security.json'), logger: silentLogger });
    expect(store.isSet).toBe(true);
    expect(await store.verify(facts.passcode.value)).toBe(true);
    expect(await store.verify('1358')).toBe(false);
  });

  it('carries the paired HomeKit identity: the bridge id, setup id, keys and paired controller', () => {
    const identity = JSON.parse(fs.readFileSync(path.join(dataDir, 'energy', 'homekit', 'identity.json'), 'utf8'));
    expect(identity.username).toBe(facts.homekit.bridge_username);
    const id = facts.homekit.bridge_username.replace(/:/g, '');
    const theirs = JSON.parse(fs.readFileSync(path.join(src, 'hap-persist', `AccessoryInfo.${id}.json`), 'utf8'));
    const ours = JSON.parse(fs.readFileSync(path.join(dataDir, 'energy', 'homekit', 'persist', `AccessoryInfo.${id}.json`), 'utf8'));
    expect(ours).toEqual(theirs);
    expect(identity.setupId).toBe(theirs.setupID);
    // The identity left from its earlier PIN (nobody paired) is not carried.
    expect(fs.readdirSync(path.join(dataDir, 'energy', 'homekit', 'persist'))).toEqual([`AccessoryInfo.${id}.json`]);
  });

  it('never changes the folder it reads (every file hashes the same, no file added)', () => {
    expect(hashTree(src)).toEqual(srcBefore);
  });

  it('importing twice equals importing once', async () => {
    const snapshot = () => ({
      rows: rowsOf(ourDb(dataDir), OURS),
      files: Object.fromEntries(Object.entries(hashTree(path.join(dataDir, 'energy'))).filter(([f]) => !/history\.db|\.tmp$/.test(f))),
    });
    const once = snapshot();
    const again = await cli(['--from', 'sigen-home-bridge', src, '--data-dir', dataDir]);
    expect(again.code).toBe(0);
    expect(again.out).toContain('0 history rows added');
    expect(snapshot()).toEqual(once);
    expect(hashTree(src)).toEqual(srcBefore);
  });
});

describe('other shapes of its folder', () => {
  it('a folder where it never imported its legacy file: history.json alone', async () => {
    const src = source({ legacyAs: ['history.json'], without: ['history.db', 'history.json.imported', 'settings.json', 'hap-persist'] });
    const dataDir = tmp('energy-data-');
    // Retention here is this bridge's default (7 days): a "now" inside it for every legacy row.
    const { code, out } = await cli([src, '--data-dir', dataDir], facts.legacy_history.last_t + DAY);
    expect(code).toBe(0);
    expect(out).toContain(`${facts.legacy_history.rows} rows added`);
    const legacy = JSON.parse(fs.readFileSync(path.join(src, 'history.json'), 'utf8')) as Row[];
    expect(rowsOf(ourDb(dataDir), OURS)).toEqual(legacy.map(asOurs));
  });

  it('legacy-history.json.original as an explicit file', async () => {
    const src = source({ legacyAs: ['legacy-history.json.original'], without: ['history.db', 'history.json.imported'] });
    const dataDir = tmp('energy-data-');
    const { code } = await cli([src, '--data-dir', dataDir, '--history-file', path.join(src, 'legacy-history.json.original')]);
    expect(code).toBe(0);
    const ours = rowsOf(ourDb(dataDir), OURS);
    expect(ours).toHaveLength(facts.legacy_history.rows);
    expect(ours[0]!.t).toBe(facts.legacy_history.first_t);
    expect(ours.at(-1)!.t).toBe(facts.legacy_history.last_t);
  });

  it('rows older than the retention stay behind and are counted', async () => {
    const src = source({ without: ['history.json.imported'] });
    const dataDir = tmp('energy-data-');
    // 30 days of retention (its setting) measured from 31 days after the first row.
    const now = facts.history.min_t + 31 * DAY;
    const { code, out } = await cli([src, '--data-dir', dataDir], now);
    expect(code).toBe(0);
    const theirs = rowsOf(path.join(src, 'history.db'), THEIRS);
    const kept = theirs.filter((r) => r.t! >= now - 30 * DAY);
    expect(rowsOf(ourDb(dataDir), OURS)).toEqual(kept.map(asOurs));
    expect(out).toContain(`${kept.length} rows added, ${theirs.length - kept.length} already here or older than retention`);
  });

  it('a folder of a program still running: rows still in history.db-wal come too, and the folder is left as it was', async () => {
    const src = source({ without: ['history.json.imported'] });
    // Its live state: the database with the newest row still in its write-ahead log.
    const live = path.join(tmp('sigen-live-'), 'history.db');
    fs.copyFileSync(path.join(src, 'history.db'), live);
    const db = new Database(live);
    db.pragma('journal_mode = WAL');
    db.pragma('wal_autocheckpoint = 0');
    const extra = { t: facts.history.max_t + 1000, pvPower: 4321, gridPower: -100, batteryPower: 2000, batterySoc: 60.5, loadPower: 2221, outdoorTemp: null };
    db.prepare('INSERT INTO samples (t, pvPower, gridPower, batteryPower, batterySoc, loadPower, outdoorTemp) VALUES (@t, @pvPower, @gridPower, @batteryPower, @batterySoc, @loadPower, @outdoorTemp)').run(extra);
    fs.copyFileSync(live, path.join(src, 'history.db'));
    fs.copyFileSync(`${live}-wal`, path.join(src, 'history.db-wal'));
    db.close();
    const before = hashTree(src);
    const dataDir = tmp('energy-data-');
    expect((await cli([src, '--data-dir', dataDir])).code).toBe(0);
    const ours = rowsOf(ourDb(dataDir), OURS);
    expect(ours).toHaveLength(facts.history.rows + 1);
    expect(ours.at(-1)).toEqual(asOurs(extra));
    expect(hashTree(src)).toEqual(before);
  });

  it('a dry run shows the preview and writes nothing', async () => {
    const src = source();
    const dataDir = tmp('energy-data-');
    const { code, out } = await cli([src, '--data-dir', dataDir, '--dry-run']);
    expect(code).toBe(0);
    expect(out).toContain(`history.db: ${facts.history.rows} rows`);
    expect(out).toContain('its passcode unlocks this bridge too');
    expect(out).toContain(`bridge ${facts.homekit.bridge_username} with 1 paired Home app(s)`);
    expect(fs.readdirSync(dataDir)).toEqual([]);
  });
});

describe('refusals and damage', () => {
  it('refuses a folder that is not a sigen-home-bridge folder, and a relative or missing path', async () => {
    const empty = tmp('not-sigen-');
    fs.writeFileSync(path.join(empty, 'notes.json'), '[]');
    const r = await cli([empty, '--data-dir', tmp('energy-data-')]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`${empty} is not a sigen-home-bridge data folder`);

    // This bridge's own data folder is not one either.
    const ours = tmp('energy-data-');
    await cli([source(), '--data-dir', ours]);
    const own = await cli([path.join(ours, 'energy'), '--data-dir', tmp('energy-data-')]);
    expect(own.code).toBe(2);
    expect(own.err).toContain('is not a sigen-home-bridge data folder');

    const missing = await cli([path.join(empty, 'nope'), '--data-dir', tmp('energy-data-')]);
    expect(missing).toMatchObject({ code: 2 });
    expect(missing.err).toContain('no folder at');
    const file = await cli([path.join(empty, 'notes.json'), '--data-dir', tmp('energy-data-')]);
    expect(file.err).toContain('is a file, not a folder');
    const wrongFrom = await cli(['--from', 'fetcharr', empty]);
    expect(wrongFrom.code).toBe(2);
  });

  it('a damaged history.db: imports every row that can be read and reports the rest', async () => {
    const src = source({ without: ['history.json.imported'] });
    const dbFile = path.join(src, 'history.db');
    const theirs = rowsOf(dbFile, THEIRS);
    const bytes = fs.readFileSync(dbFile);
    bytes.fill(0x55, 300_000, 300_000 + 3 * 4096); // three pages in the middle overwritten
    fs.writeFileSync(dbFile, bytes);
    const before = hashTree(src);
    const dataDir = tmp('energy-data-');
    const { code, out, err } = await cli([src, '--data-dir', dataDir]);
    expect(code).toBe(3);
    expect(out).toMatch(/history history\.db: partial, \d+ rows added/);
    expect(out + err).toMatch(/malformed/);
    const ours = rowsOf(ourDb(dataDir), OURS);
    expect(ours.length).toBeGreaterThan(theirs.length / 2);
    expect(ours.length).toBeLessThan(theirs.length);
    // What came in is exact; both ends of the file made it.
    const byT = new Map(theirs.map((r) => [r.t, r]));
    for (const r of ours) expect(r).toEqual(asOurs(byT.get(r.t)!));
    expect(ours[0]!.t).toBe(facts.history.min_t);
    expect(ours.at(-1)!.t).toBe(facts.history.max_t);
    expect(hashTree(src)).toEqual(before);
  });

  it('a truncated history.json: imports the whole rows before the cut and reports the rest', async () => {
    const src = source({ without: ['history.db', 'history.json.imported', 'settings.json', 'hap-persist'] });
    const full = fs.readFileSync(path.join(sigenFolderCopy(), 'history.json.imported'), 'utf8');
    const cut = full.slice(0, Math.floor(full.length / 2));
    fs.writeFileSync(path.join(src, 'history.json'), cut);
    // The whole rows before the cut: the text up to the last closing brace, closed as an array.
    const whole = JSON.parse(`${cut.slice(0, cut.lastIndexOf('}') + 1)}]`) as Row[];
    expect(whole.length).toBeGreaterThan(facts.legacy_history.rows / 3);
    const dataDir = tmp('energy-data-');
    const { code, out } = await cli([src, '--data-dir', dataDir], facts.legacy_history.last_t + DAY);
    expect(code).toBe(3);
    expect(out).toMatch(/history\.json: partial/);
    expect(out).toContain('1 unreadable');
    expect(rowsOf(ourDb(dataDir), OURS)).toEqual(whole.map(asOurs));
  });

  it('rows without a single power value are never reported imported', async () => {
    const src = tmp('sigen-nopower-');
    const rows = [1, 2, 3].map((i) => ({ t: facts.history.min_t + i * 1000, pvPower: null, gridPower: null, batteryPower: null, batterySoc: 50, loadPower: null, outdoorTemp: 10 }));
    fs.writeFileSync(path.join(src, 'history.json'), JSON.stringify(rows));
    const dataDir = tmp('energy-data-');
    const { code, out, err } = await cli([src, '--data-dir', dataDir]);
    expect(code).toBe(1);
    expect(out).not.toMatch(/Imported/);
    expect(err).toContain('none of its 3 rows carries a power value');
    expect(rowsOf(ourDb(dataDir), OURS)).toEqual([]);
  });
});
