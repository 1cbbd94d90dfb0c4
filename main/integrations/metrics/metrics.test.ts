import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../../core/clock.js';
import { waitFor } from '../../core/testing/wait-for.js';
import { nextPoll, startEnergyHarness, waitForState } from '../../energy/testing/harness.js';
import { startHarness } from '../../recordings/testing/harness.js';
import { startFakeWeather } from '../../energy/weather/fake-server.js';

const PROMTOOL = '/usr/bin/promtool';
const noPromtool = fs.existsSync(PROMTOOL) ? null : `${PROMTOOL} not found: install Debian's prometheus package (CI does)`;
if (noPromtool) console.warn(`promtool checks skipped: ${noPromtool}`);

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

/** `promtool check metrics` on the body: exit 0 and no lint complaints. */
function promtool(body: string): { status: number | null; out: string } {
  const r = spawnSync(PROMTOOL, ['check', 'metrics'], { input: body, encoding: 'utf8' });
  return { status: r.status, out: `${r.stdout}${r.stderr}` };
}

/** The value of one series (`name{labels}`) in a text exposition. */
function value(body: string, series: string): number | undefined {
  const line = body.split('\n').find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('GET /metrics on the energy bridge', () => {
  it('is off (404, saying how to turn it on) until enabled', async () => {
    const h = await startEnergyHarness();
    cleanups.push(() => h.stop());
    const res = await fetch(`${h.service.url}/metrics`);
    expect(res.status).toBe(404);
    const body = (await res.json()) as { error: { code: string; message: string } };
    expect(body.error.code).toBe('metrics_off');
    expect(body.error.message).toMatch(/METRICS_ENABLED/);
  });

  it('serves the live readings, polls, requests, history size and stream clients; promtool accepts it', async () => {
    // Polls on a manual clock, moved on a poll interval at a time (a poll's duration is still real time).
    const clock = createManualClock();
    const h = await startEnergyHarness({ env: { METRICS_ENABLED: '1' }, deps: { clock } });
    cleanups.push(() => h.stop());
    for (let i = 0; i < 5 && !(h.service.state.get().connected && h.service.state.get().energy.lifetime.gridImport !== null); i++) await nextPoll(h.service, clock, i === 0 ? 0 : 1000);
    await waitForState(h.service, (s) => s.connected && s.energy.lifetime.gridImport !== null);
    await fetch(`${h.service.url}/api/state`);
    await fetch(`${h.service.url}/api/nothing-here`);
    const res = await fetch(`${h.service.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
    const text = await res.text();
    const snap = h.service.snapshot();
    expect(value(text, 'hlb_energy_gateway_connected')).toBe(1);
    // Percentages as ratios, energy as joules (1 kWh = 3.6 MJ), the lifetime totals as counters.
    expect(value(text, 'hlb_energy_battery_soc_ratio')).toBeCloseTo(snap.battery.soc! / 100, 2);
    expect(value(text, 'hlb_energy_battery_soh_ratio')).toBeCloseTo(snap.battery.soh! / 100, 2);
    expect(value(text, 'hlb_energy_lifetime_energy_joules_total{counter="grid_import"}')! / 3.6e6).toBeCloseTo(snap.energy.lifetime.gridImport!, 0);
    expect(text).toContain('# TYPE hlb_energy_lifetime_energy_joules_total counter');
    expect(value(text, 'hlb_energy_home_energy_today_joules')! / 3.6e6).toBeCloseTo(snap.energy.consumedToday!, 1);
    expect(text).not.toMatch(/_kwh|_percent/);
    expect(value(text, 'hlb_energy_polls_total{outcome="ok"}')).toBeGreaterThanOrEqual(1);
    expect(value(text, 'hlb_energy_history_samples')).toBeGreaterThanOrEqual(1);
    expect(value(text, 'hlb_energy_event_stream_clients')).toBe(0);
    // Routes by template, never the raw path (unknown paths are one series).
    expect(value(text, 'hlb_energy_http_requests_total{method="GET",route="/api/state",status="200"}')).toBe(1);
    expect(text).not.toContain('nothing-here');
    expect(text).toMatch(/hlb_energy_http_request_duration_seconds_bucket\{le="0\.1",method="GET",route="\/api\/state"\} 1/);
    // No host names or secrets in labels.
    expect(text).not.toContain('127.0.0.1');
    if (!noPromtool) {
      const checked = promtool(text);
      expect(checked.out).toBe('');
      expect(checked.status).toBe(0);
    }
  });

  it('gives the outdoor temperature in Celsius while the pages show Fahrenheit', async () => {
    const weather = await startFakeWeather({ temperature: 21.4 });
    cleanups.push(() => weather.close());
    const h = await startEnergyHarness({ env: { METRICS_ENABLED: '1', WEATHER_FORECAST_URL: weather.forecastUrl, WEATHER_GEOCODING_URL: weather.geocodingUrl } });
    cleanups.push(() => h.stop());
    const put = await fetch(`${h.service.url}/api/settings`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ general: { temperatureUnit: 'fahrenheit' }, weather: { enabled: true, location: 'Sydney' } }) });
    expect(put.status).toBe(200);
    // The pages show 70.5 °F; the metric says 21.4 °C (70.5 °F, rounded by the service, is 21.39 °C).
    await waitForState(h.service, (s) => s.weather?.outdoorTemp === 70.5);
    const text = await (await fetch(`${h.service.url}/metrics`)).text();
    expect(value(text, 'hlb_energy_outdoor_temperature_celsius')).toBeCloseTo(21.4, 1);
    expect(text).not.toMatch(/^hlb_energy_outdoor_temperature /m);
    if (!noPromtool) expect(promtool(text).out).toBe('');
  });

  it('times every poll: the duration histogram counts each poll, ok and failed, in seconds', async () => {
    const clock = createManualClock();
    const h = await startEnergyHarness({ env: { METRICS_ENABLED: '1' }, deps: { clock } });
    cleanups.push(() => h.stop());
    const s = h.service.settings.get();
    h.service.settings.replace({ ...s, polling: { ...s.polling, retryDelayMs: 1000 } });
    expect((await nextPoll(h.service, clock, 0)).connected).toBe(true);
    const scrape = async () => (await fetch(`${h.service.url}/metrics`)).text();
    const first = await scrape();
    const okCount = (t: string) => value(t, 'hlb_energy_poll_duration_seconds_count{outcome="ok"}');
    expect(okCount(first)).toBeGreaterThanOrEqual(1);
    // Two more polls (1 s apart): the count follows the polls counter, one observation per poll.
    await nextPoll(h.service, clock, 1000);
    await nextPoll(h.service, clock, 1000);
    const later = await scrape();
    expect(okCount(later)).toBeGreaterThanOrEqual(okCount(first)! + 2);
    expect(okCount(later)).toBe(value(later, 'hlb_energy_polls_total{outcome="ok"}'));
    // A poll of the simulator on loopback takes milliseconds: more than nothing, all under half a second.
    expect(value(later, 'hlb_energy_poll_duration_seconds_sum{outcome="ok"}')).toBeGreaterThan(0);
    expect(value(later, 'hlb_energy_poll_duration_seconds_bucket{le="0.5",outcome="ok"}')).toBe(okCount(later));
    expect(value(later, 'hlb_energy_poll_duration_seconds_bucket{le="0.005",outcome="ok"}')).toBeDefined();
    expect(value(later, 'hlb_energy_poll_duration_seconds_count{outcome="failed"}')).toBe(0);

    // The gateway goes away: the failed polls (refused connects) are timed too.
    await h.sim.close();
    await waitFor('the next poll armed', async () => (h.service.poller.waiting ? true : undefined), 10_000);
    clock.advance(1000);
    await waitForState(h.service, (st) => !st.connected);
    const down = await scrape();
    expect(value(down, 'hlb_energy_poll_duration_seconds_count{outcome="failed"}')).toBeGreaterThanOrEqual(1);
    expect(value(down, 'hlb_energy_poll_duration_seconds_count{outcome="failed"}')).toBe(value(down, 'hlb_energy_polls_total{outcome="failed"}'));
    if (!noPromtool) {
      const checked = promtool(down);
      expect(checked.out).toBe('');
      expect(checked.status).toBe(0);
    }
  });
});

describe('the process in its own metrics', () => {
  it("shows the process's memory, heap, event-loop lag, descriptors, start time and GC on both ports, once each; promtool accepts both", async () => {
    const energy = await startEnergyHarness({ env: { METRICS_ENABLED: '1' } });
    cleanups.push(() => energy.stop());
    const rec = await startHarness({ box: { shows: [] } });
    cleanups.push(() => rec.cleanup());
    expect((await rec.api.patch('/api/settings', { metrics_enabled: true })).status).toBe(200);
    const bodies = [await (await fetch(`${energy.service.url}/metrics`)).text(), await (await fetch(`${rec.service.url}/metrics`)).text()];
    const startedAt = (Date.now() - process.uptime() * 1000) / 1000;
    for (const text of bodies) {
      // A Node process with two services loaded holds tens of MB; well under the 4 GB a 32-bit figure would cap.
      expect(value(text, 'process_resident_memory_bytes')).toBeGreaterThan(10e6);
      expect(value(text, 'process_resident_memory_bytes')).toBeLessThan(4e9);
      expect(value(text, 'nodejs_heap_size_used_bytes')).toBeGreaterThan(1e6);
      expect(value(text, 'nodejs_external_memory_bytes')).toBeGreaterThan(0);
      expect(value(text, 'process_open_fds')).toBeGreaterThan(3);
      expect(value(text, 'process_start_time_seconds')).toBeCloseTo(startedAt, -1);
      expect(value(text, 'nodejs_eventloop_lag_p99_seconds')).toBeGreaterThanOrEqual(0);
      expect(text).toContain('# TYPE process_cpu_seconds_total counter');
      expect(text).toContain('# TYPE nodejs_gc_duration_seconds histogram');
      // One of each per scrape, though two services share the process.
      expect(text.match(/^# TYPE process_resident_memory_bytes /gm)).toHaveLength(1);
      if (!noPromtool) {
        const checked = promtool(text);
        expect(checked.out).toBe('');
        expect(checked.status).toBe(0);
      }
    }
    // The same process behind both ports: the same start time.
    expect(value(bodies[0]!, 'process_start_time_seconds')).toBe(value(bodies[1]!, 'process_start_time_seconds'));
  });
});

describe('GET /metrics on the recording sync', () => {
  it('serves sync and download counters; promtool accepts it', async () => {
    const h = await startHarness({ box: { shows: [{ title: 'News', items: [{ id: '900000001', title: 'ABC News - Sat 04 Jul', length: 4000 }] }] } });
    cleanups.push(() => h.cleanup());
    expect((await fetch(`${h.service.url}/metrics`)).status).toBe(404);
    await h.api.post('/api/shows', { name: 'news', dest_folder: 'News' });
    expect((await h.api.patch('/api/settings', { box_address: h.box.descriptionUrl, metrics_enabled: true })).status).toBe(200);
    const run = await h.syncAndWait();
    expect(run.status).toBe('ok');
    const text = await (await fetch(`${h.service.url}/metrics`)).text();
    expect(value(text, 'hlb_recordings_sync_runs{status="ok"}')).toBe(1);
    expect(value(text, 'hlb_recordings_sync_items{outcome="downloaded"}')).toBe(1);
    expect(value(text, 'hlb_recordings_sync_running')).toBe(0);
    expect(value(text, 'hlb_recordings_downloads_in_progress')).toBe(0);
    // Marks count as cuts do (issue 45): every outcome is a series, 0 where none.
    expect(value(text, 'hlb_recordings_by_ad_outcome{outcome="marked"}')).toBe(0);
    const db = new Database(path.join(h.dataDir, 'state.db'));
    db.prepare("UPDATE recordings SET ad_status = 'marked'").run();
    db.close();
    const marked = await (await fetch(`${h.service.url}/metrics`)).text();
    expect(value(marked, 'hlb_recordings_by_ad_outcome{outcome="marked"}')).toBe(1);
    expect(value(marked, 'hlb_recordings_by_ad_outcome{outcome="cut"}')).toBe(0);
    expect(value(marked, 'hlb_recordings_by_ad_outcome{outcome="mark_failed"}')).toBe(0);
    expect(value(text, 'hlb_recordings_last_sync_finished_timestamp_seconds')).toBeCloseTo(new Date(run.finished_at).getTime() / 1000, 0);
    expect(value(text, 'hlb_recordings_http_requests_total{method="POST",route="/api/sync",status="202"}')).toBe(1);
    expect(value(text, 'hlb_recordings_http_request_duration_seconds_count{method="POST",route="/api/sync"}')).toBe(1);
    expect(text).not.toContain('News');
    if (!noPromtool) {
      const checked = promtool(text);
      expect(checked.out).toBe('');
      expect(checked.status).toBe(0);
    }
  });
});
