import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { silentLogger } from './core/logger.js';
import { ApiClient, startHarness, tempDir, type Harness } from './recordings/testing/harness.js';
import { createEnergyService, type EnergyService } from './energy/index.js';
import { settingsJsonSchema } from './energy/settings/routes.js';
import { settingDefs } from './recordings/settings.js';

/**
 * Every settings hint both services publish is read by a householder: no field names (snake_case
 * or camelCase keys), no API words (array, GET, PATCH, HTTP, status codes), no gateway registers and
 * no remarks about tests. Brand names and units that are spelled with capitals inside are allowed.
 */
const API_WORDS = /\b[a-z]+_[a-z]+\b|[a-z][A-Z]|array|GET |PATCH|HTTP|\b[45]0\d\b|register|test/;
const ALLOWED = /\b(HomeKit|k?Wh?|kWp)\b/g;

function descriptionsOf(node: unknown, at: string, out: Array<[string, string]>): Array<[string, string]> {
  if (Array.isArray(node)) node.forEach((n, i) => descriptionsOf(n, `${at}[${i}]`, out));
  else if (typeof node === 'object' && node !== null) {
    for (const [k, v] of Object.entries(node)) {
      if (k === 'description' && typeof v === 'string') out.push([at, v]);
      else descriptionsOf(v, at ? `${at}.${k}` : k, out);
    }
  }
  return out;
}

const apiWordIn = (text: string) => API_WORDS.exec(text.replace(ALLOWED, ''))?.[0] ?? null;

describe('settings hints in plain words', () => {
  it('the energy JSON Schema the settings page renders from has no API words in any hint', () => {
    const hints = descriptionsOf(settingsJsonSchema(), '', []);
    // Every section has hints: the walk reaches them all (a schema without hints would pass vacuously).
    expect(hints.length).toBeGreaterThan(50);
    const offending = hints.filter(([, text]) => apiWordIn(text) !== null).map(([at, text]) => `${at}: "${apiWordIn(text)}" in ${text}`);
    expect(offending).toEqual([]);
  });

  it('every recording setting has a label and a hint, with no API words in either', () => {
    const defs = Object.entries(settingDefs);
    expect(defs.length).toBeGreaterThan(15);
    for (const [key, def] of defs) {
      expect(def.label, key).toMatch(/^[A-Z]/);
      expect(def.description.length, key).toBeGreaterThan(20);
      expect(apiWordIn(def.description), `${key}: ${def.description}`).toBeNull();
      expect(apiWordIn(def.label), `${key}: ${def.label}`).toBeNull();
    }
  });

  it('the check itself catches the wording the hints used to have', () => {
    for (const old of [
      'Alert rules; the array is replaced whole on update.',
      'How long the condition must hold before the alert fires (and, unless clearSeconds is set, clears).',
      'Bearer token /fulfillment expects; write-only (GET shows tokenSet).',
      'Forecast API base URL (tests and the demo point it at a local fake).',
      'Most dashboards connected to the live event stream at once; more get 503.',
      'Installed capacity; blank falls back to the rated-capacity register.',
    ]) expect(apiWordIn(old), old).not.toBeNull();
  });
});

describe('refusals name the setting in words, and keep the field for the pages', () => {
  let energy: EnergyService;
  let rec: Harness;
  const dirs: string[] = [];

  beforeAll(async () => {
    const dataDir = tempDir('settings-words-');
    dirs.push(dataDir);
    energy = createEnergyService({ dataDir, host: '127.0.0.1', port: 0, env: { GATEWAY_HOST: '127.0.0.5', GATEWAY_PORT: '9' } }, { logger: silentLogger });
    await energy.start();
    rec = await startHarness({ box: { shows: [] } });
    await rec.service.start();
    rec.api = new ApiClient(rec.service.url);
  }, 60_000);
  afterAll(async () => {
    await energy?.stop();
    await rec?.cleanup();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  const put = async (body: unknown) => {
    const res = await energy.app.inject({ method: 'PUT', url: '/api/settings', payload: body as object });
    return { status: res.statusCode, error: (res.json() as { error: { code: string; message: string; field?: string } }).error };
  };

  it('energy: a poll interval under a second is "Poll interval: …" with the field path', async () => {
    const { status, error } = await put({ polling: { intervalMs: 10 } });
    expect(status).toBe(400);
    expect(error.code).toBe('invalid');
    expect(error.field).toBe('polling.intervalMs');
    expect(error.message).toMatch(/^Poll interval: /);
    expect(error.message).not.toMatch(/intervalMs/);
  });

  it('energy: a field inside an alert rule and inside a tariff period are named in words', async () => {
    const alert = await put({ alerts: [{ id: 'a', trigger: 'batterySoc', threshold: 150 }] });
    expect(alert.error).toMatchObject({ code: 'invalid', field: 'alerts.0.threshold' });
    expect(alert.error.message).toMatch(/^Level: must be 0 to 100/);
    const period = await put({ tariff: { windows: [{ start: '25:00' }] } });
    expect(period.error).toMatchObject({ code: 'invalid', field: 'tariff.windows.0.start' });
    expect(period.error.message).toMatch(/^Start: /);
  });

  it('recordings: GET /api/settings/schema gives the pages every setting with its label and plain hint', async () => {
    const res = await rec.api.get('/api/settings/schema');
    expect(res.status).toBe(200);
    const fields = res.body.fields as Record<string, { label: string; description: string; applies: string; secret: boolean }>;
    expect(Object.keys(fields)).toEqual(Object.keys((await rec.api.get('/api/settings')).body.settings));
    expect(fields.sync_cron).toMatchObject({ label: 'Sync schedule', applies: 'live', secret: false });
    expect(fields.cloud_pin).toMatchObject({ secret: true });
    for (const [key, f] of Object.entries(fields)) expect(apiWordIn(f.description), key).toBeNull();
  });

  it('recordings: a bad sync schedule is "Sync schedule: …" and names sync_cron only in the field', async () => {
    const res = await rec.api.patch('/api/settings', { sync_cron: 'every day' });
    expect(res.status).toBe(400);
    const { error } = res.body as { error: { code: string; message: string; field: string } };
    expect(error.code).toBe('invalid');
    expect(error.field).toBe('sync_cron');
    expect(error.message).toMatch(/^Sync schedule: is not a valid/);
  });

  it('recordings: a media folder that does not exist is "Media folder: …"', async () => {
    const res = await rec.api.patch('/api/settings', { media_root: path.join(rec.dir, 'nowhere') });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid', field: 'media_root' });
    expect(res.body.error.message).toMatch(/^Media folder: /);
  });

  it('recordings: a show folder that climbs out of the library is "Folder name: …"', async () => {
    const res = await rec.api.post('/api/shows', { name: 'Climber', dest_folder: '../outside' });
    expect(res.status).toBe(400);
    expect(res.body.error).toMatchObject({ code: 'invalid', field: 'dest_folder' });
    expect(res.body.error.message).toBe('Folder name: must not contain ".." segments');
    expect(fs.existsSync(path.join(rec.dir, 'outside'))).toBe(false);
  });
});
