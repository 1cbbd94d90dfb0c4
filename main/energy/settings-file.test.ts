import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { silentLogger } from '../core/logger.js';
import { createSettingsStore } from '../core/settings-store.js';
import { energySeedsFromEnv, energySettingsSchema } from './settings/energy-settings.js';

// testing/settings-before-core.json was written by the code before the core settings were split
// from the features (issue 41): every section set away from its default. The file's shape is the
// API's, so it must load as it is, nothing lost, nothing reseeded, and be written back the same
// (plus settings added since, at their defaults).
const fixture = path.join(import.meta.dirname, 'testing', 'settings-before-core.json');
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

describe('a settings file written before the core settings split', () => {
  it('loads unchanged on start and is written back in the same shape and order, with only new settings added', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'energy-settings-'));
    dirs.push(dir);
    const file = path.join(dir, 'settings.json');
    fs.copyFileSync(fixture, file);
    const before = fs.readFileSync(file, 'utf8');
    const store = createSettingsStore({ file, schema: energySettingsSchema, seed: () => energySeedsFromEnv({}), logger: silentLogger });

    expect(store.damaged).toBeNull();
    expect(fs.readdirSync(dir)).toEqual(['settings.json']);
    expect(fs.readFileSync(file, 'utf8')).toBe(before);
    const s = store.get();
    expect(s.general.timezone).toBe('Australia/Sydney');
    expect(s.general.currency).toBe('NZD');
    expect(s.polling.intervalMs).toBe(7000);
    expect(s.tariff.importRate).toBe(0.31);
    expect(s.alerts.map((a) => a.name)).toEqual(['Battery low']);
    expect(s.solar.ratedKwp).toBe(6.6);
    expect(s.homekit.bridgeName).toBe('Garage battery');

    // Written back: every section in its place and every value kept; the settings added since
    // join with their defaults: the minute tier's retention (issue 40), 400 days, and the price
    // source (issue 43), the fixed rates, as a core section after the tariff.
    store.replace(s);
    const old = JSON.parse(before) as Record<string, Record<string, unknown>>;
    const written = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    const keys = Object.keys(old);
    // Battery control's section (issue 44) is new too: it joins with its defaults, off.
    expect(Object.keys(written).filter((k) => k !== 'control')).toEqual([...keys.slice(0, keys.indexOf('tariff') + 1), 'prices', ...keys.slice(keys.indexOf('tariff') + 1)]);
    expect(written).toEqual({ ...old, history: { ...old.history, minuteRetentionDays: 400 }, prices: { source: 'fixed', amber: { token: '', siteId: '', baseUrl: 'https://api.amber.com.au/v1' }, octopus: { importProduct: '', importTariff: '', exportProduct: '', exportTariff: '', baseUrl: 'https://api.octopus.energy' } }, control: expect.objectContaining({ enabled: false, dryRun: true }) });
  });
});
