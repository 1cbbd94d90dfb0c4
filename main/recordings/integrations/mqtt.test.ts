import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { pino } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { systemClock } from '../../core/clock.js';
import { silentLogger } from '../../core/logger.js';
import { createSecurity } from '../../energy/security/gate.js';
import { ownerGateOf } from '../../energy/security/security-routes.js';
import { startHarness, type Harness } from '../testing/harness.js';
import { mosquittoUnavailable, startMosquitto, watch, type Broker } from '../../integrations/mqtt/testing/mosquitto.js';

const skip = mosquittoUnavailable();
if (skip) console.warn(`recording sync MQTT tests skipped: ${skip}`);

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

const box = { shows: [{ title: 'News', items: [{ id: '900000001', title: 'ABC News - Sat 04 Jul', length: 4000 }] }] };

async function broker(opts?: Parameters<typeof startMosquitto>[0]): Promise<Broker> {
  const b = await startMosquitto(opts);
  cleanups.push(() => b.close());
  return b;
}

describe.skipIf(skip !== null)('recording sync on MQTT (real mosquitto, box simulator)', () => {
  it('publishes its sensors and a Sync now button; a press starts a sync, as POST /api/sync would', async () => {
    const b = await broker();
    const h: Harness = await startHarness({ box });
    cleanups.push(() => h.cleanup());
    await h.api.post('/api/shows', { name: 'news', dest_folder: 'News' });
    // The state goes out every second ("Send every", the lowest a user can set), so the state after the sync comes within one.
    expect((await h.api.patch('/api/settings', { box_address: h.box.descriptionUrl, mqtt_url: b.url, mqtt_publish_interval_seconds: 1 })).status).toBe(200);

    const sub = await watch(b.url, ['homeassistant/+/+/+/config', 'home-lan-bridge/recordings/#']);
    cleanups.push(() => sub.close());
    expect((await sub.waitFor((m) => m.topic === 'home-lan-bridge/recordings/availability', 8000)).payload).toBe('online');
    const button = await sub.waitFor((m) => /^homeassistant\/button\/hlb_recordings_[0-9a-f]{10}\/sync_now\/config$/.test(m.topic));
    const cfg = JSON.parse(button.payload);
    expect(cfg).toMatchObject({ name: 'Sync now', command_topic: 'home-lan-bridge/recordings/sync_now/press', availability_mode: 'all', device: { name: 'Recording sync' } });
    expect(cfg.unique_id).toMatch(/_sync_now$/);
    expect(cfg.default_entity_id).toBe(`button.${cfg.unique_id}`);
    expect(cfg).not.toHaveProperty('object_id');
    expect((await sub.waitFor((m) => m.topic === 'home-lan-bridge/recordings/sync_now/availability')).payload).toBe('online');
    for (const k of ['last_sync_status', 'last_sync_time', 'downloads_in_progress', 'next_run']) await sub.waitFor((m) => m.topic.endsWith(`/${k}/config`));
    await sub.waitFor((m) => m.topic.includes('/binary_sensor/') && m.topic.endsWith('/box_reachable/config'));
    const first = JSON.parse((await sub.waitFor((m) => m.topic === 'home-lan-bridge/recordings/state')).payload);
    expect(first).toMatchObject({ last_sync_status: null, sync_running: false, downloads_in_progress: 0, box_reachable: null });
    expect(first.next_run).toBe((await h.api.get('/api/sync')).body.schedule.next_run);

    // Home Assistant presses the button.
    await sub.client.publishAsync('home-lan-bridge/recordings/sync_now/press', 'PRESS');
    const deadline = Date.now() + 5000;
    while (!h.service.engine.current() && (await h.api.get('/api/sync-runs')).body.runs.length === 0) {
      if (Date.now() > deadline) throw new Error('no sync started within 5 s of the press');
      await new Promise((r) => setTimeout(r, 20));
    }
    await h.service.engine.current()?.done;
    const runs = (await h.api.get('/api/sync-runs')).body.runs;
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ trigger: 'manual', status: 'ok' });
    expect(runs[0].summary.downloaded).toBe(1);
    // The next state says so.
    const after = await sub.waitFor((m) => m.topic === 'home-lan-bridge/recordings/state' && JSON.parse(m.payload).last_sync_status === 'ok', 15_000);
    expect(JSON.parse(after.payload)).toMatchObject({ last_sync_downloaded: 1, last_sync_failed: 0, box_reachable: true, sync_running: false, recordings_marked: 0, recordings_cut: 0, ad_removal_failed: 0 });

    // Marks count as cuts do (issue 45): the recording marked (as Mark mode leaves it), the next state says so.
    await sub.waitFor((m) => m.topic.endsWith('/recordings_marked/config'));
    const db = new Database(path.join(h.dataDir, 'state.db'));
    db.prepare("UPDATE recordings SET ad_status = 'marked'").run();
    db.close();
    const since = sub.seen.length;
    await sub.client.publishAsync('home-lan-bridge/recordings/sync_now/press', 'PRESS');
    const marked = await sub.waitFor((m) => m.topic === 'home-lan-bridge/recordings/state' && JSON.parse(m.payload).recordings_marked === 1, 15_000, since);
    expect(JSON.parse(marked.payload)).toMatchObject({ recordings_marked: 1, recordings_cut: 0, ad_removal_failed: 0 });
  });

  it('while the owner has a passcode, a press starts nothing and the button is unavailable', async () => {
    const b = await broker({ user: { name: 'ha', password: 'pw-for-this-broker' } });
    const security = createSecurity({ file: path.join(os.tmpdir(), `sec-${process.pid}-${Date.now()}.json`), clock: systemClock, logger: silentLogger });
    await security.passcodes.set('4826');
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (l: string) => void lines.push(l) });
    const h: Harness = await startHarness({ box, deps: { owner: ownerGateOf(() => security, silentLogger), logger } });
    cleanups.push(() => h.cleanup());
    // Settings need the owner's session here too (and the recording sync's CSRF token, as the page sends it).
    const send = async (method: string, url: string, body: unknown, token?: string) => {
      const t = await fetch(`${h.service.url}/api/csrf-token`);
      const cookie = t.headers.getSetCookie().map((c) => c.split(';')[0]).join('; ');
      const csrf = ((await t.json()) as { token: string }).token;
      const r = await fetch(`${h.service.url}${url}`, { method, headers: { 'content-type': 'application/json', cookie, 'x-csrf-token': csrf, ...(token ? { authorization: `Bearer ${token}` } : {}) }, body: JSON.stringify(body) });
      return { status: r.status, body: (await r.json()) as Record<string, any> }; // eslint-disable-line @typescript-eslint/no-explicit-any
    };
    const unlock = await send('POST', '/api/unlock', { passcode: '4826' });
    expect(unlock.status).toBe(200);
    const ownerPatch = (body: unknown) => send('PATCH', '/api/settings', body, unlock.body.token as string);
    expect((await h.api.patch('/api/settings', { mqtt_url: b.url })).status).toBe(401);
    const res = await ownerPatch({ box_address: h.box.descriptionUrl, mqtt_url: b.url, mqtt_username: 'ha', mqtt_password: 'pw-for-this-broker' });
    expect(res.status, JSON.stringify(res.body)).toBe(200);

    const sub = await watch(b.url, ['home-lan-bridge/recordings/#'], { username: 'ha', password: 'pw-for-this-broker' });
    cleanups.push(() => sub.close());
    expect((await sub.waitFor((m) => m.topic === 'home-lan-bridge/recordings/availability', 8000)).payload).toBe('online');
    expect((await sub.waitFor((m) => m.topic === 'home-lan-bridge/recordings/sync_now/availability')).payload).toBe('offline');
    await sub.client.publishAsync('home-lan-bridge/recordings/sync_now/press', 'PRESS');
    // The press has been read once the refusal is logged (no sleep): no sync started then, nor a run recorded.
    const deadline = Date.now() + 8000;
    while (!lines.some((l) => /Sync now from MQTT refused: a passcode is set/.test(l))) {
      if (Date.now() > deadline || h.service.engine.current()) break;
      await new Promise((r) => setTimeout(r, 20));
    }
    expect(h.service.engine.current()).toBeNull();
    expect((await h.api.get('/api/sync-runs')).body.runs).toEqual([]);
    expect(lines.some((l) => /Sync now from MQTT refused: a passcode is set/.test(l))).toBe(true);
    // The password is masked on read, and moving the broker clears it.
    expect((await h.api.get('/api/settings')).body.settings.mqtt_password).toBe('••••••••');
    const moved = await ownerPatch({ mqtt_url: 'mqtt://127.0.0.1:9' });
    expect(moved.body.cleared).toEqual(['mqtt_password']);
  });

  /** A service whose log lines are kept, with MQTT on `b`, and a subscriber to its topics. */
  async function serviceOn(b: Broker) {
    const lines: string[] = [];
    const logger = pino({ level: 'info' }, { write: (l: string) => void lines.push(l) });
    const h: Harness = await startHarness({ box, deps: { logger } });
    cleanups.push(() => h.cleanup());
    await h.api.post('/api/shows', { name: 'news', dest_folder: 'News' });
    const sub = await watch(b.url, ['homeassistant/button/+/+/config', 'home-lan-bridge/recordings/#']);
    cleanups.push(() => sub.close());
    expect((await h.api.patch('/api/settings', { box_address: h.box.descriptionUrl, mqtt_url: b.url })).status).toBe(200);
    const logged = (re: RegExp) => lines.filter((l) => re.test(l));
    const untilLogged = async (re: RegExp) => {
      const deadline = Date.now() + 8000;
      while (logged(re).length === 0) {
        if (Date.now() > deadline) throw new Error(`no log line ${re} within 8 s; saw: ${lines.slice(-5).join('')}`);
        await new Promise((r) => setTimeout(r, 20));
      }
    };
    /** Presses as Home Assistant does and waits for the sync it starts to finish. */
    const pressAndFinish = async () => {
      await sub.client.publishAsync('home-lan-bridge/recordings/sync_now/press', 'PRESS');
      await untilLogged(/sync started from MQTT/);
      await h.service.engine.current()?.done;
    };
    return { h, sub, lines, logged, untilLogged, pressAndFinish };
  }

  it('a retained press, or a message that is not the press payload, starts no sync (logged once each); an oversized retained message is dropped and the connection stays', async () => {
    const b = await broker();
    const other = await watch(b.url, ['test/unused']);
    cleanups.push(() => other.close());
    // Left on the broker before the service connects: a stored press, and 100 KB on Home Assistant's status topic.
    await other.client.publishAsync('home-lan-bridge/recordings/sync_now/press', 'PRESS', { retain: true });
    await other.client.publishAsync('homeassistant/status', 'x'.repeat(100 * 1024), { retain: true });
    const s = await serviceOn(b);
    await s.untilLogged(/too large; dropped/);
    await s.untilLogged(/Sync now from MQTT ignored: the message is retained/);
    for (const payload of ['press', 'go', '']) await other.client.publishAsync('home-lan-bridge/recordings/sync_now/press', payload);
    await s.untilLogged(/not the button's press payload/);
    // A real press after them is obeyed: they were read (and ignored) on the same, still open connection.
    await s.pressAndFinish();
    const runs = (await s.h.api.get('/api/sync-runs')).body.runs;
    expect(runs).toHaveLength(1);
    expect(s.logged(/sync started from MQTT/)).toHaveLength(1);
    expect(s.logged(/Sync now from MQTT ignored: the message is retained/)).toHaveLength(1);
    expect(s.logged(/not the button's press payload/)).toHaveLength(1);
    expect(s.logged(/too large; dropped/)).toHaveLength(1);
    expect(s.logged(/"msg":"MQTT connected"/)).toHaveLength(1);
    expect(s.logged(/not reachable/)).toEqual([]);
  });

  it('a storm of 2,000 Home Assistant announcements costs at most one republish per few seconds', async () => {
    const b = await broker();
    const s = await serviceOn(b);
    const isButton = (m: { topic: string }) => /^homeassistant\/button\/.*\/sync_now\/config$/.test(m.topic);
    await s.sub.waitFor(isButton, 8000);
    await s.sub.waitFor((m) => m.topic === 'home-lan-bridge/recordings/state');
    const from = s.sub.seen.length;
    const storm = await watch(b.url, ['test/unused']);
    cleanups.push(() => storm.close());
    for (let i = 0; i < 2000; i++) storm.client.publish('homeassistant/status', 'online');
    // After the storm, from the same client: a press. Its sync's state comes after every republish the storm caused.
    await storm.client.publishAsync('home-lan-bridge/recordings/sync_now/press', 'PRESS');
    await s.untilLogged(/sync started from MQTT/);
    await s.sub.waitFor((m) => m.topic === 'home-lan-bridge/recordings/state' && JSON.parse(m.payload).sync_running === true, 10_000, from);
    await s.h.service.engine.current()?.done;
    const republished = s.sub.seen.slice(from).filter(isButton).length;
    // One republish at once; at most one more if the storm outlasted the few seconds' gap.
    expect(republished).toBeGreaterThanOrEqual(1);
    expect(republished).toBeLessThanOrEqual(2);
  });
});
