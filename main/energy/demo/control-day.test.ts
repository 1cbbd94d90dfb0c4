import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createManualClock } from '../../core/clock.js';
import { waitFor } from '../../core/testing/wait-for.js';
import { startAmberSimulator, type AmberSimulator } from '../prices/amber-simulator.js';
import { nextPoll, startEnergyHarness } from '../testing/harness.js';
import { demoControlSettings, demoSky, FOLLOW_THE_PRICE } from './control.js';

/**
 * The demo's price-following day (issue 44): the energy service on a manual clock, polling the
 * gateway simulator over Modbus TCP and fetching the Amber simulator over HTTP (both on loopback,
 * both on the test's UTC wall clock), with the demo's control settings, its overcast sky and
 * "Follow the price" asked for as the demo asks. The clock runs from 09:00 to 21:30 in 5-minute polls.
 */
const H = 3_600_000;
const POLL = 5 * 60_000;
const day = Date.UTC(2026, 10, 30);
const start = day + 9 * H;
const end = day + 21.5 * H;
const at = (hh: number, mm = 0) => day + hh * H + mm * 60_000;

/** The Amber simulator's general price (A$/kWh) by local time, as its table documents it (simulated-day.ts). */
function amberPrice(t: number): number {
  const h = (t - day) / H;
  if (h < 6) return 0.2;
  if (h < 9) return 0.32;
  if (h < 11) return 0.12;
  if (h < 13) return -0.04;
  if (h < 16) return 0.08;
  if (h < 17.5) return 0.45;
  if (h < 18) return 0.6;
  if (h < 18.5) return 3.0;
  if (h < 21) return 0.5;
  return 0.25;
}

interface Poll {
  t: number;
  /** The poll's readings (W, %). */
  battery: number;
  batteryGross: number;
  grid: number;
  soc: number;
  /** The control registers once the controller had done its work for this poll: in force until the next. */
  regs: Record<string, number>;
}

type Harness = Awaited<ReturnType<typeof startEnergyHarness>>;

/**
 * The service, the gateway simulator and the Amber simulator on a clock starting at `start`, with
 * the demo's settings (and `control` over them) put by the owner and "Follow the price" asked for
 * as the demo asks; then polls every 5 minutes until `until`, each recorded once the controller is done.
 */
async function runDay(until: number, control: Record<string, unknown> = {}, beforePoll?: (h: Harness, t: number) => void): Promise<{ h: Harness; amber: AmberSimulator; polls: Poll[] }> {
  const clock = createManualClock(start);
  const polls: Poll[] = [];
  const amber = await startAmberSimulator({ now: () => clock.now(), intervalMinutes: 30, timeZone: 'UTC' });
  const h = await startEnergyHarness({
    sim: { now: () => clock.now(), timeZone: 'UTC', initialSoc: 60, skyClear: demoSky(start) },
    env: { POLL_INTERVAL_MS: String(POLL) },
    deps: { clock },
  });
  const api = (url: string, init?: RequestInit) => fetch(`${h.service.url}${url}`, init).then((r) => r.json());
  // The settings the demo writes before its start, put by the owner (this PC).
  const demo = demoControlSettings() as { control: Record<string, unknown> };
  const settings = {
    general: { timezone: 'UTC' },
    prices: { source: 'amber', amber: { token: amber.token, siteId: amber.siteId, baseUrl: amber.url } },
    control: { ...demo.control, ...control },
  };
  const put = await fetch(`${h.service.url}/api/settings`, { method: 'PUT', headers: { 'content-type': 'application/json' }, body: JSON.stringify(settings) });
  expect(put.status).toBe(200);
  await nextPoll(h.service, clock, 0);
  await waitFor('the Amber prices', async () => ((await api('/api/prices')).current ? true : undefined), 10_000);
  // The demo asks for "Follow the price" as the owner (this PC).
  const res = await fetch(`${h.service.url}${FOLLOW_THE_PRICE.url}`, { method: FOLLOW_THE_PRICE.method, headers: { 'content-type': 'application/json' }, body: JSON.stringify(FOLLOW_THE_PRICE.payload) });
  expect(res.status).toBe(200);
  const settled = async () => {
    for (;;) {
      const s = (await h.service.app.inject({ url: '/api/control' })).json() as { busy: boolean };
      if (!s.busy) return;
      await new Promise((r) => setTimeout(r, 5));
    }
  };
  while (clock.now() < until) {
    beforePoll?.(h, clock.now());
    const state = await nextPoll(h.service, clock, POLL);
    await settled();
    polls.push({ t: state.lastUpdated!, battery: state.power.battery!, batteryGross: state.power.batteryGross!, grid: state.power.grid!, soc: state.battery.soc!, regs: { ...h.sim.plant.control.values } });
  }
  return { h, amber, polls };
}

describe('the demo’s price-following day', () => {
  let h: Harness;
  let amber: AmberSimulator;
  let polls: Poll[] = [];

  beforeAll(async () => {
    ({ h, amber, polls } = await runDay(end));
  }, 120_000);

  afterAll(async () => {
    await h?.stop();
    await amber?.close();
  });

  const between = (from: number, to: number) => polls.filter((p) => p.t >= from && p.t < to);
  const charging = (p: Poll) => p.regs.remoteEms === 1 && p.regs.controlMode === 3;

  it('charges from the grid in the cheap hours only, at the battery’s full power', () => {
    const charged = polls.filter(charging);
    expect(charged.length).toBeGreaterThan(3);
    // Every stretch the plant was charging began in an interval priced below 10 c (11:00–16:00).
    for (const p of charged) expect(amberPrice(p.t)).toBeLessThan(0.1);
    // The first is the cheapest: below zero at 11:00.
    expect(charged[0]!.t).toBe(at(11));
    const next = polls[polls.indexOf(charged[0]!) + 1]!;
    expect(next.battery).toBeGreaterThan(4500);
    expect(next.grid).toBeGreaterThan(5000);
    // Plant start/stop is never written; only the control registers.
    expect(h.sim.plant.control.startStopWrites).toBe(0);
    expect(h.sim.plant.control.writes.every((w) => [40029, 40031, 40032, 40034, 40038].includes(w.address))).toBe(true);
  });

  it('writes once per step, a few registers each: charge, hold, then back to Automatic for the peak', () => {
    const writes = h.sim.plant.control.writes.filter((w) => w.by === 'modbus').map((w) => [w.address, w.words.length === 1 ? w.words[0] : (w.words[0]! << 16) + w.words[1]!]);
    expect(writes).toEqual([
      // 11:00 charge from the grid (the charging limit is already the battery's 5000 W)
      [40031, 3],
      [40029, 1],
      // about 12:05, full: hold
      [40034, 0],
      [40031, 2],
      // 17:30 the peak: remote control off, the discharging limit put back
      [40029, 0],
      [40034, 5000],
    ]);
  });

  it('holds the charge until the peak: no discharge between the end of charging and 17:30', () => {
    const lastCharge = polls.filter(charging).at(-1)!;
    const held = between(lastCharge.t + POLL, at(17, 30));
    expect(held.length).toBeGreaterThan(40);
    const heldSoc = polls[polls.indexOf(lastCharge) + 1]!.soc;
    expect(heldSoc).toBeGreaterThanOrEqual(99);
    for (const p of held) {
      expect(p.regs).toMatchObject({ remoteEms: 1, controlMode: 2, dischargeLimitW: 0 });
      // The battery's own power register (30037, standby draw included) never shows a discharge.
      expect(p.batteryGross).toBeGreaterThanOrEqual(0);
      expect(p.soc).toBeGreaterThanOrEqual(heldSoc);
    }
    // The house draws from the grid meanwhile (the overcast panels do not cover it).
    expect(held.some((p) => p.grid > 500)).toBe(true);
  });

  it('in the peak the plant runs on its own and the battery covers the house', () => {
    const peak = between(at(17, 35), at(21));
    for (const p of peak) expect(p.regs.remoteEms).toBe(0);
    expect(peak.filter((p) => p.battery < 0).length).toBeGreaterThan(peak.length / 2);
    expect(peak.every((p) => p.grid <= 50)).toBe(true);
  });

  it('the saving on the control card is positive and is the energies at the simulator’s prices', async () => {
    // Each stretch between two polls at the power the second measured, under the registers and the
    // price in force when it began.
    let chargedKwh = 0;
    let chargedCost = 0;
    let peakKwh = 0;
    let peakValue = 0;
    for (let i = 1; i < polls.length; i++) {
      const prev = polls[i - 1]!;
      const p = polls[i]!;
      const hours = (p.t - prev.t) / H;
      const { battery, grid } = p;
      if (charging(prev) && battery > 0 && grid > 0) {
        const kwh = (Math.min(battery, grid) * hours) / 1000;
        chargedKwh += kwh;
        chargedCost += kwh * amberPrice(prev.t);
      }
      // The dearest hours of the simulated day: 50 c and more, 17:30–21:00.
      if (prev.t >= at(17, 30) && prev.t < at(21) && battery < 0) {
        const kwh = (-battery * hours) / 1000;
        peakKwh += kwh;
        peakValue += kwh * amberPrice(prev.t);
      }
    }
    const saved = Math.min(chargedKwh, peakKwh) * (peakValue / peakKwh - chargedCost / chargedKwh);
    expect(saved).toBeGreaterThan(1);

    const status = await (await fetch(`${h.service.url}/api/control`)).json();
    expect(status).toMatchObject({ enabled: true, dryRun: false, mode: { mode: 'schedule' }, currency: 'AUD' });
    expect(status.today.chargedKwh).toBeCloseTo(chargedKwh, 2);
    expect(status.today.chargedPrice).toBeCloseTo(chargedCost / chargedKwh, 3);
    expect(status.today.peakKwh).toBeCloseTo(peakKwh, 2);
    expect(status.today.saved).toBeCloseTo(saved, 2);
  });
});

describe('in a dry run', () => {
  it('the plan says it would charge at 11:00, nothing is written, and a charge another controller makes is not counted as its saving', async () => {
    // At 11:00 a virtual power plant has the battery charge from the grid.
    const vpp = (h: Harness, t: number) => {
      if (t !== at(11)) return;
      h.sim.otherController('controlMode', 3);
      h.sim.otherController('remoteEms', 1);
    };
    const { h, amber, polls } = await runDay(at(11, 30), { dryRun: true }, vpp);
    try {
      expect(h.sim.plant.control.writes.filter((w) => w.by === 'modbus')).toHaveLength(0);
      expect(polls.at(-1)!.battery).toBeGreaterThan(4500);
      const audit = await (await fetch(`${h.service.url}/api/control/audit?limit=50`)).json();
      expect(audit.entries.some((e: { kind: string; by: string; reason: string }) => e.kind === 'dry-run' && e.by === 'plan' && e.reason.startsWith('charge'))).toBe(true);
      const status = await (await fetch(`${h.service.url}/api/control`)).json();
      expect(status.today).toMatchObject({ chargedKwh: 0, peakKwh: 0, saved: null });
    } finally {
      await h.stop();
      await amber.close();
    }
  }, 60_000);
});
