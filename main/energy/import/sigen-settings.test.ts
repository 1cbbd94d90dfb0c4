import { describe, expect, it } from 'vitest';
import { energySettingsSchema } from '../settings/energy-settings.js';
import { ratesAt, type TariffConfig } from '../tariff/windows.js';
import { mapSigenSettings } from './sigen-settings.js';
import { convertWindows, type SigenRateWindow } from './sigen-tariff.js';

/** sigen-home-bridge's own rule (derive.js): the first window that covers the minute wins; from === to never matches. */
function theirRate(windows: SigenRateWindow[], fallback: number, minute: number): number {
  const toMin = (v: string) => Number(v.split(':')[0]) * 60 + Number(v.split(':')[1]);
  const hit = windows.find((w) => {
    const from = toMin(w.start);
    const to = toMin(w.end);
    if (from === to) return false;
    return from < to ? minute >= from && minute < to : minute >= from || minute < to;
  });
  return hit ? hit.rate : fallback;
}

const fresh = () => energySettingsSchema.parse({});

describe('tariff windows from its separate import and export lists', () => {
  const cases: Array<[string, SigenRateWindow[], SigenRateWindow[]]> = [
    ['one import window', [{ start: '00:30', end: '05:30', rate: 0.07 }], []],
    ['import and export windows that overlap', [{ start: '00:00', end: '07:00', rate: 0.1 }, { start: '16:00', end: '21:00', rate: 0.5 }], [{ start: '06:00', end: '10:00', rate: 0.02 }, { start: '18:00', end: '20:00', rate: 0.3 }]],
    ['windows across midnight', [{ start: '22:00', end: '06:00', rate: 0.08 }], [{ start: '23:30', end: '01:00', rate: 0.01 }]],
    ['an earlier window shadowing a later one', [{ start: '10:00', end: '14:00', rate: 0.2 }, { start: '12:00', end: '16:00', rate: 0.9 }], []],
    ['single-digit hours and an empty window', [{ start: '7:00', end: '9:30', rate: 0.4 }, { start: '12:00', end: '12:00', rate: 5 }], []],
  ];
  for (const [what, importWindows, exportWindows] of cases) {
    it(`prices every minute of the day as before: ${what}`, () => {
      const importRate = 0.25;
      const exportRate = 0.05;
      const windows = convertWindows({ importWindows, exportWindows, importRate });
      const tariff = energySettingsSchema.shape.tariff.parse({ importRate, feedInRate: exportRate, windows }) as TariffConfig; // valid here: no overlaps
      for (let minute = 0; minute < 1440; minute++) {
        const ours = ratesAt(tariff, { minute, weekday: 2 } as never);
        expect([minute, ours.importRate]).toEqual([minute, theirRate(importWindows, importRate, minute)]);
        expect([minute, ours.feedInRate]).toEqual([minute, theirRate(exportWindows, exportRate, minute)]);
      }
    });
  }
});

describe('settings mapping edges', () => {
  it('a credit window across midnight, a unit id other than 247, an unknown trigger: listed with why', () => {
    const m = mapSigenSettings(
      {
        sigen: { host: '10.0.0.9', port: 502, unitId: 1 },
        tariff: { importRate: 0.3, exportRate: 0.1, superExportCredit: { enabled: true, start: '22:00', end: '02:00', capKwh: 5, rate: 0.2 } },
        alerts: { items: [{ id: 'x', name: 'Emptying', enabled: true, trigger: { type: 'batteryEmptyWithin', threshold: 60 } }, { id: 'low', name: 'Low', enabled: true, trigger: { type: 'batteryBelow', threshold: 15 } }] },
      },
      fresh(),
    );
    const reasons = Object.fromEntries(m.notCarried.map((n) => [n.setting, n.reason]));
    expect(reasons['sigen.unitId']).toMatch(/unit 247/);
    expect(reasons['tariff.superExportCredit']).toMatch(/past midnight/);
    expect(reasons['alerts.items[0] "Emptying"']).toMatch(/time until the battery reaches its reserve/);
    expect(m.next.gateway).toMatchObject({ host: '10.0.0.9', port: 502 });
    expect(m.next.alerts).toEqual([expect.objectContaining({ id: 'low', trigger: 'batterySoc', condition: 'atOrBelow', threshold: 15, unit: '%' })]);
    expect(m.next.tariff.superExport.enabled).toBe(false); // left as it was here
  });

  it('a value this bridge refuses leaves that section as it was, named', () => {
    const m = mapSigenSettings({ poll: { defaultIntervalMs: 900_000, reconnectDelayMs: 5000, schedule: [] }, history: { retentionDays: 30 } }, fresh());
    expect(m.next.polling).toEqual(fresh().polling);
    expect(m.next.history.retentionDays).toBe(30);
    expect(m.notCarried).toContainEqual({ setting: 'polling', reason: expect.stringMatching(/refused here \(polling\.intervalMs/) });
  });

  it('a section it cannot read is named, the others still come', () => {
    const m = mapSigenSettings({ sigen: 'not an object', battery: { capacityKwh: 13.5, reserveSoc: 10 } }, fresh());
    expect(m.next.battery).toEqual({ capacityKwh: 13.5, reserveSoc: 10 });
    expect(m.notCarried[0]).toMatchObject({ setting: 'sigen', reason: expect.stringMatching(/not understood/) });
  });
});
