import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createManualClock } from '../../core/clock.js';
import { waitFor } from '../../core/testing/wait-for.js';
import { emptyLiveState } from '../live-state.js';
import type { PriceInterval } from '../prices/price-book.js';
import { startAmberSimulator } from '../prices/amber-simulator.js';
import { startOfLocalDay } from '../tariff/local-time.js';
import { startEnergyHarness } from '../testing/harness.js';
import { AlertEngine } from './engine.js';
import { alertSettings } from './settings.js';

const MIN = 60_000;
const HOUR = 60 * MIN;
const rule = (r: Record<string, unknown>) => alertSettings.parse({ id: String(r.trigger), name: String(r.trigger), settleSeconds: 0, ...r });
const state = emptyLiveState({ host: '127.0.0.1', port: 502 }, 5000);
const interval = (p: Partial<PriceInterval>): PriceInterval => ({ start: 0, end: 300_000, importPerKwh: 0.2, feedInPerKwh: 0.05, descriptor: 'low', kind: 'current', estimate: false, spike: false, ...p });

describe('price alert rules', () => {
  it('above and below a price, feed-in below zero, and a spike; no live prices never fire', () => {
    const e = new AlertEngine();
    const rules = [
      rule({ trigger: 'importPrice', condition: 'atOrAbove', threshold: 0.5 }),
      rule({ trigger: 'feedInPrice', condition: 'atOrBelow', threshold: 0.01, unit: '/kWh' }),
      rule({ trigger: 'feedInNegative' }),
      rule({ trigger: 'priceSpike' }),
    ];
    expect(e.evaluate(rules, state, 0)).toEqual([]);
    expect(e.evaluate(rules, state, 1000, { current: null, currency: 'AUD' })).toEqual([]);
    const spike = e.evaluate(rules, state, 2000, { current: interval({ importPerKwh: 3, feedInPerKwh: 2.8, spike: true, descriptor: 'spike' }), currency: 'AUD' });
    expect(spike.map((t) => [t.rule.trigger, t.event])).toEqual([
      ['importPrice', 'fired'],
      ['priceSpike', 'fired'],
    ]);
    expect(spike[0]!.alert.message).toBe('Import price is 3 AUD/kWh (at or above 0.5 AUD/kWh)');
    expect(spike[1]!.alert.message).toBe('The electricity price is spiking (import 3 AUD/kWh)');
    const negative = e.evaluate(rules, state, 3000, { current: interval({ importPerKwh: -0.04, feedInPerKwh: -0.02, descriptor: 'negative' }), currency: 'AUD' });
    expect(negative.map((t) => [t.rule.trigger, t.event])).toEqual([
      ['importPrice', 'cleared'],
      ['feedInPrice', 'fired'],
      ['feedInNegative', 'fired'],
      ['priceSpike', 'cleared'],
    ]);
    expect(negative[2]!.alert.message).toBe('Exporting costs money now: the feed-in price is below zero (feed-in -0.02 AUD/kWh)');
  });

  it('a price threshold takes only the per-kWh unit', () => {
    expect(alertSettings.safeParse({ trigger: 'importPrice', unit: 'kW', threshold: 1 }).success).toBe(false);
  });
});

describe('price alerts in the bridge, from the Amber simulator to a webhook', () => {
  const closers: Array<() => Promise<void>> = [];
  afterEach(async () => {
    while (closers.length) await closers.pop()!();
  });

  it('the spike and then negative feed-in fire and clear through the webhook', async () => {
    const day = startOfLocalDay('2026-11-30', 'Australia/Sydney');
    const clock = createManualClock(day + 18 * HOUR + 10 * MIN);
    const amber = await startAmberSimulator({ now: clock.now });
    closers.push(() => amber.close());
    const bodies: Array<{ event: string; alert: { trigger: string; message: string } }> = [];
    const hook = http.createServer((req, res) => {
      let b = '';
      req.on('data', (c: Buffer) => (b += c.toString()));
      req.on('end', () => {
        bodies.push(JSON.parse(b));
        res.end();
      });
    });
    await new Promise<void>((r) => hook.listen(0, '127.0.0.1', r));
    closers.push(() => new Promise<void>((r) => hook.close(() => r())));
    const hookUrl = `http://127.0.0.1:${(hook.address() as AddressInfo).port}/hook`;
    const h = await startEnergyHarness({ env: { PRICE_SOURCE: 'amber', AMBER_API_TOKEN: amber.token, AMBER_SITE_ID: amber.siteId, AMBER_API_URL: amber.url }, deps: { clock } });
    closers.push(() => h.stop());
    const put = await fetch(`${h.service.url}/api/settings`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ general: { currency: 'AUD' }, alerts: [rule({ trigger: 'priceSpike', webhookUrl: hookUrl }), rule({ trigger: 'feedInNegative', webhookUrl: hookUrl })] }),
    });
    expect(put.status).toBe(200);
    const priceNow = async () => ((await (await fetch(`${h.service.url}/api/prices`)).json()) as { current: { importPerKwh: number } | null }).current?.importPerKwh;
    clock.advance(0);
    await waitFor('the spike price', async () => ((await priceNow()) === 3 ? true : undefined), 10_000);
    clock.advance(1000);
    await waitFor('the spike webhook', async () => (bodies.length >= 1 ? true : undefined), 10_000);
    expect(bodies[0]).toMatchObject({ event: 'fired', alert: { trigger: 'priceSpike', message: 'The electricity price is spiking (import 3 AUD/kWh)' } });

    // Next day at noon: negative import and feed-in; the spike clears and negative feed-in fires.
    clock.set(day + 36 * HOUR + 2 * MIN);
    clock.advance(0);
    await waitFor('the noon price', async () => ((await priceNow()) === -0.04 ? true : undefined), 10_000);
    clock.advance(1000);
    await waitFor('two more webhooks', async () => (bodies.length >= 3 ? true : undefined), 10_000);
    expect(bodies.slice(1).map((b) => [b.alert.trigger, b.event]).sort()).toEqual([
      ['feedInNegative', 'fired'],
      ['priceSpike', 'cleared'],
    ]);
  });
});
