import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createManualClock } from '../../core/clock.js';
import { emptyLiveState, type LiveState } from '../live-state.js';
import { alertSettings } from './settings.js';
import { AlertEngine } from './engine.js';
import { WebhookDispatcher, type WebhookBody } from './webhook.js';

const rule = (r: Record<string, unknown>) => alertSettings.parse({ id: 'low', name: 'Low battery', ...r });
const withSoc = (soc: number | null, connected = true): LiveState => {
  const s = emptyLiveState({ host: '127.0.0.1', port: 502 }, 5000);
  return { ...s, connected, battery: { ...s.battery, soc } };
};
const withGrid = (grid: number): LiveState => {
  const s = emptyLiveState({ host: '127.0.0.1', port: 502 }, 5000);
  return { ...s, connected: true, power: { ...s.power, grid } };
};

describe('alert rules', () => {
  const t0 = Date.UTC(2026, 5, 1, 12);
  const s = (x: number) => t0 + x * 1000;

  it('fires once the condition has held for the settle time, and an at-threshold reading counts (inclusive)', () => {
    const e = new AlertEngine();
    const rules = [rule({ trigger: 'batterySoc', condition: 'atOrBelow', threshold: 20, settleSeconds: 60 })];
    expect(e.evaluate(rules, withSoc(20), s(0))).toEqual([]);
    expect(e.evaluate(rules, withSoc(19), s(59))).toEqual([]);
    const fired = e.evaluate(rules, withSoc(19), s(60));
    expect(fired.map((f) => f.event)).toEqual(['fired']);
    const [active] = e.active(rules);
    expect(active).toMatchObject({
      id: 'low',
      name: 'Low battery',
      trigger: 'batterySoc',
      condition: { value: 'batterySoc', comparison: 'atOrBelow', threshold: 20, unit: '%', reading: 19 },
      since: new Date(s(60)).toISOString(),
    });
    expect(active!.message).toContain('19 %');
  });

  it('a condition that flaps inside its settle time never fires', () => {
    const e = new AlertEngine();
    const rules = [rule({ trigger: 'batterySoc', condition: 'atOrBelow', threshold: 20, settleSeconds: 30 })];
    const events = [];
    for (let i = 0; i < 600; i += 5) events.push(...e.evaluate(rules, withSoc(i % 50 < 25 ? 15 : 40), s(i)));
    expect(events).toEqual([]);
    expect(e.active(rules)).toEqual([]);
  });

  it('clears only after the condition has been gone for the clear time; a blip back keeps it active', () => {
    const e = new AlertEngine();
    const rules = [rule({ trigger: 'gridImport', condition: 'atOrAbove', threshold: 3, unit: 'kW', settleSeconds: 0, clearSeconds: 120 })];
    expect(e.evaluate(rules, withGrid(3000), s(0)).map((x) => x.event)).toEqual(['fired']);
    expect(e.evaluate(rules, withGrid(500), s(10))).toEqual([]);
    expect(e.evaluate(rules, withGrid(4000), s(100))).toEqual([]); // back above: the clear wait restarts
    expect(e.evaluate(rules, withGrid(500), s(110))).toEqual([]);
    expect(e.evaluate(rules, withGrid(500), s(229))).toEqual([]);
    const cleared = e.evaluate(rules, withGrid(-2000), s(230));
    expect(cleared.map((x) => x.event)).toEqual(['cleared']);
    expect(e.active(rules)).toEqual([]);
  });

  it('export is the negative grid flow; gateway offline holds while disconnected', () => {
    const e = new AlertEngine();
    const rules = [
      rule({ id: 'exp', trigger: 'gridExport', condition: 'atOrAbove', threshold: 2000, settleSeconds: 0 }),
      rule({ id: 'off', trigger: 'gatewayOffline', settleSeconds: 30 }),
    ];
    expect(e.evaluate(rules, withGrid(2500), s(0))).toEqual([]);
    expect(e.evaluate(rules, withGrid(-2500), s(1)).map((x) => x.rule.id)).toEqual(['exp']);
    // Grid unknown: the export condition no longer holds and (settle 0) clears at once.
    expect(e.evaluate(rules, withSoc(50, false), s(2)).map((x) => `${x.rule.id}:${x.event}`)).toEqual(['exp:cleared']);
    expect(e.evaluate(rules, withSoc(50, false), s(31))).toEqual([]);
    expect(e.evaluate(rules, withSoc(50, false), s(32)).map((x) => `${x.rule.id}:${x.event}`)).toEqual(['off:fired']);
    expect(e.evaluate(rules, withSoc(50, true), s(62))).toEqual([]); // back online: clears after the same 30 s
    expect(e.evaluate(rules, withSoc(50, true), s(92)).map((x) => `${x.rule.id}:${x.event}`)).toEqual(['off:cleared']);
  });
});

describe('alert webhooks', () => {
  let server: http.Server | null = null;
  afterEach(() => new Promise<void>((r) => (server ? server.close(() => r()) : r())));

  it('a receiver on loopback that fails twice then succeeds gets the same body three times, on the backoff', async () => {
    const received: Array<{ body: WebhookBody; type: string | undefined }> = [];
    server = http.createServer((req, res) => {
      let data = '';
      req.on('data', (c) => (data += c));
      req.on('end', () => {
        received.push({ body: JSON.parse(data) as WebhookBody, type: req.headers['content-type'] });
        res.statusCode = received.length <= 2 ? 503 : 200;
        res.end(received.length <= 2 ? 'busy' : 'ok');
      });
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`;
    const clock = createManualClock(Date.UTC(2026, 5, 1));
    const d = new WebhookDispatcher((u, i) => fetch(u, i), clock);
    const body: WebhookBody = {
      event: 'fired',
      at: new Date(clock.now()).toISOString(),
      source: 'home-lan-bridge/energy',
      alert: { id: 'low', name: 'Low battery', trigger: 'batterySoc', message: 'Battery SOC is 15 %', condition: { value: 'batterySoc', comparison: 'atOrBelow', threshold: 20, unit: '%', reading: 15 }, since: new Date(clock.now()).toISOString() },
    };
    d.send('low', url, body);
    await vi.waitFor(() => expect(received).toHaveLength(1), { timeout: 10_000 });
    await vi.waitFor(() => expect(d.lastResult('low')).toMatchObject({ ok: false, status: 503, attempts: 1 }), { timeout: 10_000 });
    clock.advance(1999); // the first retry waits 2 s
    await new Promise((r) => setTimeout(r, 50));
    expect(received).toHaveLength(1);
    clock.advance(1);
    await vi.waitFor(() => expect(d.lastResult('low')).toMatchObject({ ok: false, attempts: 2 }), { timeout: 10_000 });
    clock.advance(10_000);
    await vi.waitFor(() => expect(d.lastResult('low')).toMatchObject({ ok: true, status: 200, attempts: 3, error: null }), { timeout: 10_000 });
    await d.idle();
    expect(received).toHaveLength(3);
    for (const r of received) {
      expect(r.type).toBe('application/json');
      expect(r.body).toEqual(body);
    }
  });

  it('stopping aborts a delivery whose receiver never answers, instead of waiting out the timeout', async () => {
    let seen = 0;
    server = http.createServer(() => {
      seen++; // never answers
    });
    await new Promise<void>((r) => server!.listen(0, '127.0.0.1', r));
    const d = new WebhookDispatcher((u, i) => fetch(u, i), createManualClock());
    d.send('hang', `http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { event: 'fired', at: '', source: 'home-lan-bridge/energy', alert: {} as WebhookBody['alert'] });
    await vi.waitFor(() => expect(seen).toBe(1), { timeout: 10_000 });
    d.stop();
    await d.idle();
    expect(d.lastResult('hang')).toMatchObject({ ok: false, status: null, attempts: 1 });
    expect(d.lastResult('hang')!.error).not.toMatch(/within 5 s/);
    server.closeAllConnections();
  });

  it('a refused connection is reported, not thrown, and never blocks the caller', async () => {
    const clock = createManualClock();
    const d = new WebhookDispatcher((u, i) => fetch(u, i), clock);
    d.send('x', 'http://127.0.0.1:9/none', { event: 'cleared', at: '', source: 'home-lan-bridge/energy', alert: {} as WebhookBody['alert'] });
    expect(d.lastResult('x')).toBeNull(); // send returned before any I/O
    await vi.waitFor(() => expect(d.lastResult('x')).toMatchObject({ ok: false, status: null, attempts: 1 }), { timeout: 10_000 });
    expect(d.lastResult('x')!.error).toBeTruthy();
    d.stop();
    await d.idle();
  });
});
