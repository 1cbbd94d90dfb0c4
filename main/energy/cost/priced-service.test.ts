import { describe, expect, it } from 'vitest';
import { waitFor } from '../../core/testing/wait-for.js';
import { startAmberSimulator } from '../prices/amber-simulator.js';
import { startEnergyHarness } from '../testing/harness.js';

interface Line { start: string; end: string; importPerKwh: number; importKwh: number; importCost: number; exportKwh: number; feedIn: number; feedInPerKwh: number }

/** The energy service with Amber set: the gateway simulator's polls priced at the Amber simulator's intervals, over real sockets. */
describe('today priced at the live intervals in the running service', () => {
  it('the snapshot says Amber priced the day and the bill lists the interval at its price', async () => {
    const amber = await startAmberSimulator({ now: () => Date.now() });
    const h = await startEnergyHarness({ env: { PRICE_SOURCE: 'amber', AMBER_API_TOKEN: amber.token, AMBER_SITE_ID: amber.siteId, AMBER_API_URL: amber.url, CURRENCY: 'AUD' } });
    try {
      const get = async <T>(path: string) => (await (await fetch(`${h.service.url}${path}`)).json()) as T;
      // A line appears once a stretch between polls was priced at an interval (the simulated plant
      // may be balanced on its battery at this hour, so the energy can be zero).
      const bill = await waitFor('a priced interval', async () => {
        const b = await get<{ source: string | null; currency: string; intervals: Line[] }>('/api/cost/intervals');
        return b.source === 'amber' && b.intervals.length > 0 ? b : undefined;
      }, 15_000);
      expect(bill.currency).toBe('AUD');
      const prices = await get<{ intervals: Array<{ start: number; importPerKwh: number; feedInPerKwh: number | null }>; current: { start: number; importPerKwh: number; feedInPerKwh: number | null } }>('/api/prices');
      const known = [prices.current, ...prices.intervals];
      for (const line of bill.intervals) {
        const iv = known.find((k) => k.start === Date.parse(line.start));
        if (!iv) continue; // an interval already settled out of the 24 h window
        // Each line is priced at the source's interval: energy × that interval's price (rounded per line).
        expect(line.importPerKwh).toBe(iv.importPerKwh);
        expect(line.importCost).toBeCloseTo(line.importKwh * iv.importPerKwh, 3);
        expect(line.feedIn).toBeCloseTo(line.exportKwh * line.feedInPerKwh, 3);
      }
      const snap = await get<{ tariff?: { pricedBy?: string; currency: string } }>('/api/snapshot');
      expect(snap.tariff).toMatchObject({ pricedBy: 'amber', currency: 'AUD' });
    } finally {
      await h.stop();
      await amber.close();
    }
  });
});
